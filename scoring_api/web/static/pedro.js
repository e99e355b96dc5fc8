// Pedro: a running game. Each hand's bid and points (typed, or ticked point cards) go to
// POST /pedro/game with every earlier hand; the service returns the ledger, the
// bidder-goes-out warning and the winner. The game survives a reload (localStorage).

import { errorBox, fieldError, latestOnly, pathParts, placeErrors, post } from './api.js';
import { h, rerender, toInt } from './dom.js';
import { t } from './i18n.js';

const STORE = 'scoring.pedro';
const TEAMS = ['NS', 'EW'];
const SUITS = { H: '♥', D: '♦', C: '♣', S: '♠' };
const LOW_SUIT = { H: 'D', D: 'H', C: 'S', S: 'C' }; // the other 5 of the same colour
const POINT_CARDS = [
  { key: 'A', rank: 'A', points: 1 }, { key: 'J', rank: 'J', points: 1 }, { key: '10', rank: '10', points: 1 },
  { key: 'pedro', rank: '5', points: 5 }, { key: 'low', rank: '5', points: 5, low: true }, { key: 'two', rank: '2', points: 1 },
];
const RULES = [
  { key: 'target', min: 1, max: 1000 }, { key: 'min_bid', min: 1, max: 14 }, { key: 'max_bid', min: 1, max: 14 },
  { key: 'dealer_forced_bid', min: 1, max: 14 }, { key: 'bidder_out_margin', min: 0, max: 1000 },
  { key: 'two_scored_by', options: ['dealt', 'captured', 'played'] },
  { key: 'tie_rule', options: ['extra_hand', 'bidder_wins', 'higher_score'] },
];

const state = { rules: {}, hands: [], result: null, placed: null, entry: newEntry(), settingsOpen: false };
const latest = latestOnly();
let top = null; // title and rule options
let live = null; // scores, warnings, winner: a live region that stays in place
let root = null; // the hand entry and the ledger

function newEntry(previous) {
  return { team: 'NS', amount: null, mode: previous?.mode || 'points', points: { NS: '', EW: '' }, trump: previous?.trump || 'H', cards: {} };
}

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (saved && Array.isArray(saved.hands)) { state.hands = saved.hands; state.rules = saved.rules || {}; }
  } catch { /* a broken save starts a new game */ }
}
function save() {
  try { localStorage.setItem(STORE, JSON.stringify({ rules: state.rules, hands: state.hands })); } catch { /* private mode */ }
}

const rules = () => ({ target: 100, min_bid: 7, max_bid: 14, ...(state.result?.rules || {}), ...state.rules });
const cardOf = (pc, trump) => pc.rank + (pc.low ? LOW_SUIT[trump] : trump);
const cardLabel = (card) => card.replace(/[HDCS]$/, (suit) => SUITS[suit]);

/** The hand as the API wants it, from the entry form. */
function handFromEntry() {
  const { entry } = state;
  const bid = { team: entry.team, amount: entry.amount ?? rules().min_bid };
  if (entry.mode === 'points') return { bid, points: { NS: toInt(entry.points.NS), EW: toInt(entry.points.EW) } };
  const captured = { NS: [], EW: [] };
  for (const pc of POINT_CARDS.filter((p) => p.key !== 'two')) {
    const team = entry.cards[pc.key];
    if (team) captured[team].push(cardOf(pc, entry.trump));
  }
  const hand = { bid, trump: entry.trump, captured };
  const two = entry.cards.two || null;
  const rule = rules().two_scored_by;
  if (rule === 'played') hand.two_played_by = two;
  else if (rule === 'captured') { if (two) captured[two].push(`2${entry.trump}`); } else hand.two_dealt_to = two;
  return hand;
}

