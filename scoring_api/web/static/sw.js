// The form's service worker, so that the installed form opens without a connection.
//
// The blueprint serves this file at /sw.js (scope: the whole site) with four constants in
// front of it: VERSION (a hash of the page and of every kept file), PAGE (the form's URL),
// ASSETS (the folder of the static files under their current version, /assets/v/<hash>/)
// and PRECACHE (the page, the manifest and every file of the static folder under ASSETS,
// listed by the server, never by hand). Served from /assets it has none of them and does
// nothing.
//
// - The page: network first, so an update shows as soon as there is a connection; without
//   one the kept page opens instead of the browser's offline page.
// - The kept files (scripts, styles, icons): from the cache, which a new version replaces.
//   Their URLs carry the version and never change bytes, so the install takes them from the
//   browser's HTTP cache when the page just loaded them (the page and the manifest, whose
//   URLs stay, straight from the server).
// - Everything else, the API above all (/api/, /v1/, /mcp): not handled here, never kept;
//   without a connection the call fails and the form says that scoring needs it (api.js).
/* global VERSION, PAGE, ASSETS, PRECACHE */

const PREFIX = 'scoring-form-';
const READY = typeof VERSION === 'string' && typeof PAGE === 'string' && typeof ASSETS === 'string' && Array.isArray(PRECACHE);
const CACHE = READY ? `${PREFIX}${VERSION}` : '';
const PAGE_URL = READY ? new URL(PAGE, self.location.href).href : '';
const ASSETS_URL = READY ? new URL(ASSETS, self.location.href).href : '';
const KEPT = new Set(READY ? PRECACHE.map((url) => new URL(url, self.location.href).href) : []);

self.addEventListener('install', (event) => {
  if (!READY) return;
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // A versioned file as the HTTP cache holds it (its bytes are those of its URL); the
    // page and the manifest with 'reload': straight from the server.
    await cache.addAll(PRECACHE.map((url) => {
      const versioned = new URL(url, self.location.href).href.startsWith(ASSETS_URL);
      return new Request(url, { cache: versioned ? 'default' : 'reload' });
    }));
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
