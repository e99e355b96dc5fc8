// Applejack: each player's orchard built by tapping hexes, then harvest (variety + die),
// score blossoms, check a placement's honey, ask where a tile goes, or run the final
// scoring, which ranks the players. The areas the service finds are highlighted on the
// orchard. Everything entered is kept in the browser and travels in a shared link.

import { errorBox, latestOnly, pathParts, post } from './api.js';
import { h, onPage, patch, rankingStrip, showAnswer, whenRendered } from './dom.js';
import { t } from './i18n.js';
import { AREA_COLORS, EDGES, FIELDS, VARIETIES, describeTile, orchardLegend, orchardSvg } from './orchard.js';
import { person, winnerLine, winnerText } from './people.js';
import { keep, kept } from './store.js';

const GAME = 'applejack';
const MAX_PLAYERS = 4;
/** The service's limits for the boxes of the form (docs/rules/applejack.md). */
const RANGE = { apples: [0, 10], blossoms: [0, 10], price: [0, 10], supply: [0, 10000] };
/** Answers that are asked again after a reload or a shared link (they need no selection). */
const REPEATABLE = ['harvest', 'blossoms', 'final', 'advice'];
/** How many of the best placements are listed (and numbered on the orchard). */
const ADVICE_SHOWN = 5;

const newTree = () => ({ pasture: false, apples: {}, blossoms: 0, beehives: [], price: null });
const newPlayer = () => ({ name: '', tiles: {}, supply: null, final: null });
const newTaken = () => ({ apples: {}, blossoms: 0, beehives: ['e'], price: 3 }); // どこに置く？: the tile in hand, as printed

const state = {
  players: [newPlayer()], current: 0, first: 'red', second: '', die: 1, times: 1, taken: newTaken(),
  finalOnly: false, // 最終得点の分だけ: the editor and the actions ask only what the final score needs
  last: null, // the kind of answer asked for last (asked again after a reload)
  selected: null, hex: null, view: null, shown: 0, placed: null, redo: null,
  previous: null, // the field open before the one in the editor (「前と同じタイル」 copies its tile)
  adviceOpen: false, areasOpen: false, // the disclosures どこに置く？ and 品種ごとのエリア, open or not
};
/** What a render starts without: nothing selected, no answer, no marks. */
const FRESH = { selected: null, hex: null, view: null, shown: 0, placed: null, redo: null, previous: null };
const latest = latestOnly();
const boxes = {};
/** Nodes of the newest render that an answer may move the focus to. */
let built = {};
const me = () => state.players[state.current];

// -- Keeping and sharing ------------------------------------------------------------------

const isObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
const whole = (x) => (Number.isInteger(x) && Math.abs(x) <= 1e6 ? x : null);

function cleanTile(raw) {
  if (!isObject(raw)) return null;
  if (raw.pasture === true) return { ...newTree(), pasture: true };
  const tile = newTree();
  if (isObject(raw.apples)) {
    for (const variety of VARIETIES) if (whole(raw.apples[variety]) !== null) tile.apples[variety] = raw.apples[variety];
  }
  tile.blossoms = whole(raw.blossoms) ?? 0;
  if (Array.isArray(raw.beehives)) tile.beehives = EDGES.filter((edge) => raw.beehives.includes(edge));
  tile.price = whole(raw.price);
  return tile;
}

function cleanPlayer(raw) {
  if (!isObject(raw)) return null;
  const tiles = {};
  if (isObject(raw.tiles)) {
    for (const [key, tile] of Object.entries(raw.tiles)) {
      const field = Number(key);
      const clean = Number.isInteger(field) && field >= 1 && field <= 19 ? cleanTile(tile) : null;
      if (clean) tiles[field] = clean;
    }
  }
  return { name: typeof raw.name === 'string' ? raw.name.slice(0, 30) : '', tiles, supply: whole(raw.supply), final: whole(raw.final) };
}

/** A kept or shared state, checked piece by piece: anything odd is dropped, never trusted. */
function cleanState(data) {
  if (!isObject(data) || !Array.isArray(data.players)) return null;
  const players = data.players.slice(0, MAX_PLAYERS).map(cleanPlayer).filter(Boolean);
  if (!players.length) return null;
  const taken = isObject(data.taken) ? cleanTile(data.taken) : null;
  return {
    players,
    current: Number.isInteger(data.current) && data.current >= 0 && data.current < players.length ? data.current : 0,
    first: VARIETIES.includes(data.first) ? data.first : 'red',
    second: VARIETIES.includes(data.second) ? data.second : '',
    die: [1, 2, 3].includes(data.die) ? data.die : 1,
    times: [1, 2].includes(data.times) ? data.times : 1,
    taken: taken ? { apples: taken.apples, blossoms: taken.blossoms, beehives: taken.beehives, price: taken.price } : newTaken(),
    finalOnly: data.finalOnly === true,
    last: REPEATABLE.includes(data.last) ? data.last : null,
  };
}

/** Only whole numbers are kept (a box holding "2.5" comes back empty). */
const keptNumber = (n) => (Number.isInteger(n) ? n : null);
function keptTile(tile) {
  if (tile.pasture) return { pasture: true };
  return {
    apples: Object.fromEntries(Object.entries(tile.apples).filter(([, n]) => Number.isInteger(n) && n !== 0)),
    blossoms: keptNumber(tile.blossoms) ?? 0, beehives: [...tile.beehives], price: keptNumber(tile.price),
  };
}

/** Everything entered: players (name, orchard, honey held, last final score) and the forms. */
export function snapshot() {
  return {
    players: state.players.map((p) => ({
      name: p.name, supply: keptNumber(p.supply), final: p.final,
      tiles: Object.fromEntries(Object.entries(p.tiles).map(([field, tile]) => [field, keptTile(tile)])),
    })),
    current: state.current, first: state.first, second: state.second, die: state.die, times: state.times,
    taken: keptTile(state.taken), finalOnly: state.finalOnly, last: state.last,
  };
}

function save() { keep(GAME, snapshot()); }

