// Pedro: a running game. Each hand's bid (one tap on the amount) and points (typed, or
// ticked point cards) go to POST /pedro/game with every earlier hand; the service returns
// the ledger, the ビッダー・ゴーズ・アウト warning and the winner. Nothing is guessed: a
// blank points box is never 0 (with one box blank the form offers the hand's remaining
// points, to confirm with a tap), and a hand without a bid amount is not sent. The ledger
// shows the newest hand first, one line each, its explanation on a tap. The rules, the hands
// and the hand being entered survive a reload (store.js) and travel in a shared link
// (snapshot / restore).

import { errorBox, pathParts, post } from './api.js';
import { h, patch, rankingStrip, showAnswer, toInt, whenRendered } from './dom.js';
import { t } from './i18n.js';
import { winnerLine, winnerText } from './people.js';
import { keep, kept } from './store.js';

const TEAMS = ['NS', 'EW'];
const SUITS = { H: '♥', D: '♦', C: '♣', S: '♠' };
const LOW_SUIT = { H: 'D', D: 'H', C: 'S', S: 'C' }; // the other 5 of the same colour
// The point schedules as the service has them (docs/rules/pedro.md, "Rule options"): the
// jack's points, a hand's points, and the bids a table plays with unless it sets its own.
const SCHEDULES = {
  guide_14: { jack: 1, points: 14, min_bid: 7, max_bid: 14, dealer_forced_bid: 7 },
  california_16: { jack: 3, points: 16, min_bid: 6, max_bid: 16, dealer_forced_bid: 6 },
};
const DEFAULT_SCHEDULE = 'guide_14';
const POINT_CARDS = [
  { key: 'A', rank: 'A', points: 1 }, { key: 'J', rank: 'J', points: 1, jack: true }, { key: '10', rank: '10', points: 1 },
  { key: 'pedro', rank: '5', points: 5 }, { key: 'low', rank: '5', points: 5, low: true }, { key: 'two', rank: '2', points: 1 },
];
const MAX_POINTS = 16; // the most any schedule's hand holds, as the API accepts; the table's is rules().points
const RULES = [
  { key: 'schedule', options: Object.keys(SCHEDULES) },
  { key: 'target', min: 1, max: 100 }, { key: 'min_bid', min: 1, max: MAX_POINTS }, { key: 'max_bid', min: 1, max: MAX_POINTS },
  { key: 'dealer_forced_bid', min: 1, max: MAX_POINTS }, { key: 'bidder_out_margin', min: 0, max: 100, wide: true }, // its label is long
  { key: 'two_scored_by', options: ['dealt', 'captured', 'played'] },
  { key: 'tie_rule', options: ['extra_hand', 'bidder_wins', 'higher_score'] },
];
const MAX_HANDS = 80; // as the API accepts
const MAX_CAPTURED = 24; // per team, as the API accepts
const CARD = /^(10|[2-9AKQJ])[HDCS]$/;
// Refusals whose server sentence names JSON fields (for API clients): said here for people.
const OWN_WORDS = { two_owner_missing: 'pedro.err.twoOwner', two_field_for_rule: 'pedro.err.twoOwner', points_or_captured: 'pedro.err.pointsOrCards' };

// question: the points were asked for (a tap on 記録 with a blank box); bidAsked: the bid
// amount was; open: the ledger lines whose explanation is shown (hand indexes).
const state = { rules: {}, hands: [], result: null, placed: null, entry: newEntry(), settingsOpen: false, question: false, bidAsked: false, open: new Set() };
let queue = Promise.resolve(); // the questions to the service, one after another
let top = null; // title and rule options
let live = null; // scores, warnings, winner: a live region that stays in place
let root = null; // the hand entry and the ledger
let edits = 0; // changes to the hand being entered: one typed while an answer is on its way is kept
let adding = 0; // hands sent and not yet answered
let addedAt = -1; // `edits` when the last hand was sent

/** The hand being entered changed: kept at once. */
function touched() { edits += 1; save(); }

function newEntry(previous) {
  return { team: 'NS', amount: null, mode: previous?.mode || 'points', points: { NS: '', EW: '' }, trump: previous?.trump || 'H', cards: {} };
}

/** The table's rules: the schedule's bids unless set, what the service last echoed for the
 * same schedule, then the options set here; `points` is a hand's under the schedule. */
