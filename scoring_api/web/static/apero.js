// Apero: tap cards by colour and value for each player; the service scores every colour
// with + and ×, shows the expression, the totals and the winner. Each card button shows
// the copies left in the chosen sets (docs/rules/apero.md, Cards) and refuses one more at
// the card; the totals (and 「どれを取る？」) stay in view in a bar at the bottom while cards
// are tapped. A player's hand folds to one line when the next player is added; on a wide
// screen the players sit side by side.

import { errorBox, fieldError, latestOnly, pathParts, placeErrors, post } from './api.js';
import { h, onPage, patch, rankingStrip, showAnswer, unchanged, whenRendered } from './dom.js';
import { getLang, t } from './i18n.js';
import { person, winnerText } from './people.js';
import { keep, kept } from './store.js';

const COLORS = [
  ['red', [1, 2, 3]], ['orange', [1, 2, 3]], ['green', [1, 2, 3]], ['blue', [1, 2, 3]],
  ['purple', [-3, -2, -1]], ['black_green', [-3, -2, -1]],
];
const MAX_PLAYERS = 20;
const MAX_SETS = 10;
const MAX_CARDS = 360; // per player, as the API accepts
// Copies of each value in one set (docs/rules/apero.md, Cards): 1,1,2,2,2,3 and -3,-3,-2,-2,-2,-1.
const COPIES = { 1: 2, 2: 3, 3: 1, '-3': 2, '-2': 3, '-1': 1 };

const state = { sets: 1, players: [newPlayer()], result: null, placed: null, sentIndex: [] };
// The hands folded to one line (the players, as objects): done once the next player is added.
let folded = new WeakSet();
// 「使い方」: open until read (the first card entered, or closed by hand); then closed on the next visit.
const help = { open: true, read: false };
const INTRO = 'apero.intro'; // kept apart from the table (store.js): never in a shared link
// どれを取る？: the face-up table cards, who is choosing, and the ranked options
const pick = { table: [], me: 0, result: null, placed: null, open: false };
const latest = latestOnly();
const latestPick = latestOnly();
let root = null; // the form, re-rendered on every change
let live = null; // the results: a live region that stays in place
let totals = null; // the totals bar: every player's total, kept in view while tapping
let refused = null; // {prefix, color, value}: a card tapped with no copy left, explained at its picker

function newPlayer() { return { name: '', cards: [] }; }
const colorName = (color) => t(`apero.color.${color}`);
const signed = (n) => `${n > 0 ? '+' : ''}${n}`;
/** 「赤1」 (ja) or 'red 1' (en); `label` is the colour's name when the service gave it. */
const cardText = (card, label = colorName(card.color)) => t('apero.cardName', { color: label, value: card.value });
const playerName = (player, i) => player.name.trim() || t('apero.playerN', { n: i + 1 });
/** `key.one` or `key.other`, as `n` asks in the form's language (Japanese has `.other` only). */
const plural = (key, n, params = {}) => t(`${key}.${new Intl.PluralRules(getLang()).select(Number(n))}`, { n, ...params });
/** The winner line, as every game's (people.js): 「★ アキさんの勝ち（34点）」, 「★ アキさんと
 * ベンさんの勝ち（34点）」; the service's sentence when no winner is among the players. */
function winnerOf(result) {
  const top = result.players.find((p) => p.name === result.winners[0]);
  return top ? winnerText(result.winners, top.total_text) : result.explanation;
}

function countOf(cards, color, value) {
  return cards.filter((c) => c.color === color && c.value === value).length;
}

/** Copies of `color` `value` not yet in any hand or on the table, in the chosen sets. */
function copiesLeft(color, value) {
  const used = state.players.reduce((sum, p) => sum + countOf(p.cards, color, value), 0) + countOf(pick.table, color, value);
  return state.sets * COPIES[value] - used;
}

