// The result card of every scoring tool: one table from a tool's name to what draws its
// answer, for the chat panel (chat.js) and the MCP Apps view (mcp-app.js), so a score looks
// the same wherever it is shown. A tool the form draws an answer for gets the form's own
// renderer (apero.js resultCards and pickOptions, applejack.js resultCard and placementView,
// fairy-black-box.js resultCard, pedro.js ledgerTable); the others get a small card built
// from the answer, its labels in text/chat.js ('card.*') in the rules' own terms
// (docs/rules/applejack.md, fairy-black-box.md, pedro.md).

import { errorBox, placeErrors } from './api.js';
import { pickOptions, resultCards as aperoCards } from './apero.js';
import { placementView, resultCard as applejackCard } from './applejack.js';
import { h } from './dom.js';
import { resultCard as fairyBlackBoxCard } from './fairy-black-box.js';
import { t } from './i18n.js';
import { ledgerTable } from './pedro.js';

const SUITS = { H: '♥', D: '♦', C: '♣', S: '♠' };

const explanationOf = (result) => (result.explanation ? h('p', { class: 'explanation' }, result.explanation) : null);
const yesNo = (value) => t(value ? 'card.yes' : 'card.no');
/** A Pedro card as players read it: 10H -> 10♥. */
const pedroCard = (card) => String(card).replace(/[HDCS]$/, (suit) => SUITS[suit]);

/**
 * A small card for an answer the form has no card for: a headline, rows of [key, label,
 * value] (each value's test id `<prefix>-<key>`) and the service's explanation.
 */
function summaryCard(prefix, headline, rows, explanation) {
  return h('div', { class: 'card-box result', testid: `${prefix}-result` },
    h('p', { class: 'big', testid: `${prefix}-headline` }, headline),
    rows.length ? h('table', { class: 'score-table' }, h('tbody', null, rows.map(([key, label, value]) => h('tr', null,
      h('th', { scope: 'row' }, label), h('td', { class: 'num', testid: `${prefix}-${key}` }, String(value)))))) : null,
    explanation);
}