function rules() {
  const schedule = state.rules.schedule || DEFAULT_SCHEDULE;
  const { jack, points, ...bids } = SCHEDULES[schedule];
  const echoed = state.result?.rules || {};
  const same = (echoed.schedule || DEFAULT_SCHEDULE) === schedule ? echoed : {};
  return { target: 100, ...bids, ...same, ...state.rules, schedule, points, jack };
}
const pointsOf = (pc, r) => (pc.jack ? r.jack : pc.points);
const cardOf = (pc, trump) => pc.rank + (pc.low ? LOW_SUIT[trump] : trump);
const cardLabel = (card) => card.replace(/[HDCS]$/, (suit) => SUITS[suit]);
const blank = (text) => String(text ?? '').trim() === '';
/** `key.one` or `key.other` by `n` (English says 1 point, 5 points). */
const tn = (key, n, params) => t(`${key}.${n === 1 ? 'one' : 'other'}`, params);

/** Whether NS `ns` and EW `ew` points are a split the schedule's point cards allow: each
 * card to one team or to nobody (unplayed), as the service checks (docs/rules/pedro.md,
 * Decision 4). */
function possibleSplit(ns, ew, r) {
  let reach = new Set(['0,0']);
  for (const pc of POINT_CARDS) {
    const v = pointsOf(pc, r);
    const next = new Set(reach);
    for (const key of reach) {
      const [a, b] = key.split(',').map(Number);
      next.add(`${a + v},${b}`);
      next.add(`${a},${b + v}`);
    }
    reach = next;
  }
  return reach.has(`${ns},${ew}`);
}

/**
 * What the points boxes still need, or null when both hold something: both blank
 * ({both}); one blank ({missing, given, offer}): `offer` the hand's remaining points
 * (the schedule's total minus the other box) when that is a possible split, else null,
 * with `range` when the other box is not a number the schedule allows.
 */
function pointsNeed() {
  const { entry } = state;
  const r = rules();
  const blanks = TEAMS.filter((team) => blank(entry.points[team]));
  if (blanks.length === 2) return { both: true };
  if (!blanks.length) return null;
  const [missing] = blanks;
  const given = TEAMS.find((team) => team !== missing);
  const typed = toInt(String(entry.points[given]).trim());
  const range = typed === null || typed < 0 || typed > r.points;
  const rest = range ? null : r.points - typed;
  const split = rest !== null && possibleSplit(given === 'NS' ? typed : rest, given === 'NS' ? rest : typed, r);
  return { missing, given, offer: split ? rest : null, range };
}

/** Whether the form says something under the points boxes (see pointsQuestion). */
const pointsAsked = (need) => Boolean(need) && (!need.both || state.question);

// -- Kept and shared ----------------------------------------------------------------------

/** The table's inputs (rules, recorded hands, the hand being entered): kept and shared. */
export function snapshot() {
  const { entry } = state;
  return {
    rules: { ...state.rules },
    hands: state.hands,
    entry: { team: entry.team, amount: entry.amount, mode: entry.mode, points: { ...entry.points }, trump: entry.trump, cards: { ...entry.cards } },
  };
}

const isObject = (v) => Boolean(v) && typeof v === 'object' && !Array.isArray(v);
const intIn = (v, lo, hi) => Number.isInteger(v) && v >= lo && v <= hi;

function cleanRules(raw) {
  const out = {};
  if (!isObject(raw)) return out;
  for (const rule of RULES) {
    const v = raw[rule.key];
    if (rule.options ? rule.options.includes(v) : intIn(v, rule.min, rule.max)) out[rule.key] = v;
  }
  return out;
}

/** A hand as the API takes it, or null when `raw` is not one. */
function cleanHand(raw) {
  if (!isObject(raw) || !isObject(raw.bid) || !TEAMS.includes(raw.bid.team) || !intIn(raw.bid.amount, 1, MAX_POINTS)) return null;
  const hand = { bid: { team: raw.bid.team, amount: raw.bid.amount } };
  if (raw.points !== undefined && raw.points !== null) {
    if (!isObject(raw.points) || !intIn(raw.points.NS, 0, MAX_POINTS) || !intIn(raw.points.EW, 0, MAX_POINTS)) return null;
    hand.points = { NS: raw.points.NS, EW: raw.points.EW };
    return hand;
  }
  if (!(raw.trump in SUITS) || !isObject(raw.captured)) return null;
  hand.trump = raw.trump;
  hand.captured = {};
  for (const team of TEAMS) {
    const cards = raw.captured[team] ?? [];
    if (!Array.isArray(cards) || cards.length > MAX_CAPTURED || !cards.every((c) => typeof c === 'string' && CARD.test(c))) return null;
    hand.captured[team] = [...cards];
  }
  for (const key of ['two_dealt_to', 'two_played_by']) {
    if (!(key in raw)) continue;
    if (raw[key] !== null && !TEAMS.includes(raw[key])) return null;
    hand[key] = raw[key];
  }
  return hand;
}