/** Add a card to `cards` when a copy is left; otherwise explain it at the card's picker. */
function addCard(cards, prefix, color, value) {
  if (copiesLeft(color, value) <= 0) {
    refused = { prefix, color, value };
    render(`${prefix}-${color}-${value}`);
    return;
  }
  refused = null;
  cards.push({ color, value });
  introRead();
  change();
}

/** The intro has done its work: from the next visit on it starts closed. */
function introRead() {
  if (help.read) return;
  help.read = true;
  keep(INTRO, { read: true });
}

/** The explanation of a refused card, with a button that adds a set and then the card. */
function refusal(cards, prefix) {
  if (!refused || refused.prefix !== prefix) return null;
  const { color, value } = refused;
  const card = cardText({ color, value });
  const more = state.sets < MAX_SETS;
  return h('div', { class: 'field-error', role: 'alert', testid: `${prefix}-refused` },
    plural('apero.noneLeft', state.sets, { card, sets: state.sets, copies: state.sets * COPIES[value] }),
    more ? [' ', h('button', { type: 'button', class: 'small', id: `${prefix}-add-set`, testid: `${prefix}-add-set`,
      onclick: () => { state.sets += 1; refused = null; cards.push({ color, value }); change(`${prefix}-${color}-${value}`); } },
    t('apero.addSetAndCard', { sets: state.sets + 1, card }))] : null);
}

/** The table changed: kept, asked at once (a question still on its way is cancelled and
 * its answer ignored), then drawn while the service works. */
function change(focusFallback) {
  save();
  score();
  advise();
  renderForm(focusFallback); // the results stand until the answer
  renderTotals();
}

/** Which table card should `me` take: every player's gain for each (POST apero/pick). */
async function advise() {
  if (!pick.table.length) {
    if (pick.result || pick.placed) { pick.result = null; pick.placed = null; render(); }
    return;
  }
  if (pick.me >= state.players.length) pick.me = 0;
  const players = state.players.map((p, i) => ({ name: playerName(p, i), cards: p.cards }));
  const body = { sets: state.sets, players, me: players[pick.me].name, table: pick.table };
  const answer = await latestPick((signal) => post('apero/pick', body, signal));
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
  if (!sent.length) {
    if (state.result || state.placed) { state.result = null; state.placed = null; render(); }
    return;
  }
  const body = { sets: state.sets, players: sent.map(([p, i]) => ({ name: playerName(p, i), cards: p.cards })) };
  const answer = await latest((signal) => post('apero/score', body, signal));
  if (!answer) return;
  const refusedBefore = state.placed;
  state.sentIndex = sent.map(([, i]) => i);
  state.result = answer.ok ? answer.data : null;
  state.placed = answer.ok ? null : placeErrors(answer.error, placeApero);
  if (refusedBefore || state.placed) { render(); return; } // reasons shown at their boxes, or taken away
  // A score changes the totals only: each player's running total, the results and the bar.
  state.players.forEach((player, i) => {
    const count = document.getElementById(`apero-p${i}-count`);
    if (count) patch(count, handCount(player, i));
    const line = document.getElementById(`apero-p${i}-line-total`);
    if (line) patch(line, lineTotal(i));
  });
  renderResults();
  renderTotals();
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
  return [COLORS.map(([color, values]) => h('div', { class: 'color-row', role: 'group', 'aria-label': colorName(color) },
    h('span', { class: `swatch c-${color}`, 'aria-hidden': 'true' }),
    h('span', { class: 'color-name' }, colorName(color)),
    values.map((value) => cardButton(cards, prefix, labelKey, color, value)))), refusal(cards, prefix)];
}

// The card buttons drawn before, per hand (the array they add to): a button that would be
// drawn the same stays the node on the page (unchanged: a patch passes over it), so a tap
// redraws the few buttons whose count or copies left changed, not the 18 of every picker.
const drawn = new WeakMap();

