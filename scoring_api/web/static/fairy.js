// Fairy & Black Box: each player's mood, elimination and treasure points (marking the
// 〈きらきら〉 card); the service ranks them and says what decided the winner.

import { errorBox, fieldError, get, latestOnly, pathParts, placeErrors, post } from './api.js';
import { h, rerender, toInt } from './dom.js';
import { t } from './i18n.js';

const KIRAKIRA = 'きらきら';
const MIN_PLAYERS = 2;
const MAX_PLAYERS = 5;
const state = { players: [newPlayer(), newPlayer(), newPlayer()], result: null, placed: null, setup: null, stale: false, sentRows: [] };
const latest = latestOnly();
const latestSetup = latestOnly();
let root = null; // the form
let live = null; // the ranking: a live region that stays in place

// A blank mood means "still at the starting mood" (from the setup endpoint).
function newPlayer() { return { name: '', mood: '', eliminated: false, treasures: [{ points: '', kirakira: false }] }; }
const moodOf = (p) => toInt(p.mood) ?? state.setup?.starting_mood ?? null;
const playerName = (p, i) => p.name.trim() || t('fairy.playerN', { n: i + 1 });

/** The request; a treasure row left blank is no card. Remembers which rows were sent. */
function body() {
  state.sentRows = state.players.map((p) => (p.eliminated ? [] : p.treasures.map((tr, k) => [tr, k]).filter(([tr]) => String(tr.points).trim() !== '').map(([, k]) => k)));
  return {
    players: state.players.map((p, i) => ({
      name: playerName(p, i), mood: p.eliminated ? 0 : moodOf(p), eliminated: p.eliminated,
      treasures: state.sentRows[i].map((k) => ({
        name: p.treasures[k].kirakira ? KIRAKIRA : t('fairy.treasureN', { n: k + 1 }), points: toInt(p.treasures[k].points),
      })),
    })),
  };
}

function placeFairy(path) {
  const [head, i, field, j] = pathParts(path);
  if (head !== 'players' || typeof i !== 'number') return null;
  if (field === 'treasures' && typeof j === 'number') return `p${i}-t${state.sentRows[i]?.[j] ?? j}`;
  if (field === 'name' || field === 'mood') return `p${i}-${field}`;
  return `p${i}`;
}

async function score() {
  const answer = await latest(() => post('fairy-black-box/score', body()));
  if (!answer) return;
  state.result = answer.ok ? answer.data : null;
  state.placed = answer.ok ? null : placeErrors(answer.error, placeFairy);
  state.stale = false;
  render('fairy-score');
}

async function loadSetup() {
  const answer = await latestSetup(() => get('fairy-black-box/setup', { players: state.players.length }));
  if (!answer) return;
  state.setup = answer.ok ? answer.data : null;
  render();
}

/** An input changed: a shown ranking is out of date until the next "score". */
function changed() {
  state.stale = Boolean(state.result);
  live.classList.toggle('stale', state.stale);
}

function treasureRow(player, i, tr, k) {
  const id = `fairy-p${i}-t${k}`;
  return h('li', { class: 'treasure' },
    h('label', { for: `${id}-points` }, h('span', { class: 'sr-only' }, t('fairy.treasureN', { n: '' })), `#${k + 1}`),
    h('input', { id: `${id}-points`, testid: `${id}-points`, type: 'number', inputmode: 'numeric', min: -100, max: 100, class: 'num-input',
      value: tr.points, oninput: (e) => { tr.points = e.target.value; changed(); } }),
    h('span', { class: 'choice-item' },
      h('input', { type: 'checkbox', id: `${id}-kira`, testid: `${id}-kira`, checked: tr.kirakira, onchange: (e) => { tr.kirakira = e.target.checked; changed(); render(); } }),
      h('label', { for: `${id}-kira` }, t('fairy.kirakira'))),
    player.treasures.length > 1 ? h('button', { type: 'button', class: 'small secondary', testid: `${id}-remove`, 'aria-label': t('fairy.removeTreasureN', { n: k + 1 }),
      onclick: () => { player.treasures.splice(k, 1); changed(); render(`fairy-p${i}-add-treasure`); } }, '×') : null,
    fieldError(state.placed, `p${i}-t${k}`, `${id}-error`));
}

