// How the form names players, by the service's own rule (scoring_api/i18n.py, person()):
// 「アキさん」, but a placeholder name (「プレイヤー1」, "Player 2", "P3") or a name that
// already ends in an honorific (「ミカちゃん」, 「タナカ先生」) as it is; several names joined
// as the language joins them; and the one line that announces the winners of every game,
// 「★ アキさんの勝ち（34点）」, 「★ アキさんとベンさんの勝ち（34点）」, 「★ NSの勝ち（62点）」
// (a team takes no さん). Texts: text/app.js, 'people.*' and 'winner.*'.
// PLACEHOLDER and HONORIFICS are the service's own (tests/test_catalogue_words.py checks).

import { h } from './dom.js';
import { getLang, t } from './i18n.js';

/** A name the form gives a player left unnamed, or a caller's numbered stand-in. */
const PLACEHOLDER = /^(?:プレイヤー|Player ?|P)[0-9]+$/i;
/** Honorifics a name may already end in. */
const HONORIFICS = ['さん', 'ちゃん', 'くん', '君', '様', 'さま', '氏', '先生'];

/** A player as a sentence names them: 「アキさん」, but 「プレイヤー1」 and 「ミカちゃん」. */
export function person(name) {
  const plain = !name || PLACEHOLDER.test(name) || HONORIFICS.some((honorific) => name.endsWith(honorific));
  return plain ? name : t('people.person', { name });
}

/** Names joined as the language joins them: 「アキさん、ベンさんとカイさん」; `teams` as they are. */
export function namesText(names, { teams = false } = {}) {
  const people = teams ? names : names.map(person);
  if (people.length < 2) return people.join('');
  return t('people.last', { rest: people.slice(0, -1).join(t('people.separator')), last: people.at(-1) });
}

/** 「34点」, "1 point", "34 points": `n` a number or a whole number's decimal text. */
export const pointsText = (n) => t(`winner.points.${new Intl.PluralRules(getLang()).select(Number(n))}`, { n });

/** The line that announces the winners, in every game the same: 「★ アキさんの勝ち（34点）」,
 * 「★ アキさんとベンさんの勝ち（34点）」, "★ Aki and Ben share the win (34 points)". */
export function winnerText(names, points, { teams = false } = {}) {
  const key = names.length > 1 ? 'winner.shared' : 'winner.single';
  return `★ ${t(key, { names: namesText(names, { teams }), points: pointsText(points) })}`;
}

/** The winner line as the results show it (class winner; `testid` its test id). */
export function winnerLine(names, points, testid, options) {
  return h('p', { class: 'winner', testid }, winnerText(names, points, options));
}