function cardButton(cards, prefix, labelKey, color, value) {
  const count = countOf(cards, color, value);
  const left = copiesLeft(color, value);
  const look = [prefix, labelKey, count, left, getLang()].join('|');
  if (!drawn.has(cards)) drawn.set(cards, new Map());
  const before = drawn.get(cards).get(`${color}${value}`);
  if (before?.look === look) return unchanged(onPage(before.node));
  // The name is the visible text with words for a screen reader around it (no aria-label
  // that would differ from what is seen): 「赤 1を追加。取ったカード×1、残り2」.
  const node = h('button', {
    type: 'button', class: `card c-${color}${count ? ' picked' : ''}${left <= 0 ? ' none-left' : ''}`, id: `${prefix}-${color}-${value}`,
    testid: `${prefix}-${color}-${value}`, 'aria-disabled': left <= 0 ? 'true' : null,
    onclick: () => addCard(cards, prefix, color, value),
  }, h('span', { class: 'sr-only' }, `${colorName(color)} `),
  h('span', { class: 'value' }, String(value)),
  h('span', { class: 'sr-only' }, t(labelKey)),
  count ? [h('span', { class: 'sr-only' }, t(`${labelKey}Count`)), h('span', { class: 'count' }, `×${count}`), h('span', { class: 'sr-only' }, t('apero.listSeparator'))] : null,
  h('span', { class: 'left', testid: `${prefix}-${color}-${value}-left` }, t('apero.leftShort', { n: Math.max(left, 0) })));
  drawn.get(cards).set(`${color}${value}`, { look, node });
  return node;
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

/** The result of the i-th player on the form, when scored. */
function resultOf(i) {
  const k = state.sentIndex.indexOf(i);
  return k >= 0 && state.result ? state.result.players[k] : null;
}

/** 「取ったカード6枚」 and, when scored, the player's running total. */
function handCount(player, i) {
  const scored = resultOf(i);
  return [plural('apero.handCount', player.cards.length),
    scored ? h('strong', { class: 'running-total', testid: `apero-p${i}-running` }, plural('apero.runningTotal', scored.total_text, { total: scored.total_text })) : null];
}

/** A folded hand's total: 「27点」 once scored. */
function lineTotal(i) {
  const scored = resultOf(i);
  return scored ? plural('apero.runningTotal', scored.total_text, { total: scored.total_text }) : '';
}

/** Folded: the hand is done (the next player was added, or it was folded by hand); a hand
 * the service refused stays open at its reason. */
function isFolded(player, i) {
  return folded.has(player) && player.cards.length > 0 && !state.placed?.bySlot?.[`cards-${i}`] && !state.placed?.bySlot?.[`name-${i}`];
}

/** Fold or open a hand. Opening one folds the others that hold cards; the hand opened comes into view. */
function toggleHand(i) {
  const player = state.players[i];
  if (isFolded(player, i)) {
    state.players.forEach((other) => { if (other.cards.length) folded.add(other); });
    folded.delete(player);
    render();
    whenRendered(() => document.getElementById(`apero-p${i}-toggle`)?.scrollIntoView({ block: 'nearest', behavior: 'instant' }));
  } else {
    folded.add(player);
    render();
  }
}

/** One line for a folded hand: the name, the cards and the total; a tap opens it. */
function foldedLine(player, i) {
  return h('h3', { id: `apero-p${i}-title`, class: 'player-head' },
    h('button', { type: 'button', class: 'player-toggle', id: `apero-p${i}-toggle`, testid: `apero-p${i}-toggle`,
      'aria-expanded': 'false', 'aria-controls': `apero-p${i}-body`, onclick: () => toggleHand(i) },
    h('span', { class: 'chevron', 'aria-hidden': 'true' }),
    h('span', { class: 'player-name' }, playerName(player, i)),
    h('span', { class: 'player-cards' }, plural('apero.handSummary', player.cards.length)),
    h('strong', { class: 'player-total', id: `apero-p${i}-line-total`, testid: `apero-p${i}-line-total` }, lineTotal(i))));
}

function playerSection(player, i) {
  const nameId = `apero-p${i}-name`;
  const closed = isFolded(player, i);
  return h('section', { class: `card-box player${closed ? ' folded' : ''}`, testid: `apero-player-${i}`, 'aria-labelledby': `apero-p${i}-title` },
    closed ? foldedLine(player, i) : h('h3', { id: `apero-p${i}-title`, class: 'sr-only' }, playerName(player, i)),
    h('div', { id: `apero-p${i}-body`, class: 'player-body', hidden: closed }, playerBody(player, i, nameId, closed)));
}

function playerBody(player, i, nameId, closed) {
  return [
    h('div', { class: 'row' },
      h('label', { for: nameId }, t('apero.name')),
      h('input', { id: nameId, testid: `apero-p${i}-name`, type: 'text', maxlength: 40, autocomplete: 'off',
        placeholder: t('apero.playerN', { n: i + 1 }), value: player.name,
        oninput: (e) => { player.name = e.target.value; change(); } }),
      state.players.length > 1 ? h('button', { type: 'button', class: 'small secondary', testid: `apero-p${i}-remove`,
        onclick: () => { state.players.splice(i, 1); refused = null; change('apero-add-player'); } }, t('apero.removePlayer')) : null),
    fieldError(state.placed, `name-${i}`, `apero-name-error-${i}`),
    h('div', { class: 'picker' }, cardPicker(player.cards, `apero-p${i}`, 'apero.addCard')),
    // Below the picker: a total arriving never moves the card buttons under a finger.
    h('div', { class: 'hand-head' },
      h('span', { id: `apero-p${i}-count` }, handCount(player, i)),
      player.cards.length ? h('span', { class: 'hand-actions' },
        h('button', { type: 'button', class: 'small secondary', testid: `apero-p${i}-clear`,
          onclick: () => { player.cards = []; change(`apero-p${i}-name`); } }, t('apero.clear')),
        // Folded, the hand is one line whose button takes this id (and the focus).
        closed ? null : h('button', { type: 'button', class: 'small secondary fold', id: `apero-p${i}-toggle`, testid: `apero-p${i}-fold`,
          'aria-expanded': 'true', 'aria-controls': `apero-p${i}-body`, onclick: () => toggleHand(i) },
        h('span', { class: 'chevron', 'aria-hidden': 'true' }), t('apero.fold'))) : null),
    handStrip(player, i),
    fieldError(state.placed, `cards-${i}`, `apero-error-${i}`),
  ];
}

function resultView() {
  const result = state.result;
  if (!result) return state.placed ? null : h('p', { class: 'hint' }, t('apero.tapHint'));
  return resultCards(result, (k) => state.sentIndex[k], 'apero', { compact: true });
}

/**
 * The result cards of a score: the winner line, then each player's colours, expressions
 * and total. `slot(k)` numbers the k-th player in test ids; `prefix` starts them (the chat
 * shows the same cards under its own prefix). `compact` (the form) leaves out each
 * player's sentence, which says again what the table shows.
 */
export function resultCards(result, slot = (k) => k, prefix = 'apero', { compact = false } = {}) {
  const players = result.players.map((p, k) => {
    const ui = slot(k);
    return h('article', { class: 'card-box result', testid: `${prefix}-result-${ui}` },
      h('h3', null, p.name, ' ', h('span', { class: 'total', testid: `${prefix}-total-${ui}` }, p.total_text), h('span', { class: 'unit' }, plural('apero.unit', p.total_text))),
      h('table', { class: 'score-table' },
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('apero.color')), h('th', { scope: 'col' }, t('apero.expression')), h('th', { scope: 'col' }, t('apero.score')))),
        h('tbody', null, p.colors.map((c) => h('tr', { testid: `${prefix}-color-${ui}-${c.color}` },
          h('th', { scope: 'row' }, h('span', { class: `swatch c-${c.color}`, 'aria-hidden': 'true' }), c.label),
          h('td', { class: 'expr' }, c.expression),
          h('td', { class: 'num' }, c.score_text))))),
      compact ? null : h('p', { class: 'explanation' }, p.explanation));
  });
  return [
    ranking(result, `${prefix}-ranking`),
    h('p', { class: 'winner', testid: `${prefix}-winner` }, winnerOf(result)),
    h('div', { class: 'results-grid' }, players),
  ];
}

