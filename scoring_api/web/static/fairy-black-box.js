// Fairy & Black Box: each player's mood, elimination and treasure points (marking the
// 〈きらきら〉 card); the service ranks them and says what decided the winner. The table
// survives a reload (store.js) and travels in a shared link (snapshot / restore).

import { errorBox, get, latestOnly, pathParts, post } from './api.js';
import { h, patch, rankingStrip, showAnswer, toInt, whenRendered } from './dom.js';
import { getLang, t } from './i18n.js';
import { person, winnerText } from './people.js';
import { keep, kept } from './store.js';

const GAME = 'fairy-black-box'; // the tab, the panel and the kept inputs (store.js)
const KIRAKIRA = '〈きらきら〉';
const MIN_PLAYERS = 2;
const MAX_PLAYERS = 5;
const MAX_TREASURES = 15; // treasure cards in the game, so per hand too
const MAX_NAME = 40;
const state = { players: [newPlayer(), newPlayer(), newPlayer()], result: null, placed: null, setup: null, stale: false, sentRows: [] };
const latest = latestOnly();
const latestSetup = latestOnly();
let root = null; // the form
let live = null; // the ranking: a live region that stays in place

// A blank mood means "still at the starting mood" (from the setup endpoint).
function newPlayer() { return { name: '', mood: '', eliminated: false, treasures: [newTreasure()] }; }
function newTreasure() { return { points: '', kirakira: false }; }
const moodOf = (p) => toInt(p.mood) ?? state.setup?.starting_mood ?? null;
const playerName = (p, i) => p.name.trim() || t('fairy-black-box.playerN', { n: i + 1 });
/** "1枚目" / "1st": the k-th treasure row (k from 0). */
const nth = (k) => t(`fairy-black-box.ordinal.${new Intl.PluralRules(getLang(), { type: 'ordinal' }).select(k + 1)}`, { n: k + 1 });
/** The name a treasure row goes by: in the explanations the points follow it, so it never ends in a digit. */
const treasureName = (k) => t('fairy-black-box.treasureName', { nth: nth(k) });
/** The winner line, as every game's (people.js): 「★ アキさんの勝ち（34点）」, 「★ アキさんと
 * ベンさんの勝ち（34点）」, or that nobody won. */
function winnerOf(result) {
  const top = result.players.find((p) => p.name === result.winners[0]);
  return top ? winnerText(result.winners, top.score) : t('fairy-black-box.noWinner');
}

// -- Kept and shared ----------------------------------------------------------------------

/** The table's inputs (players, moods, treasures) and whether it was scored: kept and shared. */
export function snapshot() {
  return {
    players: state.players.map((p) => ({ name: p.name, mood: p.mood, eliminated: p.eliminated, treasures: p.treasures.map((tr) => ({ ...tr })) })),
    scored: Boolean(state.result || state.placed),
  };
}

const isObject = (v) => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** A number box's text from a kept value: digits (and a minus) only, else blank. */
function numberText(value, digits) {
  const text = typeof value === 'number' && Number.isInteger(value) ? String(value) : value;
  return typeof text === 'string' && new RegExp(`^-?\\d{1,${digits}}$`).test(text.trim()) ? text.trim() : '';
}

function cleanPlayer(raw) {
  const player = newPlayer();
  if (!isObject(raw)) return player;
  if (typeof raw.name === 'string') player.name = raw.name.slice(0, MAX_NAME);
  player.mood = numberText(raw.mood, 2);
  player.eliminated = raw.eliminated === true;
  if (Array.isArray(raw.treasures)) {
    const rows = raw.treasures.slice(0, MAX_TREASURES).filter(isObject)
      .map((tr) => ({ points: numberText(tr.points, 3), kirakira: tr.kirakira === true }));
    if (rows.length) player.treasures = rows;
  }
  return player;
}

function apply(data) {
  const players = Array.isArray(data?.players) ? data.players.slice(0, MAX_PLAYERS).map(cleanPlayer) : [];
  while (players.length && players.length < MIN_PLAYERS) players.push(newPlayer());
  state.players = players.length ? players : [newPlayer(), newPlayer(), newPlayer()];
  state.result = null; state.placed = null; state.stale = false;
  return data?.scored === true;
}

/** Replace the table with `data` (a kept or shared snapshot); anything malformed is dropped.
 * A table that was scored is scored again, so the link shows the same ranking; data that
 * holds no table leaves the table as it is. */
export function restore(data) {
  if (!isObject(data) || !Array.isArray(data.players)) return; // holds no table: keep this one
  const scored = apply(data);
  save();
  render();
  loadSetup().then(() => { if (scored) score(); });
}

function save() { keep(GAME, snapshot()); }

