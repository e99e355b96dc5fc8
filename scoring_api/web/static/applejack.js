// Applejack: build the orchard by clicking hexes, then harvest (variety + die), score
// blossoms, check a placement's honey, or run the final scoring. The areas the service
// finds are highlighted on the orchard.

import { errorBox, fieldError, latestOnly, pathParts, placeErrors, post } from './api.js';
import { h, rerender, toInt } from './dom.js';
import { t } from './i18n.js';
import { AREA_COLORS, EDGES, VARIETIES, describeTile, orchardSvg } from './orchard.js';

const STORE = 'scoring.applejack';
const state = {
  tiles: {}, selected: null, first: 'red', second: '', die: 1, times: 1, supply: 0,
  view: null, shown: 0, placed: null, sentFields: [], redo: null,
  taken: { apples: {}, blossoms: 0, beehives: ['e'], price: 3 }, // どこに置く？: the tile in hand, as printed
};
/** How many of the best placements are listed (and numbered on the orchard). */
const ADVICE_SHOWN = 5;
const latest = latestOnly();
const boxes = {};

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (saved && typeof saved.tiles === 'object') state.tiles = saved.tiles;
  } catch { /* start empty */ }
}
function save() {
  try { localStorage.setItem(STORE, JSON.stringify({ tiles: state.tiles })); } catch { /* private mode */ }
}

const newTree = () => ({ pasture: false, apples: {}, blossoms: 0, beehives: [], price: null });

/** Varieties are sent by their name in the UI language, so explanations read naturally. */
const varietyName = (variety) => t(`aj.variety.${variety}`);
const varietyOf = (name) => VARIETIES.find((v) => varietyName(v) === name) || name;

function tileBody(field, tile) {
  if (tile.pasture) return { field, pasture: true };
  const body = {
    field, apples: Object.fromEntries(Object.entries(tile.apples).filter(([, n]) => n > 0).map(([v, n]) => [varietyName(v), n])),
    blossoms: tile.blossoms || 0, beehives: tile.beehives,
  };
  if (tile.price !== null && tile.price !== undefined) body.price = tile.price;
  return body;
}
function orchardBody(without) {
  state.sentFields = Object.keys(state.tiles).map(Number).filter((f) => f !== without).sort((a, b) => a - b);
  return { tiles: state.sentFields.map((f) => tileBody(f, state.tiles[f])) };
}

/** orchard.tiles[i].apples -> "field-<n>"; die/varieties -> "harvest"; supply -> "final"... */
function placeApplejack(path) {
  const [head, a, b] = pathParts(path);
  if (head === 'orchard' && a === 'tiles' && typeof b === 'number' && state.sentFields[b]) return `field-${state.sentFields[b]}`;
  if (head === 'varieties' || head === 'die') return 'harvest';
  if (head === 'supply') return 'final';
  if (head === 'times') return 'blossoms';
  if (head === 'tile' && state.view?.kind === 'advice') return 'advice';
  if (head === 'tile' || head === 'pay') return 'placement';
  return null;
}

async function run(kind, path, body) {
  state.redo = () => run(kind, path, body);
  const answer = await latest(() => post(path, body()));
  if (!answer) return;
  state.placed = answer.ok ? null : placeErrors(answer.error, placeApplejack);
  state.view = answer.ok ? { kind, data: answer.data } : null;
  state.shown = 0;
  render(`aj-${kind}-go`);
}

const harvest = () => run('harvest', 'applejack/harvest', () => ({
  orchard: orchardBody(), varieties: [state.first, state.second].filter(Boolean).map(varietyName), die: state.die,
}));
const finalScore = () => run('final', 'applejack/final', () => ({ orchard: orchardBody(), supply: state.supply }));
const blossoms = () => run('blossoms', 'applejack/blossoms', () => ({ orchard: orchardBody(), times: state.times }));
const advise = () => run('advice', 'applejack/placements', () => ({
  orchard: orchardBody(),
  tile: {
    apples: Object.fromEntries(Object.entries(state.taken.apples).filter(([, n]) => n > 0).map(([v, n]) => [varietyName(v), n])),
    blossoms: state.taken.blossoms || 0, beehives: state.taken.beehives, price: state.taken.price ?? 0,
  },
  supply: state.supply ?? 0,
}));
const placement = () => run('placement', 'applejack/placement', () => {
  const tile = state.tiles[state.selected];
  return { orchard: orchardBody(state.selected), tile: tileBody(state.selected, tile), pay: !tile.pasture };
});