/** The save from before versions: {tiles} under the same key. */
const legacy = (raw) => (isObject(raw?.tiles) ? { players: [{ tiles: raw.tiles }] } : null);

function apply(clean) {
  Object.assign(state, clean, FRESH);
}

/** A shared link's data: a bad one changes nothing. */
export function restore(data) {
  let clean = null;
  try { clean = cleanState(data); } catch { clean = null; }
  if (!clean) return;
  apply(clean);
  save();
  render();
  if (state.last) run(state.last, { quiet: true });
}

const playerName = (k) => state.players[k].name.trim() || t('aj.playerN', { n: k + 1 });

/** Players with a final score, best first; ★ only when every player of 2 or more is scored. */
function ranking() {
  const scored = state.players.map((p, k) => ({ name: playerName(k), total: p.final })).filter((row) => row.total !== null);
  scored.sort((a, b) => b.total - a.total);
  const everyone = state.players.length > 1 && scored.length === state.players.length;
  const best = scored.length ? scored[0].total : null;
  return scored.map((row) => ({ ...row, winner: everyone && row.total === best }));
}
const unscored = () => state.players.map((p, k) => (p.final === null ? playerName(k) : null)).filter(Boolean);
/** The winners' names and their score, or null until every player of 2 or more is scored. */
function winnersOf(rows) {
  const winners = rows.filter((row) => row.winner);
  return winners.length ? { names: winners.map((row) => row.name), total: winners[0].total } : null;
}

/** The scoreboard as plain text (the players' final scores), '' before any final score. */
export function scoreText() {
  const rows = ranking();
  if (!rows.length) return '';
  const lines = [t('aj.score.title'), ...rows.map((row) => t('aj.score.line', { name: row.name, total: row.total }))];
  const winners = winnersOf(rows);
  if (winners) lines.push(winnerText(winners.names, winners.total));
  const missing = unscored();
  if (missing.length) lines.push(t('aj.score.missing', { names: missing.join(t('aj.separator')) }));
  return lines.join('\n');
}

// -- Requests, and the check before sending -------------------------------------------------

/** Varieties are sent by their name in the UI language, so explanations read naturally. */
const varietyName = (variety) => t(`aj.variety.${variety}`);
const varietyOf = (name) => VARIETIES.find((v) => varietyName(v) === name) || name;

/** A box's number: null when blank, the whole number, or the text when it is not one. */
function readNumber(input) {
  if (input.validity?.badInput) return '?';
  const text = input.value.trim();
  if (text === '') return null;
  const n = Number(text);
  return Number.isInteger(n) ? n : text;
}

/** Collects what is wrong before or after sending: by slot (where it is shown) and by box. */
function problems() {
  const found = { bySlot: {}, boxes: new Set(), rest: [], message: '' };
  found.add = (slot, box, text) => {
    (found.bySlot[slot] ||= []).push(text);
    if (box) found.boxes.add(box);
  };
  found.any = () => Object.keys(found.bySlot).length > 0;
  return found;
}

function checkRange(found, slot, box, label, value, [min, max]) {
  if (value === null || (Number.isInteger(value) && value >= min && value <= max)) return;
  found.add(slot, box, t('aj.err.range', { label, min, max }));
}

/**
 * The boxes of a tile: a blank apple or blossom box is 0; `needs` asks for the price and
 * beehives of a tile bought tree side up, or for the price of a tile showing beehives.
 */
function checkTile(found, { field, tile, needs }) {
  const slot = field ? `field-${field}` : 'advice';
  const prefix = field ? `f${field}` : 'taken';
  const owner = field ? t('aj.fieldN', { n: field }) : t('aj.takenTile');
  if (tile.pasture) return;
  for (const [variety, n] of Object.entries(tile.apples)) {
    checkRange(found, slot, `${prefix}.apples.${variety}`, t('aj.box.apples', { owner, variety: varietyName(variety) }), n, RANGE.apples);
  }
  checkRange(found, slot, `${prefix}.blossoms`, t('aj.box.blossoms', { owner }), tile.blossoms, RANGE.blossoms);
  checkRange(found, slot, `${prefix}.price`, t('aj.box.price', { owner }), tile.price, RANGE.price);
  if (needs === 'bought' && !tile.beehives.length) {
    found.add(slot, `${prefix}.beehives`, field ? t('aj.ask.fieldBeehives', { n: field }) : t('aj.ask.takenBeehives'));
  }
  if ((needs === 'bought' || (needs === 'hives' && tile.beehives.length)) && tile.price === null) {
    found.add(slot, `${prefix}.price`, field ? t('aj.ask.fieldPrice', { n: field }) : t('aj.ask.takenPrice'));
  }
}

function checkSupply(found, slot) {
  if (me().supply === null) found.add(slot, 'supply', t('aj.ask.supply'));
  else checkRange(found, slot, 'supply', t('aj.supply'), me().supply, RANGE.supply);
}

const count = (n) => (Number.isInteger(n) && n > 0 ? n : 0);
const applesBody = (apples) => Object.fromEntries(Object.entries(apples).filter(([, n]) => count(n)).map(([v, n]) => [varietyName(v), n]));

/**
 * A tile as sent. Harvest, blossoms and the final scoring need no beehives or price, so a
 * tile whose price is not entered yet is sent without them (`connections` false).
 */
function tileBody(field, tile, connections) {
  if (tile.pasture) return { field, pasture: true };
  const body = { field, apples: applesBody(tile.apples), blossoms: count(tile.blossoms) };
  if (tile.price !== null) Object.assign(body, { beehives: tile.beehives, price: tile.price });
  else if (connections || !tile.beehives.length) body.beehives = [];
  return body;
}

/** The current orchard (without the field `without`), checked; remembers the order sent. */
function orchardBody(found, { without, connections }) {
  const fields = Object.keys(me().tiles).map(Number).filter((f) => f !== without).sort((a, b) => a - b);
  for (const field of fields) checkTile(found, { field, tile: me().tiles[field], needs: connections ? 'hives' : null });
  return { fields, body: { tiles: fields.map((f) => tileBody(f, me().tiles[f], connections)) } };
}

