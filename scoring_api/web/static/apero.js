// Apero: tap cards by colour and value for each player; the service scores every colour
// with + and ×, shows the expression, the totals and the winner.

import { errorBox, fieldError, latestOnly, pathParts, placeErrors, post } from './api.js';
import { h, rerender } from './dom.js';
import { t } from './i18n.js';

const COLORS = [
  ['red', [1, 2, 3]], ['orange', [1, 2, 3]], ['green', [1, 2, 3]], ['blue', [1, 2, 3]],
  ['purple', [-3, -2, -1]], ['black_green', [-3, -2, -1]],
];
const MAX_PLAYERS = 20;

const state = { sets: 1, players: [newPlayer()], result: null, placed: null, sentIndex: [] };
// どれを取る？: the face-up table cards, who is choosing, and the ranked options
const pick = { table: [], me: 0, result: null, placed: null, open: false };
const latest = latestOnly();
const latestPick = latestOnly();
let root = null; // the form, re-rendered on every change
let live = null; // the results: a live region that stays in place
let timer = null;

function newPlayer() { return { name: '', cards: [] }; }
const colorName = (color) => t(`apero.color.${color}`);
const cardText = (card) => `${colorName(card.color)} ${card.value}`;
const playerName = (player, i) => player.name.trim() || t('apero.playerN', { n: i + 1 });

function countOf(cards, color, value) {
  return cards.filter((c) => c.color === color && c.value === value).length;
}

function change(focusFallback) {
  render(focusFallback);
  clearTimeout(timer);
  timer = setTimeout(() => { score(); advise(); }, 120);
}

/** Which table card should `me` take: every player's gain for each (POST apero/pick). */
async function advise() {
  if (!pick.table.length) { pick.result = null; pick.placed = null; render(); return; }
  if (pick.me >= state.players.length) pick.me = 0;
  const players = state.players.map((p, i) => ({ name: playerName(p, i), cards: p.cards }));
  const body = { sets: state.sets, players, me: players[pick.me].name, table: pick.table };
  const answer = await latestPick(() => post('apero/pick', body));
  if (!answer) return;
  pick.result = answer.ok ? answer.data : null;
  pick.placed = answer.ok ? null : placeErrors(answer.error, placePick);
  render();
}

/** table[i] -> the table; players[k].cards -> that player's cards; me -> the chooser. */
function placePick(path) {
  const [head, index, field] = pathParts(path);
  if (head === 'table') return 'table';
  if (head === 'me') return 'me';
  if (head === 'players' && typeof index === 'number') return field === 'name' ? `name-${index}` : `cards-${index}`;
  return null;
}

async function score() {
  const sent = state.players.map((p, i) => [p, i]).filter(([p]) => p.cards.length);
  if (!sent.length) { state.result = null; state.placed = null; render(); return; }
  const body = { sets: state.sets, players: sent.map(([p, i]) => ({ name: playerName(p, i), cards: p.cards })) };
  const answer = await latest(() => post('apero/score', body));
  if (!answer) return;
  state.sentIndex = sent.map(([, i]) => i);
  state.result = answer.ok ? answer.data : null;
  state.placed = answer.ok ? null : placeErrors(answer.error, placeApero);
  render();
}

/** players[k].cards[..] -> the cards of the k-th player SENT (mapped back to the form). */
function placeApero(path) {
  const [head, index, field] = pathParts(path);
  if (head === 'sets') return 'sets';
  if (head !== 'players' || typeof index !== 'number') return null;
  const ui = state.sentIndex[index];
  if (ui === undefined) return null;
  return field === 'name' ? `name-${ui}` : `cards-${ui}`;
}

/** Colour rows of value buttons that add a card to `cards`; `prefix` names the buttons
 * (`<prefix>-<color>-<value>`), `labelKey` their spoken label. */
function cardPicker(cards, prefix, labelKey) {
  return COLORS.map(([color, values]) => h('div', { class: 'color-row', role: 'group', 'aria-label': colorName(color) },
    h('span', { class: `swatch c-${color}`, 'aria-hidden': 'true' }),
    h('span', { class: 'color-name' }, colorName(color)),
    values.map((value) => {
      const count = countOf(cards, color, value);
      return h('button', {
        type: 'button', class: `card c-${color}${count ? ' picked' : ''}`, id: `${prefix}-${color}-${value}`,
        testid: `${prefix}-${color}-${value}`,
        'aria-label': t(labelKey, { card: cardText({ color, value }), count }),
        onclick: () => { cards.push({ color, value }); change(); },
      }, h('span', { class: 'value' }, String(value)), h('span', { class: 'count', 'aria-hidden': 'true' }, count ? `×${count}` : ''));
    })));
}