/** Every scoring tool's card: (answer, the call's arguments, test-id prefix) -> nodes. */
const CARDS = {
  score_apero: (result, args, prefix) => aperoCards(result, (k) => k, prefix),
  apero_pick: (result, args, prefix) => [pickOptions(result, prefix), explanationOf(result)],
  applejack_harvest: (result, args, prefix) => applejackCard('harvest', result, prefix),
  applejack_placement: (result, args, prefix) => placementView(result, result.field, prefix),
  applejack_blossoms: (result, args, prefix) => applejackCard('blossoms', result, prefix),
  applejack_final_score: (result, args, prefix) => applejackCard('final', result, prefix),
  applejack_starting_honey: (result, args, prefix) => summaryCard(prefix, t('card.startingHoney', { players: result.players }),
    result.honey.map((honey, k) => [`honey-${k}`, t('card.seat', { n: k + 1 }), honey]), explanationOf(result)),
  applejack_placements: (result, args, prefix) => applejackCard('advice', result, prefix),
  score_fairy_black_box: (result, args, prefix) => fairyBlackBoxCard(result, (i) => args?.players?.[i]?.mood ?? null, prefix),
  fairy_black_box_setup: (result, args, prefix) => summaryCard(prefix,
    t('fairy-black-box.setup', { players: result.players, mood: result.starting_mood }), [
      ['star_cards', t('card.setup.starCards'), t('card.cards', { n: result.star_cards })],
      ['treasure_cards', t('card.setup.treasureCards'), t('card.cards', { n: result.treasure_cards })],
      ['set_aside_star_cards', t('card.setup.setAside'), t('card.cards', { n: result.set_aside_star_cards })],
      ['star_deck_runouts_to_end', t('card.setup.runouts'), t('card.times', { n: result.star_deck_runouts_to_end })],
      ['first_turn_names_opponent', t('card.setup.namesOpponent'), yesNo(result.first_turn_names_opponent)],
    ], explanationOf(result)),
  fairy_black_box_end_check: (result, args, prefix) => h('div', { class: 'card-box result', testid: `${prefix}-result` },
    h('p', { class: 'big', testid: `${prefix}-headline` }, t(result.last_turn ? 'card.endCheck.ends' : 'card.endCheck.continues')),
    h('ul', { class: 'explanations' }, result.checks.map((check) => h('li', { testid: `${prefix}-check-${check.condition}` },
      h('strong', null, t(`card.endCheck.${check.condition}`), ': ', t(check.met ? 'card.endCheck.met' : 'card.endCheck.notMet')),
      ' ', h('span', null, check.explanation))))),
  fairy_black_box_next_player: (result, args, prefix) => summaryCard(prefix,
    t('card.nextPlayer', { names: result.next_players.join(t('fairy-black-box.and')) }), [
      ['fewest_treasures', t('card.nextPlayer.fewest'), t('card.cards', { n: result.fewest_treasures })],
      ['rock_paper_scissors', t('card.nextPlayer.janken'), yesNo(result.rock_paper_scissors)],
    ], explanationOf(result)),
  pedro_auction: (result, args, prefix) => summaryCard(prefix,
    t('card.auction', { seat: result.seat, team: result.team, amount: result.amount }), [
      ...result.calls.map((call, k) => [`call-${k}`, call.seat, call.call === 'pass' ? t('card.auction.pass') : call.call]),
      ['forced', t('card.auction.forced'), yesNo(result.forced)],
    ], explanationOf(result)),
  pedro_trick: (result, args, prefix) => summaryCard(prefix,
    t('card.trick', { seat: result.winner, team: result.team, points: result.points }), [
      ...result.plays.map((play, k) => [`play-${k}`, play.seat, pedroCard(play.card)]),
      ['led_suit', t('card.trick.led'), `${SUITS[result.led_suit] ?? ''} ${t(`pedro.suit.${result.led_suit}`)}`],
      ['trumped', t('card.trick.trumped'), yesNo(result.trumped)],
      ['point_cards', t('card.trick.pointCards'), result.point_cards.map(pedroCard).join(' ') || t('card.none')],
    ], explanationOf(result)),
  pedro_hand: (result, args, prefix) => h('div', { class: 'card-box result' }, ledgerTable([result], prefix), explanationOf(result)),
  pedro_game: (result, args, prefix) => h('div', { class: 'card-box result' }, ledgerTable(result.hands, prefix), explanationOf(result)),
};

/** The tools that have a card. */
export const CARD_TOOLS = Object.keys(CARDS);

/**
 * The card of tool `name`'s answer `result`; `args` are the call's arguments (Fairy & Black
 * Box's moods are shown from them), `prefix` starts the test ids. A tool without a card of its
 * own shows the answer's explanation.
 */
export function toolCard(name, result, args, prefix) {
  const card = Object.hasOwn(CARDS, name) ? CARDS[name] : null;
  if (card) return card(result, args, prefix);
  return h('div', { class: 'card-box result', testid: `${prefix}-result` }, explanationOf(result));
}

/** A refused call (the service's error document): its message and every reason. */
export function errorCard(error, prefix) {
  return errorBox(placeErrors(error, () => null), `${prefix}-error`);
}

// Which tool answered, from the answer alone (for hosts that do not say): a key only that
// tool's answer has, checked in this order (pedro_hand has decided_by too, the Fairy & Black
// Box score has winners too, the final score has blossoms too).
const SHAPES = [
  ['pedro_game', 'hands'], ['pedro_hand', 'bid_made'], ['pedro_trick', 'plays'], ['pedro_auction', 'calls'],
  ['fairy_black_box_next_player', 'next_players'], ['fairy_black_box_end_check', 'last_turn'],
  ['fairy_black_box_setup', 'starting_mood'], ['score_fairy_black_box', 'decided_by'],
  ['applejack_final_score', 'final_harvest'], ['applejack_harvest', 'harvests'], ['applejack_placement', 'connections'],
  ['applejack_blossoms', 'times'], ['apero_pick', 'me'], ['applejack_placements', 'options'],
  ['score_apero', 'winners'], ['applejack_starting_honey', 'honey'],
];

/** The tool whose answer `result` is, or null. */
export function toolOf(result) {
  if (!result || typeof result !== 'object') return null;
  return SHAPES.find(([, key]) => Object.hasOwn(result, key))?.[0] ?? null;
}