const REQUESTS = {
  harvest(found) {
    const orchard = orchardBody(found, {});
    const varieties = [state.first, state.second].filter(Boolean).map(varietyName);
    return { path: 'applejack/harvest', fields: orchard.fields, body: { orchard: orchard.body, varieties, die: state.die } };
  },
  blossoms(found) {
    const orchard = orchardBody(found, {});
    return { path: 'applejack/blossoms', fields: orchard.fields, body: { orchard: orchard.body, times: state.times } };
  },
  final(found) {
    const orchard = orchardBody(found, {});
    checkSupply(found, 'final');
    return { path: 'applejack/final', fields: orchard.fields, body: { orchard: orchard.body, supply: me().supply } };
  },
  advice(found) {
    const orchard = orchardBody(found, { connections: true });
    const tile = state.taken;
    checkTile(found, { field: null, tile, needs: 'bought' });
    checkSupply(found, 'advice');
    return {
      path: 'applejack/placements', fields: orchard.fields,
      body: {
        orchard: orchard.body, supply: me().supply,
        tile: { apples: applesBody(tile.apples), blossoms: count(tile.blossoms), beehives: tile.beehives, price: tile.price },
      },
    };
  },
  placement(found, field) {
    const tile = me().tiles[field];
    if (!tile) return null;
    const orchard = orchardBody(found, { without: field, connections: true });
    checkTile(found, { field, tile, needs: 'bought' });
    return {
      path: 'applejack/placement', fields: orchard.fields, placing: field,
      body: { orchard: orchard.body, tile: tileBody(field, tile, true), pay: !tile.pasture },
    };
  },
};

/** Where a path of the service's error details is on the form, and the box's name. */
function boxOfPath(path, kind, sent) {
  const [head, a, b, c, d] = pathParts(path);
  const tileBox = (field, part, detail) => {
    const slot = field ? `field-${field}` : 'advice';
    const prefix = field ? `f${field}` : 'taken';
    const owner = field ? t('aj.fieldN', { n: field }) : t('aj.takenTile');
    if (part === 'apples' && typeof detail === 'string') {
      const variety = varietyOf(detail);
      return { slot, box: `${prefix}.apples.${variety}`, label: t('aj.box.apples', { owner, variety: varietyName(variety) }) };
    }
    if (['blossoms', 'price', 'beehives'].includes(part)) return { slot, box: `${prefix}.${part}`, label: t(`aj.box.${part}`, { owner }) };
    return { slot, box: null, label: owner };
  };
  if (head === 'orchard' && a === 'tiles' && typeof b === 'number' && sent.fields[b]) return tileBox(sent.fields[b], c, d);
  if (head === 'tile') return kind === 'advice' ? tileBox(null, a, b) : tileBox(sent.placing, a, b);
  if (head === 'supply') return { slot: kind === 'advice' ? 'advice' : 'final', box: 'supply', label: t('aj.supply') };
  if (head === 'varieties') return { slot: 'harvest', box: null, label: t('aj.variety') };
  if (head === 'die') return { slot: 'harvest', box: null, label: t('aj.die') };
  if (head === 'times') return { slot: 'blossoms', box: null, label: t('aj.times') };
  return { slot: kind === 'placement' && sent.placing ? `field-${sent.placing}` : kind, box: null, label: null };
}

/** The service's refusal, every reason next to its box and led by the box's name. */
function placeAnswer(error, kind, sent) {
  const found = problems();
  found.message = error?.message || '';
  for (const [path, reasons] of Object.entries(error?.details || {})) {
    const { slot, box, label } = boxOfPath(path, kind, sent);
    for (const reason of Array.isArray(reasons) ? reasons : [String(reasons)]) {
      found.add(slot, box, label && !String(reason).startsWith(label) ? t('aj.err.labelled', { label, reason }) : String(reason));
    }
  }
  return found;
}

async function run(kind, { quiet = false, field = null } = {}) {
  const found = problems();
  const request = REQUESTS[kind](found, field);
  if (!request) return;
  state.redo = () => run(kind, { quiet: true, field });
  state.last = REPEATABLE.includes(kind) ? kind : null;
  if (found.any()) {
    latest(async () => null); // an answer still on its way is no longer wanted
    settle(kind, { placed: found }, quiet);
    return;
  }
  const answer = await latest((signal) => post(request.path, request.body, signal));
  if (!answer) return;
  settle(kind, answer.ok ? { data: answer.data } : { placed: placeAnswer(answer.error, kind, request) }, quiet, request);
}

/** An answer (or the reasons it could not be asked) is shown; the editor closes. */
function settle(kind, { data, placed }, quiet, request) {
  const markedBefore = state.placed;
  if (!quiet) state.selected = null;
  state.view = data ? { kind, data, placing: request?.placing } : null;
  state.placed = placed || null;
  state.shown = 0;
  built = {};
  if (kind === 'final' && data) me().final = data.total;
  const firstField = Object.keys(state.placed?.bySlot || {}).find((slot) => slot.startsWith('field-'));
  if (firstField && !quiet) state.selected = Number(firstField.slice(6)); // open the tile to fix
  save();
  if (markedBefore || state.placed) render(); // reasons shown at their boxes, or taken away
  else { renderOrchard(); renderEditor(); renderResults(); } // all that an answer changes
  if (!quiet) reveal(kind);
}

/** Run `fn(el)` once `node` of a render is on the page as `el` (a render waits while a
 * pointer is pressed, and a patch may keep the page's element in its place). */
function whenShown(node, fn) {
  if (node) whenRendered(() => { const el = onPage(node); if (el.isConnected) fn(el); });
}

/** Brings the answer (or what to fix) into view and moves the focus to it. */
function reveal(kind) {
  const target = state.placed
    ? built['aj-editor-error'] || built[`aj-${kind}-error`] || built.errorBox || built['aj-field-errors']
    : built.result;
  whenShown(target, (el) => {
    if (!state.placed && (kind === 'harvest' || kind === 'advice')) orchardInView(el);
    showAnswer(el);
  });
}

