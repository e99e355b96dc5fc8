// Every UI text in both languages, one file per game under text/. Japanese is the
// default; the choice is remembered in localStorage. The service's own explanations come
// back in the same language because api.js passes ?lang= on every call.

import app from './text/app.js';
import apero from './text/apero.js';
import applejack from './text/applejack.js';
import chat from './text/chat.js';
import fairyBlackBox from './text/fairy-black-box.js';
import pedro from './text/pedro.js';

const STORE = 'scoring.lang';
export const LANGS = ['ja', 'en'];

const TEXT = { ja: {}, en: {} };
for (const part of [app, apero, applejack, chat, fairyBlackBox, pedro]) {
  Object.assign(TEXT.ja, part.ja);
  Object.assign(TEXT.en, part.en);
}

let current = (() => {
  try {
    const saved = localStorage.getItem(STORE);
    return LANGS.includes(saved) ? saved : 'ja';
  } catch { return 'ja'; }
})();

export const getLang = () => current;

export function setLang(lang) {
  if (!LANGS.includes(lang)) return;
  current = lang;
  try { localStorage.setItem(STORE, lang); } catch { /* private mode: not remembered */ }
}

/** The text for `key` in the current language, with {name} placeholders filled. */
export function t(key, params = {}) {
  const text = TEXT[current][key] ?? TEXT.ja[key] ?? key.split('.').pop();
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Fill the page's static texts: [data-i18n] text, [data-i18n-aria] aria-label, <html lang>. */
export function applyStatic(root = document) {
  document.documentElement.lang = current;
  root.querySelectorAll('[data-i18n]').forEach((el) => { el.textContent = t(el.dataset.i18n); });
  root.querySelectorAll('[data-i18n-aria]').forEach((el) => { el.setAttribute('aria-label', t(el.dataset.i18nAria)); });
}