/** hands[n].points.NS -> "points"; rules.target -> "rule-target"; others unplaced. */
function placePedro(newIndex) {
  return (path) => {
    const [head, index, field] = pathParts(path);
    if (head === 'rules') return index ? `rule-${index}` : 'rules';
    if (head === 'hands' && index === newIndex) {
      if (field === 'bid') return 'bid';
      if (field === 'points') return 'points';
      if (['captured', 'trump', 'two_dealt_to', 'two_played_by'].includes(field)) return 'cards';
      return 'entry';
    }
    return null;
  };
}

async function recompute(newHand) {
  const hands = newHand ? [...state.hands, newHand] : state.hands;
  const answer = await latest(() => post('pedro/game', { rules: state.rules, hands }));
  if (!answer) return;
  if (answer.ok) {
    state.result = answer.data;
    state.placed = null;
    if (newHand) { state.hands.push(newHand); state.entry = newEntry(state.entry); }
    save();
    render(newHand ? 'pedro-add' : undefined);
  } else {
    state.placed = placeErrors(answer.error, placePedro(state.hands.length));
    if (Object.keys(state.placed.bySlot).some((slot) => slot.startsWith('rule'))) state.settingsOpen = true;
    render();
  }
}

function radioGroup(name, legend, options, current, onPick, testid) {
  return h('fieldset', { class: 'choice', testid },
    h('legend', null, legend),
    options.map(([value, label]) => {
      const id = `${name}-${value}`;
      return h('span', { class: 'choice-item' },
        h('input', { type: 'radio', name, id, value, testid: id, checked: current === value, onchange: () => onPick(value) }),
        h('label', { for: id }, label));
    }));
}

function pointsInputs() {
  const { entry } = state;
  return h('div', { class: 'row' }, TEAMS.map((team) => [
    h('label', { for: `pedro-points-${team}` }, t('pedro.pointsOf', { team })),
    h('input', { id: `pedro-points-${team}`, testid: `pedro-points-${team}`, type: 'number', inputmode: 'numeric', min: 0, max: 14,
      class: 'num-input', value: entry.points[team], oninput: (e) => { entry.points[team] = e.target.value; } }),
  ]), fieldError(state.placed, 'points', 'pedro-points-error'));
}

function cardTicks() {
  const { entry } = state;
  const rule = rules().two_scored_by;
  const rows = POINT_CARDS.map((pc) => {
    const card = pc.key === 'two' ? `2${entry.trump}` : cardOf(pc, entry.trump);
    const name = ['pedro', 'low'].includes(pc.key) ? `${t(`pedro.card.${pc.key}`)} ` : '';
    const who = pc.key === 'two' ? ` · ${t(`pedro.two.${rule}`)}` : '';
    return h('tr', null,
      h('th', { scope: 'row' }, h('span', { class: `suit s-${card.slice(-1)}` }, cardLabel(card)), ' ', h('small', null, `${name}(${pc.points})${who}`)),
      ['NS', 'EW', ''].map((team) => {
        const id = `pedro-card-${pc.key}-${team || 'none'}`;
        return h('td', null, h('input', { type: 'radio', name: `pedro-card-${pc.key}`, id, testid: id, checked: (entry.cards[pc.key] || '') === team,
          'aria-label': `${cardLabel(card)}: ${team || t('pedro.nobody')}`, onchange: () => { entry.cards[pc.key] = team; } }));
      }));
  });
  return h('div', null,
    h('div', { class: 'row' },
      h('label', { for: 'pedro-trump' }, t('pedro.trump')),
      h('select', { id: 'pedro-trump', testid: 'pedro-trump', value: entry.trump, onchange: (e) => { entry.trump = e.target.value; render(); } },
        Object.entries(SUITS).map(([suit, symbol]) => h('option', { value: suit }, `${symbol} ${t(`pedro.suit.${suit}`)}`)))),
    h('table', { class: 'ticks' },
      h('caption', null, t('pedro.tickCaption')),
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('pedro.card')), h('th', { scope: 'col' }, 'NS'), h('th', { scope: 'col' }, 'EW'), h('th', { scope: 'col' }, t('pedro.nobody')))),
      h('tbody', null, rows)),
    fieldError(state.placed, 'cards', 'pedro-cards-error'));
}