/**
 * On a phone the orchard sits above the answer: scroll (as little as possible) so that the
 * whole orchard and the start of the answer are on screen, when they fit together; else
 * showAnswer shows the answer alone. On a wide screen the orchard stays on screen (sticky).
 */
function orchardInView(answer) {
  if (getComputedStyle(boxes.board).position === 'sticky') return;
  const orchard = boxes.orchard.getBoundingClientRect();
  const box = answer.getBoundingClientRect();
  const enough = window.innerHeight - Math.min(box.height, window.innerHeight * 0.5); // as showAnswer
  const [low, high] = [box.top - enough, orchard.top]; // a scroll by `low` shows the answer, by `high` the orchard's top
  if (low > high) return;
  const by = low > 0 ? low : high < 0 ? high : 0;
  if (by) window.scrollBy({ top: by, behavior: 'instant' });
}

const harvest = () => run('harvest');
const blossoms = () => run('blossoms');
const finalScore = () => run('final');
const advise = () => run('advice');
const placement = () => run('placement', { field: state.selected });

/** The marks of the last check go once something is changed (the next action checks again). */
function unmark() {
  if (!state.placed) return false;
  state.placed = null;
  for (const el of boxes.root.querySelectorAll('.aj-side .field-error')) el.remove();
  for (const el of boxes.root.querySelectorAll('.aj-side [aria-invalid]')) {
    el.removeAttribute('aria-invalid');
    el.removeAttribute('aria-describedby');
  }
  return true;
}

/** The orchard or the honey held changed: old answers no longer describe it. */
function edited() {
  latest(async () => null);
  unmark();
  state.view = null;
  state.redo = null;
  state.last = null;
  me().final = null;
  save();
  renderOrchard();
  renderResults();
  const summary = document.getElementById('aj-editor-summary');
  if (summary) summary.textContent = describeTile(me().tiles[state.selected]);
}

/** The tile in hand changed: a list of placements for the old one goes. */
function takenEdited() {
  const marked = unmark();
  if (state.view?.kind === 'advice') {
    latest(async () => null);
    Object.assign(state, { view: null, redo: null, last: null });
  }
  if (marked || !state.view) {
    renderOrchard();
    renderResults();
  }
  save();
}

// -- Players ----------------------------------------------------------------------------------

function switchPlayer(k) {
  if (k === state.current) return;
  latest(async () => null);
  Object.assign(state, FRESH, { current: k, last: null });
  save();
  render();
}

function addPlayer() {
  if (state.players.length >= MAX_PLAYERS) return;
  state.players.push(newPlayer());
  switchPlayer(state.players.length - 1);
  document.getElementById('aj-name')?.focus();
}

function removePlayer() {
  if (state.players.length < 2 || !window.confirm(t('aj.confirmRemove', { name: person(playerName(state.current)) }))) return;
  state.players.splice(state.current, 1);
  const next = Math.min(state.current, state.players.length - 1);
  state.current = -1;
  switchPlayer(next);
  document.getElementById(`aj-player-${next}`)?.focus();
}

function clearOrchard() {
  if (Object.keys(me().tiles).length && !window.confirm(t('aj.confirmClear', { name: person(playerName(state.current)) }))) return;
  me().tiles = {};
  state.selected = null;
  edited();
  renderEditor();
}

function playersBar() {
  return h('div', { class: 'aj-players', testid: 'aj-players' },
    h('div', { class: 'row', role: 'group', 'aria-label': t('aj.players') },
      state.players.map((p, k) => h('button', {
        type: 'button', class: 'secondary', id: `aj-player-${k}`, testid: `aj-player-${k}`,
        'aria-pressed': String(k === state.current), onclick: () => switchPlayer(k),
      }, playerName(k))),
      state.players.length < MAX_PLAYERS
        ? h('button', { type: 'button', class: 'secondary', id: 'aj-add-player', testid: 'aj-add-player', onclick: addPlayer }, t('aj.addPlayer'))
        : null),
    h('div', { class: 'row end' },
      h('span', { class: 'field' }, h('label', { for: 'aj-name' }, t('aj.name')),
        h('input', {
          id: 'aj-name', testid: 'aj-name', type: 'text', maxlength: 30, autocomplete: 'off', value: me().name,
          placeholder: t('aj.playerN', { n: state.current + 1 }),
          oninput: (e) => { // never re-rendered while typing (a Japanese IME would lose its text)
            me().name = e.target.value;
            save();
            const button = document.getElementById(`aj-player-${state.current}`);
            if (button) button.textContent = playerName(state.current);
            if (state.view?.kind === 'final') renderResults();
          },
        })),
      state.players.length > 1
        ? h('button', { type: 'button', class: 'secondary small', id: 'aj-remove-player', testid: 'aj-remove-player', onclick: removePlayer }, t('aj.removePlayer'))
        : null));
}

// -- The orchard and the tile editor ----------------------------------------------------------

function shownAreas() {
  const view = state.view;
  if (view?.kind === 'advice') { // the best placements' fields, numbered in rank order
    const fields = new Map();
    view.data.options.slice(0, ADVICE_SHOWN).forEach((option) => { if (!fields.has(option.field)) fields.set(option.field, fields.size); });
    return fields;
  }
  const harvests = view?.kind === 'harvest' ? view.data.harvests : view?.kind === 'final' ? view.data.final_harvest : null;
  const areaOf = new Map();
  harvests?.[state.shown]?.areas.forEach((area, k) => area.fields.forEach((f) => areaOf.set(f, k)));
  return areaOf;
}

const fieldSlots = () => Object.keys(state.placed?.bySlot || {}).filter((k) => k.startsWith('field-')).map((k) => Number(k.slice(6)));

function pickField(field) {
  const moved = state.selected !== field;
  if (state.selected && moved) state.previous = state.selected;
  state.selected = field;
  state.hex = field;
  built = {};
  render();
  whenShown(built.title, (title) => {
    title.focus({ preventScroll: true });
    const sheet = title.closest('.editor');
    if (moved) sheet.scrollTop = 0; // another field: its panel starts at the top
    if (getComputedStyle(sheet).position === 'fixed') { // a panel over the page: the orchard above it in view
      const orchard = boxes.orchard.querySelector('svg').getBoundingClientRect();
      const top = sheet.getBoundingClientRect().top;
      if (orchard.top < 0 || orchard.bottom > top + 1) window.scrollBy({ top: orchard.top - 4, behavior: 'instant' });
      return;
    }
    const top = boxes.editor.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight * 0.6) boxes.editor.scrollIntoView({ block: 'start', behavior: 'instant' });
  });
}