/** Highest first, by exact decimal totals (they may pass 2^53). */
const byTotal = (text) => (a, b) => {
  const [x, y] = [BigInt(text(a)), BigInt(text(b))];
  return x > y ? -1 : x < y ? 1 : 0;
};

/** The players by total, ★ on the winners. */
function ranking(result, testid) {
  const winners = new Set(result.winners);
  const rows = result.players.map((p) => ({ name: p.name, total: p.total_text, winner: winners.has(p.name) }));
  rows.sort(byTotal((row) => row.total));
  return rankingStrip(rows, testid);
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
  return pick.result ? pickOptions(pick.result) : null;
}

/**
 * どれを取る？'s answer: every table card, best first, with the chooser's gain and what the
 * others would gain; `prefix` starts the test ids (the chat shows the same list under its own).
 */
export function pickOptions(result, prefix = 'apero') {
  return h('ol', { class: 'pick-options', testid: `${prefix}-pick-options`, 'aria-label': t('apero.pick.options') }, result.options.map((option, k) => {
    const rivals = option.gains.filter((g) => g.gain > 0).map((g) => `${g.name} ${signed(g.gain)}`);
    return h('li', { class: `card-box${k === 0 ? ' best' : ''}`, testid: `${prefix}-pick-option-${k}` },
      h('strong', null, h('span', { class: `swatch c-${option.card.color}`, 'aria-hidden': 'true' }), cardText(option.card, option.label)),
      ' ', h('span', { class: 'total', testid: `${prefix}-pick-gain-${k}` }, signed(option.gain)),
      h('span', { class: 'unit' }, plural('apero.unit', option.gain)),
      k === 0 ? h('span', { class: 'badge' }, t('apero.pick.best')) : null,
      h('p', { class: 'explanation' }, option.explanation),
      rivals.length ? h('p', { class: 'hint' }, t('apero.pick.others'), ': ', rivals.join(t('apero.pick.separator'))) : null);
  }));
}

