// Under each game's results, the play kept where players keep their plays: 「BG Statsに記録」,
// BG Stats' push link (its import dialog opens on a phone that has it), and
// 「ファイルで保存」, the same play as a BG Stats play file. Both come from the answer the
// game already shows (its module's lastResult()), built in the page (bgstats.js); nothing
// is sent to or kept on the server. main.js adds the bar to every game that offers one.
//
// The bar never changes size: until there is a result, the link and the button are there,
// disabled, so nothing below them moves when one arrives.

import { RESULTS, fileName, play, playFile, pushLink } from './bgstats.js';
import { h } from './dom.js';
import { t } from './i18n.js';

/** Saves `aPlay` as a play file, through a download the page starts itself. */
function download(aPlay) {
  const blob = new Blob([`${JSON.stringify(playFile(aPlay), null, 2)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const anchor = h('a', { href: url, download: fileName(aPlay), hidden: true });
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * The bar of `game` (its id) in `panel`, above the share bar, kept up to date with
 * `module.lastResult()`: every change in the panel reads it again, and a new result makes
 * a new play (dated when it arrives). `bar.redraw()` follows the language.
 */
export function recordBar(panel, game, module) {
  const noneId = `${game}-bgstats-none`;
  const none = h('span', { class: 'sr-only', id: noneId });
  const link = h('a', { class: 'button-link', testid: `${game}-bgstats`, target: '_blank', rel: 'noopener' });
  const status = h('p', { class: 'hint record-status', role: 'status', testid: `${game}-bgstats-status` });
  const file = h('button', {
    type: 'button', class: 'secondary', testid: `${game}-bgstats-file`,
    onclick: () => {
      if (!current) return;
      download(current);
      status.textContent = t('record.saved', { file: fileName(current) });
    },
  });
  const hint = h('p', { class: 'hint' });
  const bar = h('section', { class: 'record-bar no-print', testid: `${game}-record` }, link, file, none, hint, status);
  let current = null; // the play of the result shown, or null
  let shown = null; // the result's players it was made from, as text

  function show() {
    if (current) {
      link.href = pushLink(current);
      for (const name of ['role', 'aria-disabled', 'aria-describedby']) link.removeAttribute(name);
      file.disabled = false;
      file.removeAttribute('aria-describedby');
    } else {
      link.removeAttribute('href');
      link.setAttribute('role', 'link');
      link.setAttribute('aria-disabled', 'true');
      link.setAttribute('aria-describedby', noneId);
      file.disabled = true;
      file.setAttribute('aria-describedby', noneId);
    }
  }

  function update() {
    const rows = RESULTS[game](module.lastResult());
    const text = rows ? JSON.stringify(rows) : '';
    if (text === shown) return;
    shown = text;
    current = rows ? play(game, rows) : null;
    status.textContent = '';
    show();
  }

  bar.redraw = () => {
    bar.setAttribute('aria-label', t('record.title'));
    link.textContent = t('record.bgstats');
    file.textContent = t('record.file');
    none.textContent = t('record.none');
    hint.textContent = t('record.hint');
    status.textContent = '';
  };
  bar.redraw();
  update();
  // A result arrives by a render: the panel's content changes (its attributes are left out,
  // so the bar's own link and button do not wake it).
  new MutationObserver(update).observe(panel, { childList: true, characterData: true, subtree: true });
  const share = panel.querySelector(':scope > .share-bar');
  if (share) share.before(bar);
  else panel.append(bar);
  return bar;
}