const focusHex = (field) => { state.hex = field; };
const hexesDrawn = new Map(); // the orchard's hexes drawn before (orchard.js)

function renderOrchard() {
  const errorFields = new Set(fieldSlots());
  patch(boxes.orchard, [
    orchardSvg({
      tiles: me().tiles, selected: state.selected, areaOf: shownAreas(), errorFields, focusable: state.hex,
      onPick: pickField, onFocusHex: focusHex, drawn: hexesDrawn,
    }),
    built['aj-field-errors'] = errorFields.size ? h('ul', { class: 'field-error', id: 'aj-field-errors', testid: 'aj-field-errors' },
      [...errorFields].sort((a, b) => a - b).flatMap((f) => state.placed.bySlot[`field-${f}`].map((reason) => h('li', null, reason)))) : null,
    orchardLegend(),
  ]);
}

/** The reasons for one slot, next to its boxes (the boxes point at it). */
function slotError(slot, id) {
  const reasons = [...new Set(state.placed?.bySlot?.[slot] || [])];
  if (!reasons.length) return null;
  built[id] = h('div', { class: 'field-error', role: 'alert', id, testid: id },
    reasons.length === 1 ? reasons[0] : h('ul', null, reasons.map((r) => h('li', null, r))));
  return built[id];
}

/** A number box; `box` names it for the errors, `errorId` is where its reason is shown. */
function numberBox(id, box, errorId, value, [min, max], onValue, placeholder) {
  const bad = state.placed?.boxes.has(box);
  return h('input', {
    id, testid: id, type: 'number', inputmode: 'numeric', min, max, class: 'num-input', value: value ?? '', placeholder,
    'aria-invalid': bad ? 'true' : null, 'aria-describedby': bad ? errorId : null,
    oninput: (e) => onValue(readNumber(e.target)),
  });
}

function labelled(id, text, input) {
  return h('span', { class: 'field' }, h('label', { for: id }, text), input);
}

/** A radio button or checkbox inside its label: the whole label is the tap target. */
function choice(type, name, id, checked, text, onchange, extra = {}) {
  return h('label', { class: 'aj-choice', for: id },
    h('input', { type, name, id, testid: id, checked, onchange, ...extra }), h('span', null, text));
}

/**
 * A tree tile's apples per variety, and its blossoms: inputs `<prefix>-<variety>` (and
 * `blossomsId`) showing `tile`; `update(fn)` runs `fn` on the tile to change, then says so.
 */
function appleInputs(prefix, boxPrefix, errorId, tile, update, blossomsId) {
  return h('fieldset', { class: 'plain' }, h('legend', null, t('aj.applesBlossoms')),
    h('div', { class: 'apple-grid' }, VARIETIES.map((v) => h('span', { class: 'field' },
      h('label', { for: `${prefix}-${v}` }, h('span', { class: `apple-dot v-${v}`, 'aria-hidden': 'true' }), varietyName(v)),
      numberBox(`${prefix}-${v}`, `${boxPrefix}.apples.${v}`, errorId, tile.apples[v] || null, RANGE.apples,
        (n) => update((real) => { real.apples[v] = n ?? 0; }), '0'))),
    labelled(blossomsId, t('aj.blossoms'), numberBox(blossomsId, `${boxPrefix}.blossoms`, errorId, tile.blossoms || null, RANGE.blossoms,
      (n) => update((real) => { real.blossoms = n ?? 0; }), '0'))));
}

/** A tree tile's beehive edges: checkboxes `<prefix>-<edge>` (set in EDGES order), as appleInputs. */
function edgeChecks(prefix, box, errorId, legend, tile, update) {
  const bad = state.placed?.boxes.has(box);
  return h('fieldset', { class: 'plain', 'aria-invalid': bad ? 'true' : null, 'aria-describedby': bad ? errorId : null },
    h('legend', null, legend),
    h('div', { class: 'edge-grid' }, ['nw', 'ne', 'w', 'e', 'sw', 'se'].map((edge) => choice('checkbox', null, `${prefix}-${edge}`,
      tile.beehives.includes(edge), t(`aj.edge.${edge}`), (e) => update((real) => {
        real.beehives = EDGES.filter((x) => (x === edge ? e.target.checked : real.beehives.includes(x)));
      })))));
}

const LAST_FIELD = FIELDS.length;
const copyTile = (tile) => JSON.parse(JSON.stringify(tile));

/**
 * The tile editor of the selected field: on a phone a panel over the bottom of the screen,
 * the orchard above it in view; on a wide screen beside the orchard. An empty field shows
 * a tree's boxes too (most tiles are trees): filling one makes it a tree. 「次の畑」 opens the
 * next field, 「前と同じタイル」 copies the tile of the field open before; Escape closes it.
 * With 最終得点の分だけ it asks only for what the final score needs (apples and blossoms).
 */