/** The ranking as text: ★ the winners, each player's score, and what decided. */
export function scoreText() {
  const result = state.result;
  if (!result) return '';
  const lines = [t('fairy-black-box.title')];
  for (const row of rankingRows(result)) lines.push(t('fairy-black-box.text.row', { mark: row.winner ? '★ ' : '', name: row.name, total: row.total }));
  if (result.decided_by) lines.push(`${t('fairy-black-box.decidedBy')} ${t(`fairy-black-box.decided.${result.decided_by}`)}`);
  lines.push(result.explanation);
  return lines.join('\n');
}

// -- Asking the service -------------------------------------------------------------------

/** The request; a treasure row left blank is no card. Remembers which rows were sent. */
function body() {
  state.sentRows = state.players.map((p) => (p.eliminated ? [] : p.treasures.map((tr, k) => [tr, k]).filter(([tr]) => String(tr.points).trim() !== '').map(([, k]) => k)));
  return {
    players: state.players.map((p, i) => ({
      name: playerName(p, i), mood: p.eliminated ? 0 : moodOf(p), eliminated: p.eliminated,
      treasures: state.sentRows[i].map((k) => ({
        name: p.treasures[k].kirakira ? KIRAKIRA : treasureName(k), points: toInt(String(p.treasures[k].points).trim()),
      })),
    })),
  };
}

/** Where a refusal belongs: its slot on the form and the name of the box. */
function placeOf(path) {
  const [head, i, field, j] = pathParts(path);
  if (head !== 'players' || typeof i !== 'number' || !state.players[i]) return { slot: null, box: null };
  const player = person(playerName(state.players[i], i));
  if (field === 'treasures' && typeof j === 'number') {
    const k = state.sentRows[i]?.[j] ?? j;
    return { slot: `p${i}-t${k}`, box: t('fairy-black-box.box.of', { player, box: treasureName(k) }) };
  }
  if (field === 'name') return { slot: `p${i}-name`, box: t('fairy-black-box.box.of', { player, box: t('fairy-black-box.box.name') }) };
  if (field === 'mood') return { slot: `p${i}-mood`, box: t('fairy-black-box.box.of', { player, box: t('fairy-black-box.box.mood') }) };
  if (field === 'treasures') return { slot: `p${i}`, box: t('fairy-black-box.box.of', { player, box: t('fairy-black-box.box.treasures') }) };
  return { slot: `p${i}`, box: player };
}

/** The refusal for people: each reason at its box; a reason that is not about a rule of the
 * game (a number out of range...) says which box (「Akiさんのゴキゲン: ...」). */
function placeRefusal(error) {
  const bySlot = {};
  const rest = [];
  const validation = error?.code === 'invalid_input';
  for (const [path, reasons] of Object.entries(error?.details || {})) {
    const { slot, box } = placeOf(path);
    const list = (Array.isArray(reasons) ? reasons : [String(reasons)])
      .map((reason) => (box && (validation || !slot) ? t('fairy-black-box.errAt', { box, reason }) : reason));
    if (slot) (bySlot[slot] ||= []).push(...list); else rest.push(...list);
  }
  const message = validation || !error?.message ? t('fairy-black-box.err.invalid') : error.message;
  return { bySlot, rest, message };
}

/** Score the table; `reveal` (the score button) brings the answer into view. */
async function score(reveal = false) {
  if (!state.setup && state.players.some((p) => !p.eliminated && toInt(p.mood) === null)) await loadSetup();
  const answer = await latest((signal) => post('fairy-black-box/score', body(), signal));
  if (!answer) return;
  state.result = answer.ok ? answer.data : null;
  state.placed = answer.ok ? null : placeRefusal(answer.error);
  state.stale = false;
  save();
  render(reveal ? 'fairy-black-box-score' : undefined);
  if (!reveal) return;
  whenRendered(() => {
    const error = document.querySelector('#panel-fairy-black-box .field-error, #panel-fairy-black-box .error-box');
    if (error && !error.id) error.id = 'fairy-black-box-error-first';
    showAnswer(error || document.getElementById('fairy-black-box-result'));
  });
}

async function loadSetup() {
  const answer = await latestSetup((signal) => get('fairy-black-box/setup', { players: state.players.length }, signal));
  if (!answer) return;
  state.setup = answer.ok ? answer.data : null;
  render();
}

/** An input changed: kept at once; a shown ranking is out of date until the next "score". */
function changed() {
  save();
  if (!state.result || state.stale) return;
  state.stale = true;
  renderResults();
}

// -- The form -----------------------------------------------------------------------------

/** The refusals at `slot` (nothing when there are none); `id` also names it for focus. */
function slotError(slot, id) {
  const reasons = state.placed?.bySlot?.[slot];
  if (!reasons || !reasons.length) return null;
  const unique = [...new Set(reasons)];
  return h('div', { class: 'field-error', role: 'alert', id, testid: id },
    unique.length === 1 ? unique[0] : h('ul', null, unique.map((r) => h('li', null, r))));
}

