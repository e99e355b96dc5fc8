// The service's last answers, kept with the requests they answered, so that the scoreboard
// is never empty offline. Plugged into api.js (main.js imports this module): every answer is
// remembered (per endpoint, a few requests each, in localStorage through store.js), and a
// call that gets no answer at all (offline, or the service unreachable) is answered from
// here: the answer to the same request (exact: the same request gets the same answer), else,
// for a scoring call (POST), the endpoint's last answer, "stale": from before the connection
// dropped, the entries changed since. Each game's panel then says so in a note before its
// results (keptNote), until the service answers again.

import { keepAnswers } from './api.js';
import { t } from './i18n.js';
import { keep, kept } from './store.js';

/** Requests kept per endpoint: the last ones, so that undoing a change offline finds its answer. */
const PER_ENDPOINT = 3;
/** An answer longer than this (characters of JSON) is not kept: localStorage holds ~5 MB in all. */
const MAX_CHARS = 200_000;

const games = new Map(); // game -> {path: [{request, lang, data}, newest first]}, read once
const state = new Map(); // path -> 'network' | 'same' | 'stale': where its last shown answer came from
const listeners = new Set();

/** The game of an API path: 'apero/score' -> 'apero'. */
const gameOf = (path) => String(path).split('/')[0];
const storeName = (game) => `answers.${game}`;

function answersOf(game) {
  if (!games.has(game)) {
    const saved = kept(storeName(game));
    games.set(game, saved && typeof saved === 'object' ? saved : {});
  }
  return games.get(game);
}

function mark(path, how) {
  if (state.get(path) === how) return;
  state.set(path, how);
  for (const listener of listeners) listener(gameOf(path));
}

/** The service answered `request` (a string) at `path` in `lang`: kept, newest first. */
export function remember(path, request, lang, data) {
  mark(path, 'network');
  const game = gameOf(path);
  const all = answersOf(game);
  const entry = { request, lang, data };
  if (JSON.stringify(entry).length > MAX_CHARS) return;
  const others = (Array.isArray(all[path]) ? all[path] : []).filter((e) => e.request !== request || e.lang !== lang);
  all[path] = [entry, ...others].slice(0, PER_ENDPOINT);
  keep(storeName(game), all);
}

/**
 * The kept answer for a call that got none: {data, stale}, or null. The same request's
 * answer (in `lang` if kept, else in the other language: the same figures); else, when
 * `stale` is allowed (scoring calls), the endpoint's last answer, marked stale.
 */
export function recall(path, request, lang, stale) {
  const list = answersOf(gameOf(path))[path];
  if (!Array.isArray(list) || !list.length) return null;
  const same = list.find((e) => e.request === request && e.lang === lang) || list.find((e) => e.request === request);
  if (same) { mark(path, 'same'); return { data: same.data, stale: false }; }
  if (!stale) return null;
  mark(path, 'stale');
  return { data: list[0].data, stale: true };
}

/** Whether `game` shows an answer from before the connection dropped, for entries changed since. */
export function isStale(game) {
  for (const [path, how] of state) if (how === 'stale' && gameOf(path) === game) return true;
  return false;
}

/** Call `listener(game)` whenever where a game's answers come from changes. */
export function onAnswers(listener) {
  listeners.add(listener);
}

/**
 * The note of `game`'s panel, just before its results (its first live region): empty while
 * the answer shown is the service's (or the kept answer to the same entries); while it is
 * stale, it says so, and the panel carries data-answers="stale" (the totals bar shows a
 * short label, app.css). {redraw} redraws it in the current language.
 */
export function keptNote(panel, game) {
  const note = document.createElement('p');
  note.className = 'kept-note';
  note.setAttribute('role', 'status');
  note.dataset.testid = `${game}-kept-note`;
  const results = panel.querySelector('[aria-live]');
  if (results) results.before(note); else panel.prepend(note);
  const redraw = () => {
    const stale = isStale(game);
    note.textContent = stale ? t('offline.stale') : '';
    if (stale) panel.dataset.answers = 'stale'; else delete panel.dataset.answers;
    panel.style.setProperty('--stale-label', JSON.stringify(t('offline.staleShort')));
  };
  onAnswers((changed) => { if (changed === game) redraw(); });
  redraw();
  return { redraw };
}

keepAnswers({ remember, recall });