function pickSection() {
  const names = state.players.map(playerName);
  return h('details', { class: 'card-box pick', id: 'apero-pick', testid: 'apero-pick', open: pick.open || pick.table.length > 0,
    ontoggle: (e) => { pick.open = e.target.open; } },
    h('summary', { id: 'apero-pick-summary', testid: 'apero-pick-open' }, t('apero.pick.title')),
    // On a wide screen the table cards and the answer sit side by side.
    h('div', { class: 'pick-body' },
      h('div', { class: 'pick-entry' },
        h('p', { class: 'hint' }, t('apero.pick.intro')),
        h('div', { class: 'row' },
          h('label', { for: 'apero-pick-me' }, t('apero.pick.me')),
          h('select', { id: 'apero-pick-me', testid: 'apero-pick-me', value: String(Math.min(pick.me, names.length - 1)),
            onchange: (e) => { pick.me = Number(e.target.value); change(); } },
          names.map((name, i) => h('option', { value: String(i) }, name)))),
        fieldError(pick.placed, 'me', 'apero-pick-me-error'),
        h('div', { class: 'picker' }, cardPicker(pick.table, 'apero-table', 'apero.pick.addCard')),
        h('div', { class: 'hand-head' },
          h('span', null, plural('apero.pick.tableCount', pick.table.length)),
          pick.table.length ? h('button', { type: 'button', class: 'small secondary', testid: 'apero-table-clear',
            onclick: () => { pick.table = []; change('apero-pick-me'); } }, t('apero.pick.clear')) : null),
        tableStrip(),
        fieldError(pick.placed, 'table', 'apero-table-error')),
      h('div', { class: 'pick-answer' },
        errorBox(pick.placed && !pick.placed.bySlot.table && !pick.placed.bySlot.me ? pick.placed : null, 'apero-pick-error'),
        optionsView())));
}