function editor() {
  const field = state.selected;
  if (!field) return h('p', { class: 'hint' }, t('aj.pickField'));
  const tile = me().tiles[field];
  const kind = tile ? (tile.pasture ? 'pasture' : 'tree') : 'empty';
  const err = 'aj-editor-error';
  const setKind = (value) => {
    if (value === 'empty') delete me().tiles[field];
    else if (value === 'pasture') me().tiles[field] = { ...newTree(), pasture: true };
    else me().tiles[field] = newTree();
    edited();
    renderEditor();
  };
  const update = (fn) => { // a box of an empty field makes it a tree
    const fresh = !me().tiles[field];
    if (fresh) me().tiles[field] = newTree();
    fn(me().tiles[field]);
    edited();
    if (fresh) renderEditor();
  };
  const shown = tile && !tile.pasture ? tile : newTree();
  const before = state.previous && state.previous !== field ? me().tiles[state.previous] : null;
  return h('div', {
    class: 'card-box editor aj-sheet', testid: 'aj-editor', role: 'dialog', 'aria-labelledby': 'aj-editor-title',
    onkeydown: (e) => { if (e.key === 'Escape') { e.preventDefault(); closeEditor(); } },
  },
  h('div', { class: 'aj-sheet-head' }, // the close button first, so that Tab from the title goes on to the tile
    h('button', { type: 'button', class: 'secondary small', id: 'aj-editor-close', testid: 'aj-editor-close', onclick: closeEditor }, t('aj.done')),
    built.title = h('h3', { id: 'aj-editor-title', tabindex: -1 }, t('aj.fieldN', { n: field }), ' ', h('small', { id: 'aj-editor-summary' }, describeTile(tile)))),
  slotError(`field-${field}`, err),
  h('fieldset', { class: 'choice', testid: 'aj-kind' }, h('legend', null, t('aj.kind')),
    ['empty', 'tree', 'pasture'].map((value) => choice('radio', 'aj-kind', `aj-kind-${value}`, kind === value, t(`aj.kind.${value}`), () => setKind(value)))),
  kind === 'pasture' ? null : [
    kind === 'empty' ? h('p', { class: 'hint' }, t('aj.emptyHint')) : null,
    appleInputs('aj-apples', `f${field}`, err, shown, update, 'aj-blossoms'),
    state.finalOnly ? null : [
      h('div', { class: 'row' }, labelled('aj-price', t('aj.price'), numberBox('aj-price', `f${field}.price`, err, shown.price, RANGE.price,
        (n) => update((real) => { real.price = n; })))),
      edgeChecks('aj-hive', `f${field}.beehives`, err, t('aj.beehiveEdges'), shown, update),
    ],
  ],
  tile && !state.finalOnly
    ? h('div', { class: 'row' }, h('button', { type: 'button', class: 'secondary', id: 'aj-placement-go', testid: 'aj-placement-go', onclick: placement }, t('aj.placement')))
    : null,
  h('div', { class: 'row aj-sheet-keys' },
    before ? h('button', {
      type: 'button', class: 'secondary', id: 'aj-same-tile', testid: 'aj-same-tile',
      onclick: () => { me().tiles[field] = copyTile(before); edited(); renderEditor(); },
    }, t('aj.sameTile'), h('small', null, describeTile(before))) : null,
    field < LAST_FIELD ? h('button', {
      type: 'button', class: 'secondary', id: 'aj-next-field', testid: 'aj-next-field', 'data-field': field + 1,
      onclick: () => pickField(field + 1),
    }, t('aj.nextField', { n: field + 1 })) : null));
}

/** The editor closes; the focus goes back to its field. */
function closeEditor() {
  const field = state.selected;
  if (!field) return;
  state.selected = null;
  render();
  whenRendered(() => document.getElementById(`aj-field-${field}`)?.focus());
}

// -- The actions ---------------------------------------------------------------------------------

function varietySelect(id, value, allowNone, onValue) {
  return h('select', { id, testid: id, value, onchange: (e) => { onValue(e.target.value); save(); } },
    allowNone ? h('option', { value: '' }, t('aj.none')) : null,
    VARIETIES.map((v) => h('option', { value: v }, varietyName(v))));
}

function actions() {
  const supplyBox = (errorId) => numberBox('aj-supply', 'supply', errorId, me().supply, RANGE.supply, (n) => {
    me().supply = n;
    edited();
  });
  const finalForm = h('form', { class: 'card-box', testid: 'aj-final-form', onsubmit: (e) => { e.preventDefault(); finalScore(); } },
    h('h3', null, t('aj.final')),
    h('div', { class: 'row' }, labelled('aj-supply', t('aj.supply'), supplyBox('aj-final-error'))),
    slotError('final', 'aj-final-error'),
    h('button', { type: 'submit', id: 'aj-final-go', testid: 'aj-final-go' }, t('aj.finalGo')));
  if (state.finalOnly) return h('div', { class: 'actions' }, finalForm);
  return h('div', { class: 'actions' },
    h('form', { class: 'card-box', testid: 'aj-harvest-form', onsubmit: (e) => { e.preventDefault(); harvest(); } },
      h('h3', null, t('aj.harvest')),
      h('div', { class: 'row' },
        labelled('aj-variety', t('aj.variety'), varietySelect('aj-variety', state.first, false, (v) => { state.first = v; })),
        labelled('aj-variety2', t('aj.variety2'), varietySelect('aj-variety2', state.second, true, (v) => { state.second = v; }))),
      h('fieldset', { class: 'choice' }, h('legend', null, t('aj.die')),
        [1, 2, 3].map((d) => choice('radio', 'aj-die', `aj-die-${d}`, state.die === d, String(d), () => { state.die = d; save(); }))),
      slotError('harvest', 'aj-harvest-error'),
      h('button', { type: 'submit', id: 'aj-harvest-go', testid: 'aj-harvest-go' }, t('aj.harvestGo'))),
    h('form', { class: 'card-box', testid: 'aj-blossoms-form', onsubmit: (e) => { e.preventDefault(); blossoms(); } },
      h('h3', null, t('aj.blossomScoring')),
      h('fieldset', { class: 'choice' }, h('legend', null, t('aj.times')),
        [1, 2].map((n) => choice('radio', 'aj-times', `aj-times-${n}`, state.times === n, t(`aj.times${n}`), () => { state.times = n; save(); }))),
      slotError('blossoms', 'aj-blossoms-error'),
      h('button', { type: 'submit', id: 'aj-blossoms-go', testid: 'aj-blossoms-go' }, t('aj.blossomsGo'))),
    finalForm,
    adviceForm());
}

/** A disclosure that looks like a button (app.css: .aj-more); `key` in state keeps it open
 * across renders (a patch would otherwise take the user's `open` away), none on a card
 * drawn once (the chat's, the MCP view's). */