function handStrip(player, i) {
  if (!player.cards.length) return h('p', { class: 'hint' }, t('apero.noCards'));
  const order = COLORS.flatMap(([color, values]) => values.map((v) => `${color}:${v}`));
  const sorted = player.cards.map((c, k) => [c, k]).sort(([a], [b]) => order.indexOf(`${a.color}:${a.value}`) - order.indexOf(`${b.color}:${b.value}`));
  return h('ul', { class: 'hand', 'aria-label': t('apero.hand') }, sorted.map(([card, k], pos) => h('li', null,
    h('button', {
      type: 'button', class: `mini-card c-${card.color}`, id: `apero-p${i}-hand-${pos}`, testid: `apero-p${i}-hand-${pos}`,
      'aria-label': t('apero.removeCard', { card: cardText(card) }),
      onclick: () => { player.cards.splice(k, 1); change(pos ? `apero-p${i}-hand-${pos - 1}` : `apero-p${i}-name`); },
    }, String(card.value)))));
}

function playerSection(player, i) {
  const nameId = `apero-p${i}-name`;
  return h('section', { class: 'card-box player', testid: `apero-player-${i}`, 'aria-labelledby': `apero-p${i}-title` },
    h('div', { class: 'row' },
      h('h3', { id: `apero-p${i}-title`, class: 'sr-only' }, playerName(player, i)),
      h('label', { for: nameId }, t('apero.name')),
      h('input', { id: nameId, testid: `apero-p${i}-name`, type: 'text', maxlength: 40, autocomplete: 'off',
        placeholder: t('apero.playerN', { n: i + 1 }), value: player.name,
        oninput: (e) => { player.name = e.target.value; change(); } }),
      state.players.length > 1 ? h('button', { type: 'button', class: 'small secondary', testid: `apero-p${i}-remove`,
        onclick: () => { state.players.splice(i, 1); change('apero-add-player'); } }, t('apero.removePlayer')) : null),
    fieldError(state.placed, `name-${i}`, `apero-name-error-${i}`),
    h('div', { class: 'picker' }, cardPicker(player.cards, `apero-p${i}`, 'apero.addCard')),
    h('div', { class: 'hand-head' },
      h('span', null, t('apero.handCount', { n: player.cards.length })),
      player.cards.length ? h('button', { type: 'button', class: 'small secondary', testid: `apero-p${i}-clear`,
        onclick: () => { player.cards = []; change(`apero-p${i}-name`); } }, t('apero.clear')) : null),
    handStrip(player, i),
    fieldError(state.placed, `cards-${i}`, `apero-error-${i}`));
}

function resultView() {
  const result = state.result;
  if (!result) return state.placed ? null : h('p', { class: 'hint' }, t('apero.tapHint'));
  return resultCards(result, (k) => state.sentIndex[k]);
}

/**
 * The result cards of a score: the winner line, then each player's colours, expressions
 * and total. `slot(k)` numbers the k-th player in test ids; `prefix` starts them (the chat
 * shows the same cards under its own prefix).
 */
export function resultCards(result, slot = (k) => k, prefix = 'apero') {
  const players = result.players.map((p, k) => {
    const ui = slot(k);
    return h('article', { class: 'card-box result', testid: `${prefix}-result-${ui}` },
      h('h3', null, p.name, ' ', h('span', { class: 'total', testid: `${prefix}-total-${ui}` }, p.total_text), h('span', { class: 'unit' }, t('apero.points'))),
      h('table', { class: 'score-table' },
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('apero.color')), h('th', { scope: 'col' }, t('apero.expression')), h('th', { scope: 'col' }, t('apero.score')))),
        h('tbody', null, p.colors.map((c) => h('tr', { testid: `${prefix}-color-${ui}-${c.color}` },
          h('th', { scope: 'row' }, h('span', { class: `swatch c-${c.color}`, 'aria-hidden': 'true' }), c.label),
          h('td', { class: 'expr' }, c.expression),
          h('td', { class: 'num' }, c.score_text))))),
      h('p', { class: 'explanation' }, p.explanation));
  });
  return [
    h('p', { class: 'winner', testid: `${prefix}-winner` }, '★ ', result.explanation),
    h('div', { class: 'results-grid' }, players),
  ];
}