/** The orchard changed: old results no longer describe it. */
function edited() {
  state.view = null;
  state.placed = null;
  state.redo = null;
  save();
  renderOrchard();
  renderResults();
  const summary = document.getElementById('aj-editor-summary');
  if (summary) summary.textContent = describeTile(state.tiles[state.selected]);
}

function shownAreas() {
  const view = state.view;
  if (view?.kind === 'advice') { // the best placements' fields, numbered in rank order
    const fields = new Map();
    view.data.options.slice(0, ADVICE_SHOWN).forEach((option) => { if (!fields.has(option.field)) fields.set(option.field, fields.size); });
    return fields;
  }
  const harvests = view?.kind === 'harvest' ? view.data.harvests : view?.kind === 'final' ? view.data.final_harvest : null;
  const areaOf = new Map();
  const chosen = harvests?.[state.shown];
  chosen?.areas.forEach((area, k) => area.fields.forEach((f) => areaOf.set(f, k)));
  return areaOf;
}

function renderOrchard() {
  const errorFields = new Set(Object.keys(state.placed?.bySlot || {}).filter((k) => k.startsWith('field-')).map((k) => Number(k.slice(6))));
  rerender(boxes.orchard, [
    orchardSvg({
      tiles: state.tiles, selected: state.selected, areaOf: shownAreas(), errorFields,
      onPick: (field) => {
        state.selected = field;
        render();
        const title = document.getElementById('aj-editor-title');
        title?.focus({ preventScroll: true });
        title?.scrollIntoView({ block: 'nearest' });
      },
    }),
    errorFields.size ? h('ul', { class: 'field-error', role: 'alert', testid: 'aj-field-errors' }, [...errorFields].map((f) =>
      state.placed.bySlot[`field-${f}`].map((reason) => h('li', null, `${t('aj.fieldN', { n: f })}: ${reason}`)))) : null,
  ]);
}

function numberField(id, label, value, min, max, onValue) {
  return h('span', { class: 'field' },
    h('label', { for: id }, label),
    h('input', { id, testid: id, type: 'number', inputmode: 'numeric', min, max, class: 'num-input', value: value ?? '',
      oninput: (e) => { onValue(toInt(e.target.value)); edited(); } }));
}

/** A tree tile's apples per variety: inputs `<prefix>-<variety>` that set `tile.apples`. */
function appleInputs(prefix, tile, changed) {
  return h('fieldset', { class: 'plain' }, h('legend', null, t('aj.apples')),
    h('div', { class: 'apple-grid' }, VARIETIES.map((v) => h('span', { class: 'field' },
      h('label', { for: `${prefix}-${v}` }, h('span', { class: `apple-dot v-${v}`, 'aria-hidden': 'true' }), t(`aj.variety.${v}`)),
      h('input', { id: `${prefix}-${v}`, testid: `${prefix}-${v}`, type: 'number', inputmode: 'numeric', min: 0, max: 10, class: 'num-input',
        value: tile.apples[v] || '', placeholder: '0', oninput: (e) => { tile.apples[v] = toInt(e.target.value) ?? 0; changed(); } })))));
}

/** A tree tile's beehive edges: checkboxes `<prefix>-<edge>` that set `tile.beehives` (in EDGES order). */
function edgeChecks(prefix, legend, tile, changed) {
  return h('fieldset', { class: 'plain' }, h('legend', null, legend),
    h('div', { class: 'edge-grid' }, ['nw', 'ne', 'w', 'e', 'sw', 'se'].map((edge) => h('span', { class: 'choice-item' },
      h('input', { type: 'checkbox', id: `${prefix}-${edge}`, testid: `${prefix}-${edge}`, checked: tile.beehives.includes(edge),
        onchange: (e) => {
          tile.beehives = EDGES.filter((x) => (x === edge ? e.target.checked : tile.beehives.includes(x)));
          changed();
        } }),
      h('label', { for: `${prefix}-${edge}` }, t(`aj.edge.${edge}`))))));
}