function cleanEntry(raw) {
  const entry = newEntry();
  if (!isObject(raw)) return entry;
  if (TEAMS.includes(raw.team)) entry.team = raw.team;
  if (intIn(raw.amount, 1, MAX_POINTS)) entry.amount = raw.amount;
  if (['points', 'cards'].includes(raw.mode)) entry.mode = raw.mode;
  if (raw.trump in SUITS) entry.trump = raw.trump;
  for (const team of TEAMS) {
    const text = isObject(raw.points) ? raw.points[team] : '';
    if (typeof text === 'string' && /^-?\d{0,3}$/.test(text.trim())) entry.points[team] = text.trim();
  }
  if (isObject(raw.cards)) {
    for (const pc of POINT_CARDS) if (['', ...TEAMS].includes(raw.cards[pc.key])) entry.cards[pc.key] = raw.cards[pc.key];
  }
  return entry;
}

function apply(data) {
  state.rules = cleanRules(data?.rules);
  state.hands = Array.isArray(data?.hands) ? data.hands.slice(0, MAX_HANDS).map(cleanHand).filter(Boolean) : [];
  state.entry = cleanEntry(data?.entry);
  state.result = null; state.placed = null; state.question = false; state.bidAsked = false; state.open = new Set();
}

/** Replace the table with `data` (a kept or shared snapshot); anything malformed is dropped,
 * and data that holds no game at all leaves the table as it is. */
export function restore(data) {
  if (!isObject(data) || (!Array.isArray(data.hands) && !isObject(data.rules))) return;
  apply(data);
  save();
  render();
  recompute();
}

function save() { keep('pedro', snapshot()); }

/** A save from before versions: {rules, hands} under the same key. */
const legacy = (raw) => (isObject(raw) && Array.isArray(raw.hands) ? { rules: raw.rules, hands: raw.hands } : null);

/** The scoreboard as text: the target, each team's score (★ the winner), then every hand. */
export function scoreText() {
  const result = state.result;
  if (!result || !result.hands.length) return '';
  const lines = [t('pedro.text.head', { title: t('pedro.title'), target: rules().target })];
  for (const row of rankingRows(result)) lines.push(t('pedro.text.team', { mark: row.winner ? '★ ' : '', team: row.name, score: row.total }));
  result.hands.forEach((hand, k) => {
    const change = (team) => `${hand.deltas[team] >= 0 ? '+' : ''}${hand.deltas[team]}`;
    lines.push(t('pedro.text.hand', {
      n: k + 1, team: hand.bid.team, amount: hand.bid.amount, made: hand.bid_made ? t('pedro.made') : t('pedro.set'),
      out: hand.bidder_goes_out ? t('pedro.text.out') : '',
      ns: hand.scores_after.NS, ew: hand.scores_after.EW, dns: change('NS'), dew: change('EW'),
    }));
  });
  if (result.winner) lines.push(winnerText([result.winner], result.scores[result.winner], { teams: true }));
  return lines.join('\n');
}

// -- Asking the service -------------------------------------------------------------------

/** The hand as the API wants it, from the entry form (its bid chosen, no points box blank:
 * submit() asks first). */