function tableStrip() {
  if (!pick.table.length) return h('p', { class: 'hint' }, t('apero.pick.noTable'));
  return h('ul', { class: 'hand', 'aria-label': t('apero.pick.table') }, pick.table.map((card, k) => h('li', null,
    h('button', {
      type: 'button', class: `mini-card c-${card.color}`, id: `apero-table-card-${k}`, testid: `apero-table-card-${k}`,
      'aria-label': t('apero.pick.removeCard', { card: cardText(card) }),
      onclick: () => { pick.table.splice(k, 1); change(k ? `apero-table-card-${k - 1}` : 'apero-pick-me'); },
    }, String(card.value)))));
}

function optionsView() {
  const result = pick.result;
  if (!result) return null;
  return h('ol', { class: 'pick-options', testid: 'apero-pick-options' }, result.options.map((option, k) => {
    const rivals = option.gains.filter((g) => g.gain > 0).map((g) => `${g.name} ${g.gain > 0 ? '+' : ''}${g.gain}`);
    return h('li', { class: `card-box${k === 0 ? ' best' : ''}`, testid: `apero-pick-option-${k}` },
      h('strong', null, h('span', { class: `swatch c-${option.card.color}`, 'aria-hidden': 'true' }), `${option.label} ${option.card.value}`),
      ' ', h('span', { class: 'total', testid: `apero-pick-gain-${k}` }, `${option.gain > 0 ? '+' : ''}${option.gain}`),
      h('span', { class: 'unit' }, t('apero.points')),
      k === 0 ? h('span', { class: 'badge' }, t('apero.pick.best')) : null,
      h('p', { class: 'explanation' }, option.explanation),
      rivals.length ? h('p', { class: 'hint' }, t('apero.pick.others'), ': ', rivals.join(t('apero.pick.separator'))) : null);
  }));
}

function pickSection() {
  const names = state.players.map(playerName);
  return h('details', { class: 'card-box pick', testid: 'apero-pick', open: pick.open || pick.table.length > 0,
    ontoggle: (e) => { pick.open = e.target.open; } },
    h('summary', { testid: 'apero-pick-open' }, t('apero.pick.title')),
    h('p', { class: 'hint' }, t('apero.pick.intro')),
    h('div', { class: 'row' },
      h('label', { for: 'apero-pick-me' }, t('apero.pick.me')),
      h('select', { id: 'apero-pick-me', testid: 'apero-pick-me', value: String(Math.min(pick.me, names.length - 1)),
        onchange: (e) => { pick.me = Number(e.target.value); change(); } },
      names.map((name, i) => h('option', { value: String(i) }, name)))),
    fieldError(pick.placed, 'me', 'apero-pick-me-error'),
    h('div', { class: 'picker' }, cardPicker(pick.table, 'apero-table', 'apero.pick.addCard')),
    h('div', { class: 'hand-head' },
      h('span', null, t('apero.pick.tableCount', { n: pick.table.length })),
      pick.table.length ? h('button', { type: 'button', class: 'small secondary', testid: 'apero-table-clear',
        onclick: () => { pick.table = []; change('apero-pick-me'); } }, t('apero.pick.clear')) : null),
    tableStrip(),
    fieldError(pick.placed, 'table', 'apero-table-error'),
    errorBox(pick.placed && !pick.placed.bySlot.table && !pick.placed.bySlot.me ? pick.placed : null, 'apero-pick-error'),
    optionsView());
}

export function render(focusFallback) {
  if (!root) return;
  rerender(root, [
    h('h2', null, t('apero.title')),
    h('p', { class: 'hint' }, t('apero.intro')),
    h('div', { class: 'row' },
      h('label', { for: 'apero-sets' }, t('apero.sets')),
      h('select', { id: 'apero-sets', testid: 'apero-sets', value: String(state.sets),
        onchange: (e) => { state.sets = Number(e.target.value); change(); } },
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => h('option', { value: String(n) }, t('apero.setsN', { n })))),
      h('span', { class: 'hint' }, t('apero.setsHint'))),
    fieldError(state.placed, 'sets', 'apero-sets-error'),
    h('div', { class: 'players' }, state.players.map(playerSection)),
    state.players.length < MAX_PLAYERS ? h('button', { type: 'button', id: 'apero-add-player', testid: 'apero-add-player',
      onclick: () => { state.players.push(newPlayer()); change(); } }, t('apero.addPlayer')) : null,
    pickSection(),
  ], focusFallback);
  live.setAttribute('aria-label', t('apero.results'));
  rerender(live, [errorBox(state.placed, 'apero-error'), resultView()]);
}

export function refresh() {
  if (state.players.some((p) => p.cards.length)) score();
  if (pick.table.length) advise();
}

export function mount(panel) {
  root = h('div');
  live = h('section', { class: 'results', 'aria-live': 'polite', testid: 'apero-results' });
  panel.replaceChildren(root, live);
  render();
}