function entryForm() {
  const { entry } = state;
  const r = rules();
  const over = Boolean(state.result?.winner);
  const amounts = [];
  for (let a = r.min_bid; a <= r.max_bid; a += 1) amounts.push(a);
  return h('form', { class: 'card-box', testid: 'pedro-entry', onsubmit: (e) => { e.preventDefault(); recompute(handFromEntry()); } },
    h('h3', null, t('pedro.handN', { n: state.hands.length + 1 })),
    h('fieldset', { class: 'plain', disabled: over },
      h('div', { class: 'row end' },
        radioGroup('pedro-team', t('pedro.bidTeam'), TEAMS.map((team) => [team, team]), entry.team, (v) => { entry.team = v; }, 'pedro-team'),
        h('span', { class: 'field' },
          h('label', { for: 'pedro-amount' }, t('pedro.bidAmount')),
          h('select', { id: 'pedro-amount', testid: 'pedro-amount', value: String(entry.amount ?? r.min_bid), onchange: (e) => { entry.amount = Number(e.target.value); } },
            amounts.map((a) => h('option', { value: String(a) }, String(a)))))),
      fieldError(state.placed, 'bid', 'pedro-bid-error'),
      radioGroup('pedro-mode', t('pedro.mode'), [['points', t('pedro.modePoints')], ['cards', t('pedro.modeCards')]], entry.mode,
        (v) => { entry.mode = v; render(); }, 'pedro-mode'),
      entry.mode === 'points' ? pointsInputs() : cardTicks(),
      fieldError(state.placed, 'entry', 'pedro-entry-error'),
      h('div', { class: 'row' }, h('button', { type: 'submit', id: 'pedro-add', testid: 'pedro-add' }, t('pedro.addHand')))),
    over ? h('p', { class: 'hint' }, t('pedro.gameOver')) : null);
}

function ledger() {
  const hands = state.result?.hands || [];
  if (!hands.length) return h('p', { class: 'hint' }, t('pedro.noHands'));
  return ledgerTable(hands);
}

/** The ledger of a game's hands: bid, made or set, each team's change and score;
 * `prefix` starts the test ids (the chat shows the same table under its own). */
export function ledgerTable(hands, prefix = 'pedro') {
  return h('table', { class: 'ledger', testid: `${prefix}-ledger` },
    h('caption', null, t('pedro.ledger')),
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, t('pedro.bid')), h('th', { scope: 'col', class: 'num' }, 'NS'), h('th', { scope: 'col', class: 'num' }, 'EW'))),
    hands.map((hand, k) => h('tbody', { testid: `${prefix}-ledger-row-${k}` },
      h('tr', null,
        h('th', { scope: 'row' }, String(k + 1)),
        h('td', null, `${hand.bid.team} ${hand.bid.amount} `, h('span', { class: hand.bid_made ? 'made' : 'set' }, hand.bid_made ? t('pedro.made') : t('pedro.set')),
          hand.bidder_goes_out ? h('span', { class: 'badge' }, t('pedro.bidderOutHand')) : null),
        TEAMS.map((team) => h('td', { class: 'num', testid: `${prefix}-ledger-${k}-${team}` },
          h('small', null, `${hand.deltas[team] >= 0 ? '+' : ''}${hand.deltas[team]} → `), h('strong', null, String(hand.scores_after[team]))))),
      h('tr', { class: 'expl-row' }, h('td', { colspan: 4 }, hand.explanation)))));
}