/** 「どれを取る？」 from the bar: the advice opens and comes into view, the focus on its heading. */
function openPick() {
  pick.open = true;
  renderForm();
  whenRendered(() => {
    const section = document.querySelector('[data-testid="apero-pick"]');
    const summary = document.getElementById('apero-pick-summary');
    if (!section || !summary) return;
    summary.focus({ preventScroll: true });
    const top = section.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight * 0.4) section.scrollIntoView({ block: 'start', behavior: 'instant' });
  });
}

export function render(focusFallback) {
  if (!root) return;
  renderForm(focusFallback);
  renderResults();
  renderTotals();
}

/** The entry form: sets, each player's cards, どれを取る？. */
function renderForm(focusFallback) {
  patch(root, [
    h('h2', null, t('apero.title')),
    h('details', { class: 'intro no-print', testid: 'apero-intro', open: help.open,
      ontoggle: (e) => { help.open = e.target.open; if (!help.open) introRead(); } },
    h('summary', { testid: 'apero-intro-open' }, t('apero.introTitle')),
    h('p', { class: 'hint' }, t('apero.intro'))),
    h('div', { class: 'row no-print' },
      h('label', { for: 'apero-sets' }, t('apero.sets')),
      h('select', { id: 'apero-sets', testid: 'apero-sets', value: String(state.sets),
        onchange: (e) => { state.sets = Number(e.target.value); refused = null; change(); } },
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => h('option', { value: String(n) }, plural('apero.setsN', n)))),
      h('span', { class: 'hint' }, t('apero.setsHint'))),
    fieldError(state.placed, 'sets', 'apero-sets-error'),
    // Printed, the page is the results: the entry parts are no-print. The add button is the
    // grid's last cell, so that on a wide screen it stands beside the players.
    h('div', { class: 'players no-print' }, state.players.map(playerSection),
      state.players.length < MAX_PLAYERS ? h('button', { type: 'button', id: 'apero-add-player', testid: 'apero-add-player',
        onclick: addPlayer }, t('apero.addPlayer')) : null),
    pickSection(),
  ], focusFallback);
}

/** The next player: the hands entered so far fold to one line, and the new name box takes the focus. */
function addPlayer() {
  for (const player of state.players) if (player.cards.length) folded.add(player);
  state.players.push(newPlayer());
  help.open = false;
  const id = `apero-p${state.players.length - 1}-name`;
  change();
  whenRendered(() => document.getElementById(id)?.focus());
}

function renderResults() {
  live.setAttribute('aria-label', t('apero.results'));
  patch(live, [errorBox(state.placed, 'apero-error'), resultView()]);
}

function renderTotals() {
  // The bar also carries 「どれを取る？」 itself (the advice is far down a phone's page), its
  // best card, and a button that brings the ranked options into view with the focus: they
  // may be below the fold while table cards are tapped.
  const best = pick.result?.options?.[0];
  patch(totals, [
    h('div', { class: 'bar-row' },
      state.result && state.result.players.length ? h('div', { class: 'bar-totals' },
        h('span', { class: 'sr-only' }, t('apero.totals')),
        ranking(state.result, 'apero-totals-ranking')) : h('div', { class: 'bar-totals' }),
      h('button', { type: 'button', class: 'small bar-pick', testid: 'apero-totals-pick', 'aria-controls': 'apero-pick',
        onclick: openPick }, t('apero.pick.title'))),
    best ? h('div', { class: 'bar-advice' },
      h('p', { testid: 'apero-totals-best' },
        t('apero.pick.bestIs', { name: person(state.players.map(playerName)[pick.me] ?? ''), card: cardText(best.card, best.label), gain: signed(best.gain) })),
      h('button', { type: 'button', class: 'small secondary', testid: 'apero-totals-options',
        onclick: () => showAnswer(document.querySelector('[data-testid="apero-pick-options"]')) },
      t('apero.pick.seeAll', { n: pick.result.options.length }))) : null,
  ]);
}