function handFromEntry() {
  const { entry } = state;
  const bid = { team: entry.team, amount: entry.amount };
  if (entry.mode === 'points') {
    const points = (team) => toInt(String(entry.points[team]).trim());
    return { bid, points: { NS: points('NS'), EW: points('EW') } };
  }
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

/** Where a refusal belongs on the form and the name of the box it is about. */
function placeOf(path, newIndex) {
  const [head, index, field, sub] = pathParts(path);
  if (head === 'rules') {
    const rule = RULES.find((r) => r.key === index);
    return rule ? { slot: `rule-${index}`, box: t(`pedro.rule.${index}`) } : { slot: 'rules', box: t('pedro.settings') };
  }
  if (head === 'hands' && typeof index === 'number' && index === newIndex) {
    if (field === 'bid') return { slot: 'bid', box: sub === 'amount' ? t('pedro.bidAmount') : sub === 'team' ? t('pedro.bidTeam') : t('pedro.bid') };
    if (field === 'points') return { slot: 'points', box: TEAMS.includes(sub) ? t('pedro.pointsOf', { team: sub }) : t('pedro.pointsBoxes') };
    if (field === 'trump') return { slot: 'cards', box: t('pedro.trump') };
    if (field === 'captured') return { slot: 'cards', box: t('pedro.tickCaption') };
    if (field === 'two_dealt_to' || field === 'two_played_by') return { slot: 'cards', box: t('pedro.twoBox') };
    return { slot: 'entry', box: null };
  }
  if (head === 'hands' && typeof index === 'number') return { slot: null, box: t('pedro.handN', { n: index + 1 }) };
  return { slot: null, box: null };
}

/**
 * The refusal for people: each reason at its box, named ("NSの点: ..."), in the form's
 * language; refusals whose server sentence names JSON fields are said in the form's words.
 */
function placeRefusal(error, newIndex) {
  const bySlot = {};
  const rest = [];
  const own = OWN_WORDS[error?.code];
  const validation = error?.code === 'invalid_input';
  for (const [path, reasons] of Object.entries(error?.details || {})) {
    const { slot, box } = placeOf(path, newIndex);
    const list = (Array.isArray(reasons) ? reasons : [String(reasons)]).map((reason) => {
      const text = own ? t(own, { rule: t(`pedro.two.${rules().two_scored_by}`) }) : reason;
      return box && (validation || slot === null) ? t('pedro.errAt', { box, reason: text }) : text;
    });
    if (slot) (bySlot[slot] ||= []).push(...list); else rest.push(...list);
  }
  const message = error?.code === 'invalid_input' || !error?.message ? t('pedro.err.invalid') : error.message;
  return { bySlot, rest, message };
}

/** Ask the service for the game with `newHand` appended (not recorded unless accepted).
 * After a person's action the answer comes into view: `reveal` 'answer' (the scoreboard or
 * the refusal), 'errors' (a refusal only); by default (a reload, the language) nothing moves.
 * One question at a time, in order: a hand recorded while the one before is still on its
 * way is sent after it, with it. */
function recompute(newHand, reveal = null) {
  const editsAtSend = edits;
  const run = () => ask(newHand, reveal, editsAtSend);
  queue = queue.then(run, run);
  return queue;
}

async function ask(newHand, reveal, editsAtSend) {
  const hands = newHand ? [...state.hands, newHand] : state.hands;
  const answer = await post('pedro/game', { rules: state.rules, hands }, undefined, { stale: !newHand }); // offline, a new hand waits in its entry
  if (newHand) adding -= 1;
  if (answer.ok) {
    state.result = answer.data;
    state.placed = null;
    if (newHand) {
      state.hands.push(newHand);
      if (edits === editsAtSend) state.entry = newEntry(state.entry); // else the next hand is already being entered
    }
    save();
    render(newHand ? 'pedro-add' : undefined);
  } else {
    state.placed = placeRefusal(answer.error, state.hands.length);
    if (Object.keys(state.placed.bySlot).some((slot) => slot.startsWith('rule'))) state.settingsOpen = true;
    render();
  }
  if (reveal) revealAnswer(reveal === 'answer');
}

/** After the render (held back while a finger is down), focus and scroll to the answer:
 * the first refusal, else (after an action) the scoreboard. */
function revealAnswer(always) {
  whenRendered(() => {
    const error = [...document.querySelectorAll('#panel-pedro .field-error, #panel-pedro .error-box')].find((el) => el.isConnected);
    if (error) { if (!error.id) error.id = 'pedro-error-first'; showAnswer(error); return; }
    if (always) showAnswer(document.getElementById('pedro-status'));
  });
}

/** Record the hand being entered; with no bid amount, or a blank points box, nothing is
 * sent: the form asks for what is missing (and offers the remaining points) instead. */
function submit() {
  const { entry } = state;
  const noBid = entry.amount === null;
  const need = entry.mode === 'points' ? pointsNeed() : null;
  if (noBid || need) {
    state.bidAsked = noBid;
    state.question = Boolean(need);
    state.placed = null;
    render();
    whenRendered(() => showAnswer(document.getElementById(noBid ? 'pedro-bid-question' : 'pedro-points-question')));
    return;
  }
  state.question = false;
  state.bidAsked = false;
  if (adding && edits === addedAt) return; // a second tap on the same hand while it is on its way
  adding += 1;
  addedAt = edits;
  recompute(handFromEntry(), 'answer');
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

/** Radio buttons as big segments: each label holds its input, so the whole box is the target. */
function segments(name, legend, options, current, onPick, testid) {
  return h('fieldset', { class: 'choice segments', testid },
    h('legend', null, legend),
    options.map(([value, label]) => {
      const id = `${name}-${value}`;
      return h('label', { class: 'segment', for: id },
        h('input', { type: 'radio', name, id, value, testid: id, checked: current === value, onchange: () => onPick(value) }),
        h('span', null, label));
    }));
}

/** What the points boxes still need, said under them: with one box blank, the remaining
 * points offered as a one-tap answer (or what is needed); with both blank, once 記録 was
 * tapped, that both are needed. Drawn in a live region that stays in place. */
function pointsQuestion() {
  const need = pointsNeed();
  const box = (team) => t('pedro.pointsOf', { team });
  let says = null;
  if (need?.both) {
    if (state.question) says = t('pedro.askPoints', { ns: box('NS'), ew: box('EW') });
  } else if (need && need.offer !== null) {
    const points = need.offer;
    says = [h('span', { id: 'pedro-points-offer' }, tn('pedro.offer', points, { team: need.missing, points })), ' ',
      h('button', { type: 'button', class: 'small', id: 'pedro-points-fill', testid: 'pedro-points-fill', 'data-points': String(points),
        'aria-describedby': 'pedro-points-offer', onclick: () => { state.entry.points[need.missing] = String(points); touched(); render(); submit(); } },
      tn('pedro.offerYes', points, { points }))];
  } else if (need) {
    says = `${need.range ? t('pedro.pointsRange', { box: box(need.given), total: rules().points }) : ''}${t('pedro.needOther', { box: box(need.missing) })}`;
  }
  return h('div', { class: 'points-question', role: 'status' },
    says ? h('p', { class: state.question ? 'offer field-error' : 'offer', id: 'pedro-points-question', testid: 'pedro-points-question' }, says) : null);
}

function pointsInputs() {
  const { entry } = state;
  return h('div', null,
    h('div', { class: 'row end' }, TEAMS.map((team) => h('span', { class: 'field' },
      h('label', { for: `pedro-points-${team}` }, t('pedro.pointsOf', { team })),
      h('input', { id: `pedro-points-${team}`, testid: `pedro-points-${team}`, type: 'number', inputmode: 'numeric', min: 0, max: rules().points,
        class: 'num-input', value: entry.points[team], 'aria-describedby': pointsAsked(pointsNeed()) ? 'pedro-points-question' : null,
        oninput: (e) => { entry.points[team] = e.target.value; touched(); render(); } })))),
    pointsQuestion(),
    slotError('points', 'pedro-points-error'));
}

function cardTicks() {
  const { entry } = state;
  const r = rules();
  const rule = r.two_scored_by;
  const rows = POINT_CARDS.map((pc) => {
    const card = pc.key === 'two' ? `2${entry.trump}` : cardOf(pc, entry.trump);
    const name = ['pedro', 'low'].includes(pc.key) ? t(`pedro.card.${pc.key}`) : '';
    const who = pc.key === 'two' ? t('pedro.cardWho', { who: t(`pedro.two.${rule}`) }) : '';
    const head = `pedro-card-${pc.key}-name`;
    return h('div', { class: 'tick-row', role: 'radiogroup', 'aria-labelledby': head, testid: `pedro-card-${pc.key}` },
      h('span', { class: 'tick-card', id: head },
        h('span', { class: `suit s-${card.slice(-1)}` }, cardLabel(card)), ' ', h('small', null, `${name}${t('pedro.cardPoints', { n: pointsOf(pc, r) })}${who}`)),
      ['NS', 'EW', ''].map((team) => {
        const id = `pedro-card-${pc.key}-${team || 'none'}`;
        return h('label', { class: 'segment tick', for: id },
          h('input', { type: 'radio', name: `pedro-card-${pc.key}`, id, testid: id, checked: (entry.cards[pc.key] || '') === team,
            onchange: () => { entry.cards[pc.key] = team; touched(); } }),
          h('span', null, team || t('pedro.nobody')));
      }));
  });
  return h('div', null,
    h('div', { class: 'row' },
      h('label', { for: 'pedro-trump' }, t('pedro.trump')),
      h('select', { id: 'pedro-trump', testid: 'pedro-trump', value: entry.trump, onchange: (e) => { entry.trump = e.target.value; touched(); render(); } },
        Object.entries(SUITS).map(([suit, symbol]) => h('option', { value: suit }, `${symbol} ${t(`pedro.suit.${suit}`)}`)))),
    h('div', { class: 'ticks', role: 'group', 'aria-labelledby': 'pedro-ticks-caption' },
      h('p', { class: 'sub-head', id: 'pedro-ticks-caption' }, t('pedro.tickCaption')),
      rows),
    slotError('cards', 'pedro-cards-error'));
}

/** The hand's bid amount: one tap on the amount, from the rules' min_bid to max_bid. */
function bidButtons(r) {
  const { entry } = state;
  const amounts = [];
  for (let a = r.min_bid; a <= r.max_bid; a += 1) amounts.push(a);
  const asked = state.bidAsked && entry.amount === null;
  const group = h('fieldset', { class: 'choice bids', testid: 'pedro-amount', 'aria-describedby': asked ? 'pedro-bid-question' : null },
    h('legend', null, t('pedro.bidAmount')),
    amounts.map((a) => {
      const id = `pedro-bid-${a}`;
      // the test id on the label, the button a finger taps (its radio is hidden)
      return h('label', { class: 'segment bid', for: id, testid: id },
        h('input', { type: 'radio', name: 'pedro-bid', id, value: String(a), checked: entry.amount === a,
          onchange: () => { entry.amount = a; state.bidAsked = false; touched(); render(); } }),
        h('span', null, String(a)));
    }));
  group.style.setProperty('--cols', String(amounts.length > 6 ? Math.ceil(amounts.length / 2) : amounts.length));
  group.style.setProperty('--n', String(amounts.length));
  return [group, asked ? h('p', { class: 'field-error', id: 'pedro-bid-question', testid: 'pedro-bid-question' }, t('pedro.askBid')) : null];
}

const undoButton = () => h('button', { type: 'button', class: 'secondary small', id: 'pedro-undo', testid: 'pedro-undo',
  onclick: () => { state.open.delete(state.hands.length - 1); state.hands.pop(); save(); recompute(undefined, 'answer'); } }, t('pedro.undo'));

function entryForm() {
  const { entry } = state;
  const r = rules();
  if (state.result?.winner) { // the game is done: its entry collapses to what may follow
    return h('div', { class: 'row game-over no-print', testid: 'pedro-entry' },
      h('p', { class: 'hint', testid: 'pedro-game-over' }, t('pedro.gameOver')), undoButton());
  }
  // novalidate: the service's refusals, in the form's language and naming the box, not the browser's bubbles
  return h('form', { class: 'card-box no-print', testid: 'pedro-entry', novalidate: true, onsubmit: (e) => { e.preventDefault(); submit(); } },
    h('h3', null, t('pedro.handN', { n: state.hands.length + 1 })),
    segments('pedro-team', t('pedro.bidTeam'), TEAMS.map((team) => [team, team]), entry.team, (v) => { entry.team = v; touched(); }, 'pedro-team'),
    bidButtons(r),
    slotError('bid', 'pedro-bid-error'),
    segments('pedro-mode', t('pedro.mode'), [['points', t('pedro.modePoints')], ['cards', t('pedro.modeCards')]], entry.mode,
      (v) => { entry.mode = v; state.question = false; touched(); render(); }, 'pedro-mode'),
    entry.mode === 'points' ? pointsInputs() : cardTicks(),
    slotError('entry', 'pedro-entry-error'),
    h('div', { class: 'row' }, h('button', { type: 'submit', id: 'pedro-add', testid: 'pedro-add' }, t('pedro.addHand')),
      state.hands.length ? undoButton() : null));
}

function ledger() {
  const hands = state.result?.hands || [];
  if (!hands.length) return h('p', { class: 'hint' }, t('pedro.noHands'));
  return ledgerTable(hands, 'pedro', { open: state.open, onToggle: (k, shown) => { if (shown) state.open.add(k); else state.open.delete(k); } });
}

/**
 * The ledger of a game's hands, the newest first, one line each: the hand's number, the bid
 * (team, amount, made or set), each team's change and score; a tap on the line (or on its
 * number, a disclosure button) shows the hand's explanation under it. `prefix` starts the
 * test ids (the chat and the MCP Apps view show the same table under their own); `open`
 * (a Set of hand indexes) the lines shown open, and `onToggle(k, shown)` hears each tap.
 */
export function ledgerTable(hands, prefix = 'pedro', { open = null, onToggle = null } = {}) {
  const toggle = (k) => (e) => {
    const body = e.currentTarget.closest('tbody');
    const row = body.querySelector('.expl-row');
    const shown = row.hidden;
    row.hidden = !shown;
    body.querySelector('.ledger-toggle').setAttribute('aria-expanded', String(shown));
    onToggle?.(k, shown);
  };
  const sign = (n) => `${n >= 0 ? '+' : ''}${n}`;
  return h('table', { class: 'ledger', testid: `${prefix}-ledger` },
    h('caption', null, t('pedro.ledger'), h('small', null, t('pedro.newestFirst'))),
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, t('pedro.bid')), h('th', { scope: 'col', class: 'num' }, 'NS'), h('th', { scope: 'col', class: 'num' }, 'EW'))),
    hands.map((hand, k) => {
      const shown = Boolean(open?.has(k));
      const explId = `${prefix}-expl-${k}`;
      return h('tbody', { testid: `${prefix}-ledger-row-${k}` },
        h('tr', { class: 'line', onclick: toggle(k) },
          h('th', { scope: 'row' },
            h('button', { type: 'button', class: 'ledger-toggle', testid: `${prefix}-ledger-toggle-${k}`, 'aria-expanded': String(shown), 'aria-controls': explId,
              'aria-label': t('pedro.handN', { n: k + 1 }) }, h('span', { class: 'chev', 'aria-hidden': 'true' }, '▸'), String(k + 1)),
            h('span', { class: 'print-only' }, String(k + 1))),
          h('td', { class: 'bid-cell' }, `${hand.bid.team} ${hand.bid.amount} `, h('span', { class: hand.bid_made ? 'made' : 'set' }, hand.bid_made ? t('pedro.made') : t('pedro.set'))),
          TEAMS.map((team) => h('td', { class: 'num', testid: `${prefix}-ledger-${k}-${team}` },
            h('small', null, `${sign(hand.deltas[team])} → `), h('strong', null, String(hand.scores_after[team]))))),
        // the hand that bidder goes out decides: said under its line, which stays one line
        hand.bidder_goes_out ? h('tr', { class: 'badge-row' }, h('td', { colspan: 4 }, h('span', { class: 'badge' }, t('pedro.bidderOutHand')))) : null,
        h('tr', { class: 'expl-row', id: explId, testid: `${prefix}-ledger-expl-${k}`, hidden: !shown },
          h('td', { colspan: 4 }, h('div', { class: 'expl' }, hand.explanation))));
    }).reverse());
}