function editor() {
  const field = state.selected;
  if (!field) return h('p', { class: 'hint' }, t('aj.pickField'));
  const tile = state.tiles[field];
  const kind = tile ? (tile.pasture ? 'pasture' : 'tree') : 'empty';
  const setKind = (value) => {
    if (value === 'empty') delete state.tiles[field];
    else if (value === 'pasture') state.tiles[field] = { ...newTree(), pasture: true };
    else state.tiles[field] = newTree();
    edited();
    renderEditor();
  };
  return h('div', { class: 'card-box editor', testid: 'aj-editor' },
    h('h3', { id: 'aj-editor-title', tabindex: -1 }, t('aj.fieldN', { n: field }), ' ', h('small', { id: 'aj-editor-summary' }, describeTile(tile))),
    h('fieldset', { class: 'choice', testid: 'aj-kind' }, h('legend', null, t('aj.kind')),
      ['empty', 'tree', 'pasture'].map((value) => h('span', { class: 'choice-item' },
        h('input', { type: 'radio', name: 'aj-kind', id: `aj-kind-${value}`, testid: `aj-kind-${value}`, checked: kind === value, onchange: () => setKind(value) }),
        h('label', { for: `aj-kind-${value}` }, t(`aj.kind.${value}`))))),
    kind === 'tree' ? [
      appleInputs('aj-apples', tile, edited),
      h('div', { class: 'row' },
        numberField('aj-blossoms', t('aj.blossoms'), tile.blossoms || '', 0, 10, (n) => { tile.blossoms = n ?? 0; }),
        numberField('aj-price', t('aj.price'), tile.price, 0, 10, (n) => { tile.price = n; })),
      edgeChecks('aj-hive', t('aj.beehiveEdges'), tile, edited),
    ] : null,
    fieldError(state.placed, `field-${field}`, 'aj-editor-error'),
    h('div', { class: 'row' },
      tile ? h('button', { type: 'button', class: 'secondary small', id: 'aj-placement-go', testid: 'aj-placement-go', onclick: placement }, t('aj.placement')) : null,
      h('button', { type: 'button', class: 'secondary small', testid: 'aj-editor-close', onclick: () => { state.selected = null; render(); document.getElementById(`aj-field-${field}`)?.focus(); } }, t('aj.done'))),
    fieldError(state.placed, 'placement', 'aj-placement-error'),
    state.view?.kind === 'placement' ? placementView(state.view.data) : null);
}

function placementView(data) {
  return h('div', { class: 'result', 'aria-live': 'polite', testid: 'aj-placement-result' },
    h('p', { class: 'big' }, t('aj.honeyChange', { honey: data.honey >= 0 ? `+${data.honey}` : String(data.honey) })),
    h('ul', null, data.connections.map((c) => h('li', null, c.explanation))),
    h('p', { class: 'explanation' }, data.explanation));
}

function varietySelect(id, value, allowNone, onValue) {
  return h('select', { id, testid: id, value, onchange: (e) => onValue(e.target.value) },
    allowNone ? h('option', { value: '' }, t('aj.none')) : null,
    VARIETIES.map((v) => h('option', { value: v }, t(`aj.variety.${v}`))));
}

function actions() {
  return h('div', { class: 'actions' },
    h('form', { class: 'card-box', testid: 'aj-harvest-form', onsubmit: (e) => { e.preventDefault(); harvest(); } },
      h('h3', null, t('aj.harvest')),
      h('div', { class: 'row' },
        h('span', { class: 'field' }, h('label', { for: 'aj-variety' }, t('aj.variety')), varietySelect('aj-variety', state.first, false, (v) => { state.first = v; })),
        h('span', { class: 'field' }, h('label', { for: 'aj-variety2' }, t('aj.variety2')), varietySelect('aj-variety2', state.second, true, (v) => { state.second = v; }))),
      h('fieldset', { class: 'choice' }, h('legend', null, t('aj.die')),
        [1, 2, 3].map((d) => h('span', { class: 'choice-item' },
          h('input', { type: 'radio', name: 'aj-die', id: `aj-die-${d}`, testid: `aj-die-${d}`, checked: state.die === d, onchange: () => { state.die = d; } }),
          h('label', { for: `aj-die-${d}` }, String(d))))),
      fieldError(state.placed, 'harvest', 'aj-harvest-error'),
      h('button', { type: 'submit', id: 'aj-harvest-go', testid: 'aj-harvest-go' }, t('aj.harvestGo'))),
    h('form', { class: 'card-box', testid: 'aj-blossoms-form', onsubmit: (e) => { e.preventDefault(); blossoms(); } },
      h('h3', null, t('aj.blossomScoring')),
      h('fieldset', { class: 'choice' }, h('legend', null, t('aj.times')),
        [1, 2].map((n) => h('span', { class: 'choice-item' },
          h('input', { type: 'radio', name: 'aj-times', id: `aj-times-${n}`, testid: `aj-times-${n}`, checked: state.times === n, onchange: () => { state.times = n; } }),
          h('label', { for: `aj-times-${n}` }, t(`aj.times${n}`))))),
      fieldError(state.placed, 'blossoms', 'aj-blossoms-error'),
      h('button', { type: 'submit', id: 'aj-blossoms-go', testid: 'aj-blossoms-go' }, t('aj.blossomsGo'))),
    h('form', { class: 'card-box', testid: 'aj-final-form', onsubmit: (e) => { e.preventDefault(); finalScore(); } },
      h('h3', null, t('aj.final')),
      h('div', { class: 'row' },
        h('label', { for: 'aj-supply' }, t('aj.supply')),
        h('input', { id: 'aj-supply', testid: 'aj-supply', type: 'number', inputmode: 'numeric', min: 0, max: 10000, class: 'num-input',
          value: state.supply ?? '', oninput: (e) => { state.supply = toInt(e.target.value); } })),
      fieldError(state.placed, 'final', 'aj-final-error'),
      h('button', { type: 'submit', id: 'aj-final-go', testid: 'aj-final-go' }, t('aj.finalGo'))),
    adviceForm());
}