/** The inputs of the table (sets, hands, table cards, chooser): kept and shared. */
export function snapshot() {
  return { sets: state.sets, players: state.players.map((p) => ({ name: p.name, cards: p.cards })), table: pick.table, me: pick.me };
}

const VALUES = Object.fromEntries(COLORS);
function cardsFrom(list) {
  if (!Array.isArray(list)) return [];
  return list.slice(0, MAX_CARDS)
    .filter((c) => c && VALUES[c.color] && VALUES[c.color].includes(c.value))
    .map((c) => ({ color: c.color, value: c.value }));
}

/** Replace the inputs with `data` (a kept or shared snapshot); anything malformed is dropped. */
export function restore(data) {
  if (!data || typeof data !== 'object') return;
  const sets = Number(data.sets);
  state.sets = Number.isInteger(sets) && sets >= 1 && sets <= MAX_SETS ? sets : 1;
  const players = Array.isArray(data.players) ? data.players.slice(0, MAX_PLAYERS) : [];
  state.players = players.filter((p) => p && typeof p === 'object')
    .map((p) => ({ name: typeof p.name === 'string' ? p.name.slice(0, 40) : '', cards: cardsFrom(p.cards) }));
  if (!state.players.length) state.players = [newPlayer()];
  // Every hand folds but the last one that holds cards: the one being entered, or the last.
  folded = new WeakSet();
  const last = state.players.findLastIndex((p) => p.cards.length);
  state.players.forEach((p, i) => { if (p.cards.length && i !== last) folded.add(p); });
  pick.table = cardsFrom(data.table);
  pick.me = Number.isInteger(data.me) && data.me >= 0 && data.me < state.players.length ? data.me : 0;
  state.result = null; state.placed = null; pick.result = null; pick.placed = null; refused = null;
  save();
  render();
  refresh();
}

function save() { keep('apero', snapshot()); }

/** The scoreboard as text to paste: each player's total by rank, then the winner line. */
export function scoreText() {
  const result = state.result;
  if (!result) return '';
  const winners = new Set(result.winners);
  const lines = [t('apero.text.title', { title: t('apero.title'), sets: plural('apero.setsN', state.sets) })];
  for (const p of [...result.players].sort(byTotal((player) => player.total_text))) {
    lines.push(t('apero.text.row', { mark: winners.has(p.name) ? '★ ' : '', name: p.name, points: plural('apero.pointsN', p.total_text, { total: p.total_text }) }));
    lines.push(`  ${p.colors.map((c) => `${c.label} ${c.expression} = ${c.score_text}`).join(' / ')}`);
  }
  lines.push(winnerOf(result));
  return lines.join('\n');
}

export function refresh() {
  if (state.players.some((p) => p.cards.length)) score();
  if (pick.table.length) advise();
}

export function mount(panel) {
  root = h('div');
  live = h('section', { class: 'results', 'aria-live': 'polite', testid: 'apero-results' });
  totals = h('div', { class: 'totals-bar', testid: 'apero-totals' });
  panel.replaceChildren(root, live, totals);
  help.read = Boolean(kept(INTRO)?.read);
  help.open = !help.read;
  const saved = kept('apero');
  if (saved) restore(saved); else render();
}

/** The last score shown (POST apero/score's answer), or null: record.js keeps it in BG Stats. */
export function lastResult() { return state.result; }
