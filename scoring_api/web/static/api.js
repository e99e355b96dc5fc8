// The REST API client: every call passes ?lang= so explanations come back in the UI's
// language, and every failure (400 details, 5xx, offline) becomes one error object. On the
// form every answer is kept (answers.js plugs itself in): a call that gets no answer at all
// (offline) is answered with the kept one, so the scoreboard is never empty.

import { h } from './dom.js';
import { getLang, t } from './i18n.js';

// Where answers are kept: answers.js on the form; none where the cards are drawn alone (the
// MCP Apps view, which imports this module for its error boxes).
let keeper = null;

/** Keep every answer with `k.remember(path, request, lang, data)`; answer a call that gets
 * none with `k.recall(path, request, lang, staleAllowed)` -> {data, stale} or null. */
export function keepAnswers(k) { keeper = k; }

/**
 * Call `/api/v1/<path>`; resolves to {ok: true, data} or {ok: false, error: {code, message,
 * details}} and never throws, so the form can always show what happened. `signal` (an
 * AbortController's) cancels the call: it then resolves to the error `aborted`.
 *
 * Without a connection, the answer kept for the same request resolves {ok: true, data,
 * kept: 'same'}; failing that, a scoring call (POST) gets its endpoint's last answer,
 * {ok: true, data, kept: 'stale'} (the panel says it is from before the connection dropped),
 * unless `options.stale` is false: then the error `offline`, as with nothing kept.
 */
export async function api(method, path, body, params = {}, signal = undefined, options = {}) {
  const lang = getLang();
  const url = new URL(`api/v1/${path}`, document.baseURI);
  url.searchParams.set('lang', lang);
  const request = JSON.stringify([method, Object.entries(params).map(([k, v]) => [k, String(v)]).sort(), body ?? null]);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  const init = { method, headers: { Accept: 'application/json' }, signal };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch {
    if (signal?.aborted) return aborted();
    const kept = keeper?.recall(path, request, lang, method === 'POST' && options.stale !== false);
    if (kept) return { ok: true, data: kept.data, kept: kept.stale ? 'stale' : 'same' };
    // No answer at all: offline (the service worker never answers API calls), or the service is unreachable.
    if (navigator.onLine === false) return { ok: false, error: { code: 'offline', message: t('error.offline'), details: {} } };
    return { ok: false, error: { code: 'network', message: t('error.network'), details: {} } };
  }
  let data = null;
  try { data = await response.json(); } catch { /* not JSON */ }
  if (signal?.aborted) return aborted();
  if (response.ok && data) { keeper?.remember(path, request, lang, data); return { ok: true, data }; }
  if (data && data.error && typeof data.error.message === 'string') {
    return { ok: false, error: { details: {}, ...data.error } };
  }
  return { ok: false, error: { code: `http_${response.status}`, message: t('error.http', { status: response.status }), details: {} } };
}

/** A call cancelled because a newer one made it stale: never shown. */
const aborted = () => ({ ok: false, error: { code: 'aborted', message: '', details: {} } });

export const post = (path, body, signal, options) => api('POST', path, body, {}, signal, options);
export const get = (path, params, signal) => api('GET', path, undefined, params, signal);

/**
 * Wrap calls so that only the answer to the newest call is used: a call starting cancels
 * the one still on its way (`promiseFactory(signal)` passes the signal to post or get), and
 * an older answer resolves null, even one that arrived before it could be cancelled.
 */
export function latestOnly() {
  let counter = 0;
  let controller = null;
  return async (promiseFactory) => {
    const mine = ++counter;
    controller?.abort();
    const own = new AbortController();
    controller = own;
    const result = await promiseFactory(own.signal);
    if (controller === own) controller = null;
    return mine === counter ? result : null;
  };
}

/**
 * Sort an error's `details` into places on the form: `place(path)` names a slot (or null);
 * returns {bySlot: {slot: [reasons]}, rest: [reasons not placed], message}.
 */
export function placeErrors(error, place) {
  const bySlot = {};
  const rest = [];
  for (const [path, reasons] of Object.entries(error?.details || {})) {
    const slot = place(path);
    const list = (Array.isArray(reasons) ? reasons : [String(reasons)]);
    if (slot === null || slot === undefined) rest.push(...list.map((r) => (path === '$' ? r : `${path}: ${r}`)));
    else (bySlot[slot] ||= []).push(...list);
  }
  return { bySlot, rest, message: error?.message || '' };
}

/** Inline error text for one slot (nothing when the slot has no errors). */
export function fieldError(placed, slot, testid) {
  const reasons = placed?.bySlot?.[slot];
  if (!reasons || !reasons.length) return null;
  return h('div', { class: 'field-error', role: 'alert', testid },
    reasons.length === 1 ? reasons[0] : h('ul', null, [...new Set(reasons)].map((r) => h('li', null, r))));
}

/** The error box for a whole form: the message and any reasons not shown next to a field. */
export function errorBox(placed, testid) {
  if (!placed) return null;
  if (Object.keys(placed.bySlot).length && !placed.rest.length) return null; // all shown inline
  const unplaced = [...new Set(placed.rest)].filter((r) => r !== placed.message);
  return h('div', { class: 'error-box', role: 'alert', testid },
    h('strong', null, placed.message || t('error.generic')),
    unplaced.length ? h('ul', null, unplaced.map((r) => h('li', null, r))) : null);
}

/** "players[2].cards[0]" -> ["players", 2, "cards", 0]. */
export function pathParts(path) {
  return [...String(path).matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] !== undefined ? Number(m[2]) : m[1]));
}