function disclosure(key, { testid, open = key && state[key], className = '' }, summary, ...content) {
  return h('details', {
    class: `aj-more ${className}`.trim(), testid, open: open || null,
    ontoggle: key ? (e) => { state[key] = e.target.open; } : null,
  }, h('summary', { testid: `${testid}-summary` }, summary), ...content);
}

/** どこに置く？: the tile in hand as printed (beehives before turning it), and the honey held;
 * folded away until asked for (open while it has something to fix). */
function adviceForm() {
  const tile = state.taken;
  const err = 'aj-advice-error';
  const update = (fn) => { fn(state.taken); takenEdited(); };
  return disclosure('adviceOpen', { testid: 'aj-advice', open: state.adviceOpen || Boolean(state.placed?.bySlot.advice), className: 'aj-advice' },
    t('aj.advice'),
    h('form', { class: 'card-box', testid: 'aj-advice-form', onsubmit: (e) => { e.preventDefault(); advise(); } },
      h('p', { class: 'hint' }, t('aj.adviceHint')),
      appleInputs('aj-taken-apples', 'taken', err, tile, update, 'aj-taken-blossoms'),
      h('div', { class: 'row' },
        labelled('aj-taken-price', t('aj.price'), numberBox('aj-taken-price', 'taken.price', err, tile.price, RANGE.price,
          (n) => update((real) => { real.price = n; })))),
      edgeChecks('aj-taken-hive', 'taken.beehives', err, t('aj.printedEdges'), tile, update),
      h('p', { class: 'hint' }, t('aj.adviceSupply')),
      slotError('advice', err),
      h('button', { type: 'submit', id: 'aj-advice-go', testid: 'aj-advice-go' }, t('aj.adviceGo'))));
}

/** 入れるもの: everything (during the game), or only what the final score needs. */
function modeChoice() {
  const setMode = (finalOnly) => {
    if (state.finalOnly === finalOnly) return;
    state.finalOnly = finalOnly;
    unmark();
    save();
    render();
  };
  return h('div', { class: 'aj-mode' },
    h('fieldset', { class: 'choice', testid: 'aj-mode' }, h('legend', null, t('aj.mode')),
      choice('radio', 'aj-mode', 'aj-mode-game', !state.finalOnly, t('aj.mode.game'), () => setMode(false)),
      choice('radio', 'aj-mode', 'aj-mode-final', state.finalOnly, t('aj.mode.final'), () => setMode(true))),
    state.finalOnly ? h('p', { class: 'hint', testid: 'aj-mode-hint' }, t('aj.modeFinalHint')) : null);
}

// -- Answers ---------------------------------------------------------------------------------------

/** The honey a placement brings (POST applejack/placement): `field` heads it when given;
 * `prefix` starts the test ids (the chat shows the same card under its own). */
export function placementView(data, field, prefix = 'aj') {
  return h('div', { class: 'card-box result', testid: `${prefix}-placement-result` },
    field ? h('h3', null, t('aj.placementOf', { n: field })) : null,
    h('p', { class: 'big' }, t('aj.honeyChange', { honey: data.honey >= 0 ? `+${data.honey}` : String(data.honey) })),
    h('ul', null, data.connections.map((c) => h('li', null, c.explanation))),
    h('p', { class: 'explanation' }, data.explanation));
}

function resultView() {
  const view = state.view;
  if (!view) return null;
  if (view.kind === 'placement') return placementView(view.data, view.placing);
  return resultCard(view.kind, view.data, 'aj', true);
}

/** The players' ranking that opens the final result. */
function rankingBlock() {
  const missing = unscored();
  const rows = ranking();
  const winners = winnersOf(rows);
  return h('div', { class: 'aj-ranking' },
    h('h3', null, t('aj.ranking')),
    rankingStrip(rows, 'aj-ranking'),
    winners ? winnerLine(winners.names, winners.total, 'aj-winner') : null,
    missing.length && state.players.length > 1
      ? h('p', { class: 'hint', testid: 'aj-ranking-missing' }, t('aj.rankingMissing', { names: missing.join(t('aj.separator')) }))
      : null);
}

/**
 * The result card of an Applejack answer: `kind` is harvest, blossoms, final or advice;
 * `prefix` starts the test ids; `interactive` adds the buttons that colour a variety's
 * areas on this panel's orchard and the players' ranking (the chat shows the same cards
 * without them).
 */
export function resultCard(kind, data, prefix = 'aj', interactive = false) {
  if (kind === 'advice') return adviceView(data, prefix);
  if (kind === 'blossoms') {
    return h('div', { class: 'card-box result', testid: `${prefix}-blossoms-result` },
      h('p', { class: 'big' }, `${t('aj.honey')} +`, h('strong', { testid: `${prefix}-blossoms-honey` }, String(data.honey))), h('p', { class: 'explanation' }, data.explanation));
  }
  if (kind === 'harvest') {
    return h('div', { class: 'card-box result', testid: `${prefix}-harvest-result` },
      h(interactive ? 'h3' : 'p', { class: 'big' }, `${t('aj.honey')} +`, h('strong', { testid: `${prefix}-harvest-honey` }, String(data.honey))),
      harvestList(data.harvests, prefix, interactive),
      h('p', { class: 'explanation' }, data.explanation));
  }
  const rows = [
    ['crop', data.crop], ['crop_doubled', data.crop_doubled],
    ['variety_bonus', data.variety_bonus, data.profitable_varieties.join(t('aj.separator')) || t('aj.none')],
    ['blossoms', data.blossoms], ['supply', data.supply],
  ];
  return h('div', { class: 'card-box result', testid: `${prefix}-final-result` },
    interactive ? rankingBlock() : null,
    h('table', { class: 'score-table', testid: `${prefix}-final-breakdown` },
      h('caption', null, interactive ? t('aj.finalBreakdownOf', { name: person(playerName(state.current)) }) : t('aj.finalBreakdown')),
      h('tbody', null, rows.map(([key, value, note]) => h('tr', { testid: `${prefix}-final-${key}` },
        h('th', { scope: 'row' }, t(`aj.final.${key}`), note ? h('small', null, t('aj.final.note', { note })) : null), h('td', { class: 'num' }, String(value))))),
      h('tfoot', null, h('tr', null, h('th', { scope: 'row' }, t('aj.final.total')), h('td', { class: 'num total', testid: `${prefix}-final-total` }, String(data.total))))),
    h('ol', { class: 'steps', testid: `${prefix}-final-steps` }, finalSteps(data).map((step) => h('li', null, step))),
    disclosure(interactive ? 'areasOpen' : null, { testid: `${prefix}-final-areas` }, t('aj.finalAreas'), harvestList(data.final_harvest, prefix, interactive)),
    h('p', { class: 'explanation' }, data.explanation));
}

