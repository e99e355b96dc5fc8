// What players entered survives a reload and travels in a link: each game keeps a
// versioned snapshot of its inputs in localStorage, and "共有" puts the same snapshot in the
// page's address (#<game>:<data>, never sent to the server).

const VERSION = 1;
const key = (game) => `scoring.${game}`;

/** Tabs renamed since links and saves went out: the old name, then the tab's name now.
 * "fairy" was Fairy & Black Box's name in the form before it took the URL spelling. */
const RENAMED = new Map([['fairy', 'fairy-black-box']]);

/** The tab that `game` (from an address or an old save) means now. */
export const currentName = (game) => RENAMED.get(game) ?? game;

/** Inputs kept under an old name of `game` move to its name now, once: the old save is
 * dropped, and a save under the new name wins over it. */
function migrate(game) {
  for (const [old, now] of RENAMED) {
    if (now !== game) continue;
    try {
      const saved = localStorage.getItem(key(old));
      if (saved === null) continue;
      if (localStorage.getItem(key(game)) === null) localStorage.setItem(key(game), saved);
      localStorage.removeItem(key(old));
    } catch { /* private mode or a full store: read again next time */ }
  }
}

/** Keep `data` (plain JSON) as `game`'s inputs; private mode or a full store keeps nothing. */
export function keep(game, data) {
  try { localStorage.setItem(key(game), JSON.stringify({ v: VERSION, data })); } catch { /* not kept */ }
}

/** The inputs kept for `game`, or null. `legacy(raw)` reads a save from before versions. */
export function kept(game, legacy) {
  migrate(game);
  try {
    const raw = JSON.parse(localStorage.getItem(key(game)) || 'null');
    if (raw && raw.v === VERSION && raw.data && typeof raw.data === 'object') return raw.data;
    if (raw && raw.v === undefined && legacy) return legacy(raw);
  } catch { /* a broken save starts afresh */ }
  return null;
}

/** Forget `game`'s inputs. */
export function forget(game) {
  try { localStorage.removeItem(key(game)); } catch { /* nothing kept */ }
}

/** base64url of the UTF-8 JSON of {v, data}: what follows "#<game>:" in a shared link. */
export function encode(data) {
  const bytes = new TextEncoder().encode(JSON.stringify({ v: VERSION, data }));
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The data of a shared link's part, or null when it is not one of ours. */
export function decode(part) {
  try {
    const text = atob(part.replace(/-/g, '+').replace(/_/g, '/'));
    const raw = JSON.parse(new TextDecoder().decode(Uint8Array.from(text, (c) => c.charCodeAt(0))));
    return raw && raw.v === VERSION && raw.data && typeof raw.data === 'object' ? raw.data : null;
  } catch { return null; }
}

/** The link that opens `game` with `data` on another phone. */
export function shareLink(game, data) {
  const url = new URL(document.baseURI);
  url.search = '';
  url.hash = `${game}:${encode(data)}`;
  return url.href;
}