/** A checkbox and its text in one label: the whole box is the tap target. */
function checkbox(id, text, checked, onchange) {
  return h('label', { class: 'segment check', for: id },
    h('input', { type: 'checkbox', id, testid: id, checked, onchange }),
    h('span', null, text));
}

function treasureRow(player, i, tr, k) {
  const id = `fairy-black-box-p${i}-t${k}`;
  return h('li', { class: 'treasure' },
    h('label', { for: `${id}-points` }, h('span', { 'aria-hidden': 'true' }, nth(k)), h('span', { class: 'sr-only' }, treasureName(k))),
    h('input', { id: `${id}-points`, testid: `${id}-points`, type: 'number', inputmode: 'numeric', min: -100, max: 100, class: 'num-input',
      value: tr.points, oninput: (e) => { tr.points = e.target.value; changed(); } }),
    checkbox(`${id}-kira`, t('fairy-black-box.kirakira'), tr.kirakira, (e) => { tr.kirakira = e.target.checked; changed(); render(); }),
    player.treasures.length > 1 ? h('button', { type: 'button', class: 'small secondary', id: `${id}-remove`, testid: `${id}-remove`,
      onclick: () => { player.treasures.splice(k, 1); changed(); render(`fairy-black-box-p${i}-add-treasure`); } },
    h('span', { 'aria-hidden': 'true' }, '×'), h('span', { class: 'sr-only' }, t('fairy-black-box.removeTreasure', { name: treasureName(k) }))) : null,
    slotError(`p${i}-t${k}`, `${id}-error`));
}

function playerBox(player, i) {
  const id = `fairy-black-box-p${i}`;
  return h('fieldset', { class: 'card-box player', testid: id },
    h('legend', null, playerName(player, i)),
    h('div', { class: 'row end' },
      h('span', { class: 'field' }, h('label', { for: `${id}-name` }, t('fairy-black-box.name')),
        h('input', { id: `${id}-name`, testid: `${id}-name`, type: 'text', maxlength: MAX_NAME, autocomplete: 'off', placeholder: t('fairy-black-box.playerN', { n: i + 1 }),
          value: player.name, oninput: (e) => { player.name = e.target.value; changed(); } })),
      h('span', { class: 'field' }, h('label', { for: `${id}-mood` }, t('fairy-black-box.mood')),
        h('input', { id: `${id}-mood`, testid: `${id}-mood`, type: 'number', inputmode: 'numeric', min: 0, max: 20, class: 'num-input',
          value: player.mood, placeholder: state.setup?.starting_mood ?? '', disabled: player.eliminated, oninput: (e) => { player.mood = e.target.value; changed(); } })),
      checkbox(`${id}-out`, t('fairy-black-box.eliminated'), player.eliminated, (e) => { player.eliminated = e.target.checked; changed(); render(); })),
    slotError(`p${i}-name`, `${id}-name-error`),
    slotError(`p${i}-mood`, `${id}-mood-error`),
    player.eliminated ? h('p', { class: 'hint' }, t('fairy-black-box.eliminatedHint')) : [
      h('p', { class: 'sub-head', id: `${id}-treasures` }, t('fairy-black-box.treasurePoints')),
      h('ul', { class: 'treasures', 'aria-labelledby': `${id}-treasures` }, player.treasures.map((tr, k) => treasureRow(player, i, tr, k))),
    ],
    slotError(`p${i}`, `${id}-error`),
    h('div', { class: 'row' },
      player.eliminated || player.treasures.length >= MAX_TREASURES ? null : h('button', { type: 'button', class: 'small secondary', id: `${id}-add-treasure`, testid: `${id}-add-treasure`,
        onclick: () => { player.treasures.push(newTreasure()); changed(); render(`${id}-t${player.treasures.length - 1}-points`); } }, t('fairy-black-box.addTreasure')),
      state.players.length > MIN_PLAYERS ? h('button', { type: 'button', class: 'small secondary', id: `${id}-remove`, testid: `${id}-remove`,
        onclick: () => { state.players.splice(i, 1); changed(); loadSetup(); render('fairy-black-box-add-player'); } }, t('fairy-black-box.removePlayer')) : null));
}

function resultView() {
  const result = state.result;
  if (!result) return null;
  const card = resultCard(result, (i) => (state.players[i] ? moodOf(state.players[i]) : null));
  card.id = 'fairy-black-box-result';
  card.tabIndex = -1;
  return card;
}