/** The final scoring's steps; the first, the final harvest, adds up the varieties by name
 * (「赤2＋黄緑4＋…＝21」), not as bare numbers. */
function finalSteps(data) {
  const steps = data.steps.map((step) => step.replace(/^\d+\.\s*/, ''));
  if (!data.final_harvest.length) return steps;
  const parts = data.final_harvest.map((harvest) => t('aj.final.cropPart', { variety: harvest.variety, honey: harvest.honey }));
  return [t('aj.final.cropStep', { parts: parts.join(t('aj.final.plus')), crop: data.crop }), ...steps.slice(1)];
}

/** 「ここで終われば28点」 (the service's words), its figure large; kept on one line. */
function ifEnded(final, testid) {
  const [before, after = ''] = t('aj.adviceFinal', { final: '\u0000' }).split('\u0000');
  return h('span', { class: 'aj-if-ended' }, before, h('span', { class: 'total', testid }, String(final)), h('span', { class: 'unit' }, after));
}

function adviceView(data, prefix) {
  const edges = (option) => (option.beehives.length ? option.beehives.map((e) => t(`aj.edge.${e}`)).join(t('aj.separator')) : '');
  return h('div', { class: 'card-box result', testid: `${prefix}-advice-result` },
    h('ol', { class: 'pick-options' }, data.options.slice(0, ADVICE_SHOWN).map((option, k) => h('li', { class: `card-box${k === 0 ? ' best' : ''}`, testid: `${prefix}-advice-option-${k}` },
      h('strong', null, t('aj.fieldN', { n: option.field })), ' ',
      option.pay ? t('aj.adviceTree', { edges: edges(option) }) : t('aj.advicePasture'), ' ',
      ifEnded(option.final_if_now, `${prefix}-advice-final-${k}`),
      ' ', h('small', null, t('aj.honeyChange', { honey: option.honey_now >= 0 ? `+${option.honey_now}` : String(option.honey_now) }))))),
    h('p', { class: 'explanation' }, data.explanation));
}

function harvestList(harvests, prefix, interactive) {
  return harvests.map((harvest, k) => h('div', { class: 'harvest' },
    h('h4', null, interactive && harvests.length > 1
      ? h('button', {
        type: 'button', class: 'small secondary', id: `${prefix}-show-${k}`, 'aria-pressed': String(state.shown === k), testid: `${prefix}-show-${k}`,
        onclick: () => { state.shown = k; renderOrchard(); renderResults(); },
      }, t('aj.showAreas', { variety: harvest.variety }))
      : null,
    ' ', h('span', { class: `apple-dot v-${varietyOf(harvest.variety)}`, 'aria-hidden': 'true' }), harvest.explanation),
    h('ul', { class: 'areas' }, harvest.areas.map((area, i) => h('li', { testid: `${prefix}-area-${k}-${i}` },
      interactive && state.shown === k ? h('span', { class: 'area-swatch', style: `--area: ${AREA_COLORS[i % AREA_COLORS.length]}`, 'aria-hidden': 'true' }, String(i + 1)) : null,
      area.explanation)))));
}

// -- Rendering ---------------------------------------------------------------------------------------

function renderResults() {
  const unplaced = state.placed && !Object.keys(state.placed.bySlot).length ? state.placed : null; // e.g. offline
  built.errorBox = errorBox(unplaced, 'aj-error');
  built.result = resultView();
  patch(boxes.results, [built.errorBox, built.result]);
}
function renderEditor() { patch(boxes.editor, editor()); }

export function render(focusFallback) {
  if (!boxes.root) return;
  boxes.title.textContent = t('aj.title');
  boxes.intro.textContent = t('aj.intro');
  patch(boxes.players, playersBar());
  patch(boxes.mode, modeChoice());
  renderOrchard();
  renderEditor();
  patch(boxes.actions, actions(), focusFallback);
  renderResults();
  boxes.clear.textContent = t('aj.clearOrchard');
  boxes.results.setAttribute('aria-label', t('aj.results'));
}

export function refresh() { if (state.redo) state.redo(); }

export function mount(panel) {
  const saved = cleanState(kept(GAME, legacy));
  if (saved) {
    apply(saved);
    save(); // a save from before versions is read once
  }
  boxes.root = panel;
  boxes.title = h('h2');
  // Printed, the page is the orchard and the results: the entry parts are no-print.
  boxes.intro = h('p', { class: 'hint no-print' });
  boxes.players = h('div', { class: 'no-print' });
  boxes.mode = h('div', { class: 'no-print' });
  boxes.orchard = h('div', { class: 'orchard-box' });
  boxes.board = h('div', { class: 'aj-board' }, boxes.orchard);
  boxes.editor = h('div', { class: 'editor-box no-print' });
  boxes.actions = h('div', { class: 'no-print' });
  boxes.results = h('section', { class: 'results', 'aria-live': 'polite', testid: 'aj-results' });
  boxes.clear = h('button', { type: 'button', class: 'secondary', testid: 'aj-clear', onclick: clearOrchard });
  panel.replaceChildren(boxes.title, boxes.intro, boxes.players, boxes.mode,
    h('div', { class: 'aj-layout' }, boxes.board, h('div', { class: 'aj-side' }, boxes.editor, boxes.results, boxes.actions, boxes.clear)));
  render();
  if (state.last) run(state.last, { quiet: true });
}

/** Each player's name and last final score (null until scored): record.js keeps them in BG Stats. */
export function lastResult() { return { players: state.players.map((p, k) => ({ name: playerName(k), total: p.final })) }; }
