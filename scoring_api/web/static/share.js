// The share bar under each game: a link holding the table's inputs (navigator.share on a
// phone, else the clipboard), the scoreboard as text to paste into a chat, and printing.
// A game offers `snapshot()` (its inputs) and `scoreText()` (its scoreboard, '' if none).

import { h, rerender } from './dom.js';
import { t } from './i18n.js';
import { shareLink } from './store.js';

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch { return false; }
}

/** The bar for `game` (its id) and `module` (snapshot, scoreText). */
export function shareBar(game, module) {
  const status = h('div', { class: 'share-status', 'aria-live': 'polite', testid: `${game}-share-status` });
  const say = (message, text) => rerender(status, [
    h('p', { class: 'hint' }, message),
    text ? h('textarea', { readonly: true, rows: text.includes('\n') ? 4 : 2, class: 'share-text', testid: `${game}-share-text`,
      'aria-label': t('share.linkLabel') }, text) : null,
  ]);
  const bar = h('section', { class: 'share-bar no-print', testid: `${game}-share`, 'aria-label': t('share.title') });
  const draw = () => rerender(bar, [
    h('button', { type: 'button', class: 'secondary small', testid: `${game}-share-link`, onclick: async () => {
      const link = shareLink(game, module.snapshot());
      if (navigator.share && matchMedia('(pointer: coarse)').matches) {
        try { await navigator.share({ title: document.title, url: link }); return; } catch { /* cancelled: show it */ }
      }
      say(`${t('share.linkReady')} ${(await copy(link)) ? t('share.copied') : t('share.copyByHand')}`, link);
    } }, t('share.link')),
    h('button', { type: 'button', class: 'secondary small', testid: `${game}-share-copy`, onclick: async () => {
      const text = module.scoreText();
      if (!text) { say(t('share.noResult')); return; }
      say((await copy(text)) ? t('share.copied') : t('share.copyByHand'), text);
    } }, t('share.copyText')),
    h('button', { type: 'button', class: 'secondary small', testid: `${game}-share-print`, onclick: () => window.print() }, t('share.print')),
    status,
  ]);
  draw();
  bar.redraw = draw; // the language changed
  return bar;
}