function playerBox(player, i) {
  const id = `fairy-p${i}`;
  return h('fieldset', { class: 'card-box player', testid: id },
    h('legend', null, playerName(player, i)),
    h('div', { class: 'row end' },
      h('span', { class: 'field' }, h('label', { for: `${id}-name` }, t('fairy.name')),
        h('input', { id: `${id}-name`, testid: `${id}-name`, type: 'text', maxlength: 40, autocomplete: 'off', placeholder: t('fairy.playerN', { n: i + 1 }),
          value: player.name, oninput: (e) => { player.name = e.target.value; changed(); } })),
      h('span', { class: 'field' }, h('label', { for: `${id}-mood` }, t('fairy.mood')),
        h('input', { id: `${id}-mood`, testid: `${id}-mood`, type: 'number', inputmode: 'numeric', min: 0, max: 20, class: 'num-input',
          value: player.mood, placeholder: state.setup?.starting_mood ?? '', disabled: player.eliminated, oninput: (e) => { player.mood = e.target.value; changed(); } })),
      h('span', { class: 'choice-item' },
        h('input', { type: 'checkbox', id: `${id}-out`, testid: `${id}-out`, checked: player.eliminated, onchange: (e) => { player.eliminated = e.target.checked; changed(); render(); } }),
        h('label', { for: `${id}-out` }, t('fairy.eliminated')))),
    fieldError(state.placed, `p${i}-name`, `${id}-name-error`),
    fieldError(state.placed, `p${i}-mood`, `${id}-mood-error`),
    player.eliminated ? h('p', { class: 'hint' }, t('fairy.eliminatedHint')) : [
      h('p', { class: 'sub-head', id: `${id}-treasures` }, t('fairy.treasurePoints')),
      h('ul', { class: 'treasures', 'aria-labelledby': `${id}-treasures` }, player.treasures.map((tr, k) => treasureRow(player, i, tr, k))),
    ],
    fieldError(state.placed, `p${i}`, `${id}-error`),
    h('div', { class: 'row' },
      player.eliminated ? null : h('button', { type: 'button', class: 'small secondary', id: `${id}-add-treasure`, testid: `${id}-add-treasure`,
        onclick: () => { player.treasures.push({ points: '', kirakira: false }); changed(); render(`${id}-t${player.treasures.length - 1}-points`); } }, t('fairy.addTreasure')),
      state.players.length > MIN_PLAYERS ? h('button', { type: 'button', class: 'small secondary', testid: `${id}-remove`,
        onclick: () => { state.players.splice(i, 1); changed(); loadSetup(); render('fairy-add-player'); } }, t('fairy.removePlayer')) : null));
}

function resultView() {
  const result = state.result;
  if (!result) return null;
  return resultCard(result, (i) => (state.players[i] ? moodOf(state.players[i]) : null));
}

/** The result card of a final score: winner, tie-break, ranking and explanations; `mood(i)`
 * is the i-th player's mood (null: not known); `prefix` starts the test ids. */
export function resultCard(result, mood = () => null, prefix = 'fairy') {
  const ranked = result.players.map((p, i) => [p, i]).sort(([a], [b]) => (a.rank ?? 99) - (b.rank ?? 99));
  return h('div', { class: 'card-box result', testid: `${prefix}-result` },
    h('p', { class: 'winner', testid: `${prefix}-winner` }, '★ ', result.winners.length ? result.winners.join(', ') : t('fairy.noWinner')),
    result.decided_by ? h('p', { class: 'decided', testid: `${prefix}-decided` }, t('fairy.decidedBy'), ' ', h('strong', null, t(`fairy.decided.${result.decided_by}`))) : null,
    h('table', { class: 'score-table', testid: `${prefix}-ranking` },
      h('caption', null, t('fairy.ranking')),
      h('thead', null, h('tr', null, ['rank', 'player', 'score', 'kirakira', 'mood'].map((c) => h('th', { scope: 'col' },
        c === 'kirakira' ? [h('span', { 'aria-hidden': 'true' }, '✦'), h('span', { class: 'sr-only' }, t('fairy.col.kirakira'))] : t(`fairy.col.${c}`))))),
      h('tbody', null, ranked.map(([p, i]) => h('tr', { testid: `${prefix}-rank-row-${i}`, class: p.rank === 1 ? 'top' : null },
        h('td', { class: 'num' }, p.rank ?? '—'),
        h('th', { scope: 'row' }, p.name),
        h('td', { class: 'num', testid: `${prefix}-score-${i}` }, p.eliminated ? t('fairy.out') : String(p.score)),
        h('td', null, p.has_kirakira ? '✦' : ''),
        h('td', { class: 'num' }, p.eliminated || mood(i) === null || mood(i) === undefined ? '—' : String(mood(i))))))),
    h('ul', { class: 'explanations' }, result.players.map((p) => h('li', null, p.explanation))),
    h('p', { class: 'explanation', testid: `${prefix}-explanation` }, result.explanation));
}

export function render(focusFallback) {
  if (!root) return;
  rerender(root, [
    h('h2', null, t('fairy.title')),
    h('p', { class: 'hint' }, t('fairy.intro')),
    state.setup ? h('details', { class: 'hint', testid: 'fairy-setup' },
      h('summary', null, t('fairy.setup', { players: state.setup.players, mood: state.setup.starting_mood })), state.setup.explanation) : null,
    h('form', { onsubmit: (e) => { e.preventDefault(); score(); } },
      h('div', { class: 'players' }, state.players.map(playerBox)),
      h('div', { class: 'row' },
        state.players.length < MAX_PLAYERS ? h('button', { type: 'button', class: 'secondary', id: 'fairy-add-player', testid: 'fairy-add-player',
          onclick: () => { state.players.push(newPlayer()); changed(); loadSetup(); render(); } }, t('fairy.addPlayer')) : null,
        h('button', { type: 'submit', id: 'fairy-score', testid: 'fairy-score' }, t('fairy.score')))),
  ], focusFallback);
  live.setAttribute('aria-label', t('fairy.results'));
  live.classList.toggle('stale', state.stale);
  rerender(live, [errorBox(state.placed, 'fairy-error'), resultView()]);
}

export function refresh() {
  loadSetup();
  if (state.result || state.placed) score();
}

export function mount(panel) {
  root = h('div');
  live = h('section', { class: 'results', 'aria-live': 'polite', testid: 'fairy-results' });
  panel.replaceChildren(root, live);
  render();
  loadSetup();
}