/** Every player by rank, ★ on the winners; an eliminated player's total says so. */
function rankingRows(result) {
  return result.players.map((p, i) => [p, i]).sort(([a, i], [b, j]) => (a.rank ?? 99) - (b.rank ?? 99) || i - j)
    .map(([p]) => ({ name: p.name, total: p.eliminated ? t('fairy-black-box.out') : t('fairy-black-box.pointsN', { n: p.score }), winner: result.winners.includes(p.name) }));
}

/** The result card of a final score: the ranking, winner, tie-break, table and explanations;
 * `mood(i)` is the i-th player's mood (null: not known); `prefix` starts the test ids. */
export function resultCard(result, mood = () => null, prefix = GAME) {
  const ranked = result.players.map((p, i) => [p, i]).sort(([a], [b]) => (a.rank ?? 99) - (b.rank ?? 99));
  const strip = rankingStrip(rankingRows(result), `${prefix}-top`);
  strip.setAttribute('aria-label', t('fairy-black-box.ranking'));
  return h('div', { class: 'card-box result', testid: `${prefix}-result` },
    strip,
    h('p', { class: 'winner', testid: `${prefix}-winner` }, winnerOf(result)),
    result.decided_by ? h('p', { class: 'decided', testid: `${prefix}-decided` }, t('fairy-black-box.decidedBy'), ' ', h('strong', null, t(`fairy-black-box.decided.${result.decided_by}`))) : null,
    h('table', { class: 'score-table', testid: `${prefix}-ranking` },
      h('caption', null, t('fairy-black-box.details')),
      h('thead', null, h('tr', null, ['rank', 'player', 'score', 'kirakira', 'mood'].map((c) => h('th', { scope: 'col' },
        c === 'kirakira' ? [h('span', { 'aria-hidden': 'true' }, '✦'), h('span', { class: 'sr-only' }, t('fairy-black-box.col.kirakira'))] : t(`fairy-black-box.col.${c}`))))),
      h('tbody', null, ranked.map(([p, i]) => h('tr', { testid: `${prefix}-rank-row-${i}`, class: p.rank === 1 ? 'top' : null },
        h('td', { class: 'num' }, p.rank ?? '—'),
        h('th', { scope: 'row' }, p.name),
        h('td', { class: 'num', testid: `${prefix}-score-${i}` }, p.eliminated ? t('fairy-black-box.out') : String(p.score)),
        h('td', null, p.has_kirakira ? '✦' : ''),
        h('td', { class: 'num' }, p.eliminated || mood(i) === null || mood(i) === undefined ? '—' : String(mood(i))))))),
    h('ul', { class: 'explanations' }, result.players.map((p) => h('li', null, p.explanation))),
    h('p', { class: 'explanation', testid: `${prefix}-explanation` }, result.explanation));
}

function renderResults() {
  live.setAttribute('aria-label', t('fairy-black-box.results'));
  live.classList.toggle('stale', state.stale);
  patch(live, [
    state.stale ? h('p', { class: 'warning', testid: 'fairy-black-box-stale' }, t('fairy-black-box.stale')) : null,
    errorBox(state.placed, 'fairy-black-box-error'),
    resultView(),
  ]);
}

export function render(focusFallback) {
  if (!root) return;
  patch(root, [
    h('h2', null, t('fairy-black-box.title')),
    h('p', { class: 'hint no-print' }, t('fairy-black-box.intro')),
    state.setup ? h('details', { class: 'hint no-print', testid: 'fairy-black-box-setup' },
      h('summary', null, t('fairy-black-box.setup', { players: state.setup.players, mood: state.setup.starting_mood })), state.setup.explanation) : null,
    h('form', { class: 'no-print', novalidate: true, onsubmit: (e) => { e.preventDefault(); score(true); } }, // the service's refusals, not the browser's bubbles
      h('div', { class: 'players' }, state.players.map(playerBox)),
      h('div', { class: 'row' },
        state.players.length < MAX_PLAYERS ? h('button', { type: 'button', class: 'secondary', id: 'fairy-black-box-add-player', testid: 'fairy-black-box-add-player',
          onclick: () => { state.players.push(newPlayer()); changed(); loadSetup(); render(); } }, t('fairy-black-box.addPlayer')) : null,
        h('button', { type: 'submit', id: 'fairy-black-box-score', testid: 'fairy-black-box-score' }, t('fairy-black-box.score')))),
  ], focusFallback);
  renderResults();
}

export function refresh() {
  loadSetup().then(() => { if (state.result || state.placed) score(); });
}

export function mount(panel) {
  root = h('div');
  live = h('section', { class: 'results', 'aria-live': 'polite', testid: 'fairy-black-box-results' });
  panel.replaceChildren(root, live);
  const saved = kept(GAME);
  if (saved) { restore(saved); return; }
  render();
  loadSetup();
}

/** The last score shown (POST fairy-black-box/score's answer), or null: record.js keeps it in BG Stats. */
export function lastResult() { return state.result; }
