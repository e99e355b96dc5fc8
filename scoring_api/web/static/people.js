// How a game's sentences name its players, for the games whose texts say them so (Apero,
// Fairy & Black Box): 「アキさん」 but 「プレイヤー1」 (a placeholder name takes no さん), and
// several names joined as the language joins them. Each game's texts give `<game>.playerN`
// (the placeholder), `<game>.person` ('{name}さん' or '{name}'), `<game>.names.separator`
// and `<game>.names.last`.

import { t } from './i18n.js';

const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The naming of the game whose texts start with `game` (`apero`, `fairy-black-box`). */
export function peopleOf(game) {
  /** 「プレイヤー1」 as a pattern: the name the form gives a player left unnamed. */
  function placeholderPattern() {
    const [before, after = ''] = t(`${game}.playerN`, { n: '\u0000' }).split('\u0000');
    return `${escaped(before)}[0-9]+${escaped(after)}`;
  }

  /** A player as a sentence names them: 「アキさん」, but 「プレイヤー1」. */
  const person = (name) => (new RegExp(`^${placeholderPattern()}$`).test(name) ? name : t(`${game}.person`, { name }));

  /** The service's sentences put さん after every name: not after a placeholder. */
  function plainNames(text) {
    const honorific = t(`${game}.person`, { name: '' });
    if (!honorific || typeof text !== 'string') return text;
    return text.replace(new RegExp(`(${placeholderPattern()})${escaped(honorific)}`, 'g'), '$1');
  }

  /** 「アキさん」, 「アキさんとベンさん」, 「アキさん、ベンさんとカイさん」. */
  function namesText(names) {
    const people = names.map(person);
    if (people.length < 2) return people.join('');
    return t(`${game}.names.last`, { rest: people.slice(0, -1).join(t(`${game}.names.separator`)), last: people.at(-1) });
  }

  return { plainNames, namesText };
}