/** Both teams by score, highest first (NS first on a tie), ★ on the winner. */
function rankingRows(result) {
  return [...TEAMS].sort((a, b) => result.scores[b] - result.scores[a])
    .map((team) => ({ name: team, total: result.scores[team], winner: result.winner === team }));
}

function status() {
  const result = state.result;
  if (!result && state.placed) return null; // the refusal says why there is no scoreboard
  const r = rules();
  // Until the first answer the same board stands with blank scores, so nothing below it moves.
  const rows = result ? rankingRows(result) : TEAMS.map((team) => ({ name: team, total: '—', winner: false }));
  const strip = rankingStrip(rows, 'pedro-ranking');
  strip.setAttribute('aria-label', t('pedro.scores'));
  strip.querySelectorAll('.rank-total').forEach((el, k) => { el.dataset.testid = `pedro-score-${rows[k].name}`; });
  return h('div', { class: 'scoreboard', id: 'pedro-status', testid: 'pedro-status', tabindex: -1 },
    h('div', { class: 'score-head' }, strip,
      state.hands.length ? h('button', { type: 'button', class: 'secondary small no-print', id: 'pedro-new-game', testid: 'pedro-new-game',
        onclick: newGame }, t('pedro.newGame')) : null),
    h('p', { class: 'target', testid: 'pedro-target' }, t('pedro.target', { target: r.target })),
    !result ? h('p', { class: 'explanation' }, t('app.loading')) : null,
    result?.winner ? winnerLine([result.winner], result.scores[result.winner], 'pedro-winner', { teams: true }) : null,
    result?.next_hand === 'bidder_goes_out' ? h('p', { class: 'warning', testid: 'pedro-warning' }, '⚠ ', t('pedro.warnBidderOut', { margin: r.bidder_out_margin ?? 7 })) : null,
    result?.next_hand === 'extra_hand' ? h('p', { class: 'warning', testid: 'pedro-warning' }, '⚠ ', t('pedro.warnExtraHand')) : null,
    result ? h('p', { class: 'explanation', testid: 'pedro-explanation' }, result.explanation) : null);
}