/** どこに置く？: the tile in hand as printed (beehives before turning it), and the honey held. */
function adviceForm() {
  const tile = state.taken;
  return h('form', { class: 'card-box', testid: 'aj-advice-form', onsubmit: (e) => { e.preventDefault(); advise(); } },
    h('h3', null, t('aj.advice')),
    h('p', { class: 'hint' }, t('aj.adviceHint')),
    appleInputs('aj-taken-apples', tile, () => {}),
    h('div', { class: 'row' },
      h('span', { class: 'field' }, h('label', { for: 'aj-taken-blossoms' }, t('aj.blossoms')),
        h('input', { id: 'aj-taken-blossoms', testid: 'aj-taken-blossoms', type: 'number', inputmode: 'numeric', min: 0, max: 10, class: 'num-input',
          value: tile.blossoms || '', oninput: (e) => { tile.blossoms = toInt(e.target.value) ?? 0; } })),
      h('span', { class: 'field' }, h('label', { for: 'aj-taken-price' }, t('aj.price')),
        h('input', { id: 'aj-taken-price', testid: 'aj-taken-price', type: 'number', inputmode: 'numeric', min: 0, max: 10, class: 'num-input',
          value: tile.price ?? '', oninput: (e) => { tile.price = toInt(e.target.value); } }))),
    edgeChecks('aj-taken-hive', t('aj.printedEdges'), tile, () => {}),
    h('p', { class: 'hint' }, t('aj.adviceSupply')),
    fieldError(state.placed, 'advice', 'aj-advice-error'),
    h('button', { type: 'submit', id: 'aj-advice-go', testid: 'aj-advice-go' }, t('aj.adviceGo')));
}

function resultView() {
  const view = state.view;
  if (!view || view.kind === 'placement') return null;
  return resultCard(view.kind, view.data, 'aj', true);
}

/**
 * The result card of an Applejack answer: `kind` is harvest, blossoms, final or advice;
 * `prefix` starts the test ids; `interactive` adds the buttons that colour a variety's
 * areas on this panel's orchard (the chat shows the same cards without them).
 */
export function resultCard(kind, data, prefix = 'aj', interactive = false) {
  if (kind === 'advice') return adviceView(data, prefix);
  if (kind === 'blossoms') {
    return h('div', { class: 'card-box result', testid: `${prefix}-blossoms-result` },
      h('p', { class: 'big' }, `${t('aj.honey')} +`, h('strong', { testid: `${prefix}-blossoms-honey` }, String(data.honey))), h('p', { class: 'explanation' }, data.explanation));
  }
  if (kind === 'harvest') {
    return h('div', { class: 'card-box result', testid: `${prefix}-harvest-result` },
      h('p', { class: 'big' }, `${t('aj.honey')} +`, h('strong', { testid: `${prefix}-harvest-honey` }, String(data.honey))),
      harvestList(data.harvests, prefix, interactive),
      h('p', { class: 'explanation' }, data.explanation));
  }
  const rows = [
    ['crop', data.crop], ['crop_doubled', data.crop_doubled],
    ['variety_bonus', data.variety_bonus, data.profitable_varieties.join(', ') || t('aj.none')],
    ['blossoms', data.blossoms], ['supply', data.supply],
  ];
  return h('div', { class: 'card-box result', testid: `${prefix}-final-result` },
    h('table', { class: 'score-table', testid: `${prefix}-final-breakdown` },
      h('caption', null, t('aj.finalBreakdown')),
      h('tbody', null, rows.map(([key, value, note]) => h('tr', { testid: `${prefix}-final-${key}` },
        h('th', { scope: 'row' }, t(`aj.final.${key}`), note ? h('small', null, ` (${note})`) : null), h('td', { class: 'num' }, String(value))))),
      h('tfoot', null, h('tr', null, h('th', { scope: 'row' }, t('aj.final.total')), h('td', { class: 'num total', testid: `${prefix}-final-total` }, String(data.total))))),
    h('ol', { class: 'steps' }, data.steps.map((step) => h('li', null, step.replace(/^\d+\.\s*/, '')))),
    h('details', null, h('summary', null, t('aj.finalAreas')), harvestList(data.final_harvest, prefix, interactive)),
    h('p', { class: 'explanation' }, data.explanation));
}

