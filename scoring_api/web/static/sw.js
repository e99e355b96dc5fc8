// The form's service worker, so that the installed form opens without a connection.
//
// The blueprint serves this file at /sw.js (scope: the whole site) with three constants in
// front of it: VERSION (a hash of the page and of every kept file), PAGE (the form's URL)
// and PRECACHE (the page, the manifest and every file of the static folder, listed by the
// server, never by hand). Served from /assets it has none of them and does nothing.
//
// - The page: network first, so an update shows as soon as there is a connection; without
//   one the kept page opens instead of the browser's offline page.
// - The kept files (scripts, styles, icons): from the cache, which a new version replaces.
// - Everything else, the API above all (/api/, /v1/, /mcp): not handled here, never kept;
//   without a connection the call fails and the form says that scoring needs it (api.js).
/* global VERSION, PAGE, PRECACHE */

const PREFIX = 'scoring-form-';
const READY = typeof VERSION === 'string' && typeof PAGE === 'string' && Array.isArray(PRECACHE);
const CACHE = READY ? `${PREFIX}${VERSION}` : '';
const PAGE_URL = READY ? new URL(PAGE, self.location.href).href : '';
const KEPT = new Set(READY ? PRECACHE.map((url) => new URL(url, self.location.href).href) : []);

self.addEventListener('install', (event) => {
  if (!READY) return;
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // 'reload': straight from the server, not from the browser's HTTP cache.
    await cache.addAll(PRECACHE.map((url) => new Request(url, { cache: 'reload' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  if (!READY) return;
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  url.hash = '';
  if (request.mode === 'navigate') {
    url.search = '';
    if (url.href === PAGE_URL) event.respondWith(page(request));
  } else if (KEPT.has(url.href)) {
    event.respondWith(kept(request));
  }
});

/** The page from the network; the kept page when the network fails. */
async function page(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const cached = await caches.match(PAGE_URL, { cacheName: CACHE });
    if (cached) return cached;
    throw error;
  }
}

/** A kept file from the cache; from the network if it is (still) missing there. */
async function kept(request) {
  const cached = await caches.match(request, { cacheName: CACHE });
  return cached || fetch(request);
}