/** A new game after a confirm: every hand cleared, the rules kept. */
function newGame() {
  if (!window.confirm(t('pedro.confirmNew'))) return;
  state.hands = [];
  state.open = new Set();
  state.entry = newEntry(state.entry);
  state.question = false;
  state.bidAsked = false;
  save();
  recompute(undefined, 'answer');
}

function settings() {
  const r = rules();
  return h('details', { class: 'card-box settings no-print', testid: 'pedro-settings', open: state.settingsOpen, ontoggle: (e) => { state.settingsOpen = e.target.open; } },
    h('summary', null, t('pedro.settings')),
    h('div', { class: 'settings-grid' }, RULES.map((rule) => {
      const id = `pedro-rule-${rule.key}`;
      const onchange = (e) => {
        const value = rule.options ? e.target.value : toInt(e.target.value);
        if (value === null) delete state.rules[rule.key]; else state.rules[rule.key] = value;
        const { entry } = state; // a bid the new rules no longer offer falls back to their lowest
        const now = rules();
        if (entry.amount !== null && (entry.amount < now.min_bid || entry.amount > now.max_bid)) entry.amount = null;
        save();
        recompute(undefined, 'errors');
      };
      const input = rule.options
        ? h('select', { id, testid: id, value: String(r[rule.key] ?? rule.options[0]), onchange }, rule.options.map((o) => h('option', { value: o }, t(`pedro.rule.${rule.key}.${o}`))))
        : h('input', { id, testid: id, type: 'number', inputmode: 'numeric', min: rule.min, max: rule.max, class: 'num-input', value: r[rule.key] ?? '', onchange });
      return h('div', { class: rule.options || rule.wide ? 'field wide' : 'field' }, h('label', { for: id }, t(`pedro.rule.${rule.key}`)), input, slotError(`rule-${rule.key}`, `${id}-error`));
    })),
    slotError('rules', 'pedro-rules-error'),
    h('button', { type: 'button', class: 'secondary small', id: 'pedro-rules-reset', testid: 'pedro-rules-reset',
      onclick: () => { state.rules = {}; save(); recompute(undefined, 'answer'); } }, t('pedro.rulesReset')));
}

export function render(focusFallback) {
  if (!root) return;
  patch(top, [h('h2', null, t('pedro.title')), h('p', { class: 'hint no-print' }, t('pedro.intro')), settings()], focusFallback);
  patch(live, [status(), errorBox(state.placed, 'pedro-error'),
    state.result || !state.placed ? null : h('button', { type: 'button', class: 'secondary', id: 'pedro-retry', testid: 'pedro-retry',
      onclick: () => recompute(undefined, 'answer') }, t('pedro.retry'))]);
  patch(root, [
    entryForm(),
    h('section', { class: 'card-box', 'aria-label': t('pedro.ledger') }, ledger()),
  ], focusFallback || (state.result?.winner ? 'pedro-undo' : 'pedro-add'));
}

export function refresh() { recompute(); }

export function mount(panel) {
  top = h('div');
  live = h('div', { 'aria-live': 'polite' });
  root = h('div');
  panel.replaceChildren(top, live, root);
  apply(kept('pedro', legacy) || {});
  render();
  recompute();
}

/** The last game shown (POST pedro/game's answer), or null: record.js keeps it in BG Stats. */
export function lastResult() { return state.result; }