function adviceView(data, prefix) {
  const edges = (option) => (option.beehives.length ? option.beehives.map((e) => t(`aj.edge.${e}`)).join(t('aj.separator')) : '');
  return h('div', { class: 'card-box result', testid: `${prefix}-advice-result` },
    h('ol', { class: 'pick-options' }, data.options.slice(0, ADVICE_SHOWN).map((option, k) => h('li', { class: `card-box${k === 0 ? ' best' : ''}`, testid: `${prefix}-advice-option-${k}` },
      h('strong', null, t('aj.fieldN', { n: option.field })), ' ',
      option.pay ? t('aj.adviceTree', { edges: edges(option) }) : t('aj.advicePasture'), ' ',
      h('span', { class: 'total', testid: `${prefix}-advice-final-${k}` }, String(option.final_if_now)), h('span', { class: 'unit' }, t('aj.adviceFinal')),
      ' ', h('small', null, t('aj.honeyChange', { honey: option.honey_now >= 0 ? `+${option.honey_now}` : String(option.honey_now) }))))),
    h('p', { class: 'explanation' }, data.explanation));
}

function harvestList(harvests, prefix, interactive) {
  return harvests.map((harvest, k) => h('div', { class: 'harvest' },
    h('h4', null, interactive && harvests.length > 1
      ? h('button', { type: 'button', class: 'small secondary', 'aria-pressed': String(state.shown === k), testid: `${prefix}-show-${k}`,
        onclick: () => { state.shown = k; renderOrchard(); renderResults(); } }, t('aj.showAreas', { variety: harvest.variety }))
      : null,
    ' ', h('span', { class: `apple-dot v-${varietyOf(harvest.variety)}`, 'aria-hidden': 'true' }), harvest.explanation),
    h('ul', { class: 'areas' }, harvest.areas.map((area, i) => h('li', { testid: `${prefix}-area-${k}-${i}` },
      interactive && state.shown === k ? h('span', { class: 'area-swatch', style: `--area: ${AREA_COLORS[i % AREA_COLORS.length]}`, 'aria-hidden': 'true' }, String(i + 1)) : null,
      area.explanation)))));
}

function renderResults() {
  rerender(boxes.results, [errorBox(state.placed, 'aj-error'), resultView()]);
}
function renderEditor() { rerender(boxes.editor, editor()); }

export function render(focusFallback) {
  if (!boxes.root) return;
  boxes.title.textContent = t('aj.title');
  boxes.intro.textContent = t('aj.intro');
  renderOrchard();
  renderEditor();
  rerender(boxes.actions, actions(), focusFallback);
  renderResults();
  boxes.clear.textContent = t('aj.clearOrchard');
  boxes.results.setAttribute('aria-label', t('aj.results'));
}

export function refresh() { if (state.redo) state.redo(); }

export function mount(panel) {
  load();
  boxes.root = panel;
  boxes.title = h('h2');
  boxes.intro = h('p', { class: 'hint' });
  boxes.orchard = h('div', { class: 'orchard-box' });
  boxes.editor = h('div', { class: 'editor-box' });
  boxes.actions = h('div');
  boxes.results = h('section', { class: 'results', 'aria-live': 'polite', testid: 'aj-results' });
  boxes.clear = h('button', { type: 'button', class: 'secondary small', testid: 'aj-clear',
    onclick: () => { state.tiles = {}; state.selected = null; edited(); renderEditor(); } });
  panel.replaceChildren(boxes.title, boxes.intro,
    h('div', { class: 'aj-layout' }, h('div', null, boxes.orchard, boxes.clear, boxes.editor), h('div', null, boxes.actions, boxes.results)));
  render();
}