function status() {
  const result = state.result;
  if (!result) return null;
  const r = rules();
  return h('div', { class: 'scoreboard', testid: 'pedro-status' },
    h('p', { class: 'scores' }, TEAMS.map((team) => h('span', { class: 'team-score' }, h('span', null, team), h('strong', { testid: `pedro-score-${team}` }, String(result.scores[team])))),
      h('span', { class: 'target' }, t('pedro.target', { target: r.target }))),
    result.winner ? h('p', { class: 'winner', testid: 'pedro-winner' }, '★ ', t('pedro.winner', { team: result.winner })) : null,
    result.next_hand === 'bidder_goes_out' ? h('p', { class: 'warning', role: 'status', testid: 'pedro-warning' }, '⚠ ', t('pedro.warnBidderOut', { margin: r.bidder_out_margin ?? 7 })) : null,
    result.next_hand === 'extra_hand' ? h('p', { class: 'warning', role: 'status', testid: 'pedro-warning' }, '⚠ ', t('pedro.warnExtraHand')) : null,
    h('p', { class: 'explanation', testid: 'pedro-explanation' }, result.explanation));
}

function settings() {
  const r = rules();
  return h('details', { class: 'card-box settings', testid: 'pedro-settings', open: state.settingsOpen, ontoggle: (e) => { state.settingsOpen = e.target.open; } },
    h('summary', null, t('pedro.settings')),
    h('div', { class: 'settings-grid' }, RULES.map((rule) => {
      const id = `pedro-rule-${rule.key}`;
      const onchange = (e) => {
        const value = rule.options ? e.target.value : toInt(e.target.value);
        if (value === null) delete state.rules[rule.key]; else state.rules[rule.key] = value;
        recompute();
      };
      const input = rule.options
        ? h('select', { id, testid: id, value: String(r[rule.key] ?? rule.options[0]), onchange }, rule.options.map((o) => h('option', { value: o }, t(`pedro.rule.${rule.key}.${o}`))))
        : h('input', { id, testid: id, type: 'number', inputmode: 'numeric', min: rule.min, max: rule.max, class: 'num-input', value: r[rule.key] ?? '', onchange });
      return h('div', { class: rule.options ? 'field wide' : 'field' }, h('label', { for: id }, t(`pedro.rule.${rule.key}`)), input, fieldError(state.placed, `rule-${rule.key}`, `${id}-error`));
    })),
    fieldError(state.placed, 'rules', 'pedro-rules-error'),
    h('button', { type: 'button', class: 'secondary small', testid: 'pedro-rules-reset', onclick: () => { state.rules = {}; recompute(); } }, t('pedro.rulesReset')));
}

export function render(focusFallback) {
  if (!root) return;
  rerender(top, [h('h2', null, t('pedro.title')), h('p', { class: 'hint' }, t('pedro.intro')), settings()], focusFallback);
  rerender(live, [status(), errorBox(state.placed, 'pedro-error'),
    state.result || !state.placed ? null : h('button', { type: 'button', class: 'secondary', testid: 'pedro-retry', onclick: () => recompute() }, t('pedro.retry'))]);
  rerender(root, [
    state.result ? entryForm() : null,
    h('section', { class: 'card-box', 'aria-label': t('pedro.ledger') }, ledger(),
      h('div', { class: 'row' },
        state.hands.length ? h('button', { type: 'button', class: 'secondary small', id: 'pedro-undo', testid: 'pedro-undo',
          onclick: () => { state.hands.pop(); recompute(); } }, t('pedro.undo')) : null,
        state.hands.length ? h('button', { type: 'button', class: 'secondary small', id: 'pedro-new-game', testid: 'pedro-new-game',
          onclick: () => { if (window.confirm(t('pedro.confirmNew'))) { state.hands = []; recompute(); } } }, t('pedro.newGame')) : null)),
  ], focusFallback || 'pedro-add');
}

export function refresh() { recompute(); }

export function mount(panel) {
  top = h('div');
  live = h('div', { 'aria-live': 'polite' });
  root = h('div');
  panel.replaceChildren(top, live, root);
  load();
  render();
  recompute();
}
