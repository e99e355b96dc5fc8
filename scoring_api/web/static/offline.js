// The form without a connection: registers the service worker that keeps the page and its
// files (sw.js, served at the site's root), and shows a polite banner while the browser is
// offline: what players enter is kept, scoring waits for the connection.

import { t } from './i18n.js';

const banner = document.querySelector('[data-testid="offline-banner"]');

/** Show the banner while offline (its text in the current language), hide it online. */
function showConnection() {
  if (!banner) return;
  const offline = navigator.onLine === false;
  if (offline) banner.textContent = t('offline.banner');
  banner.hidden = !offline;
}

window.addEventListener('online', showConnection);
window.addEventListener('offline', showConnection);
// The language buttons refill [data-i18n] texts (main.js); this keeps the banner's too.
document.querySelectorAll('[data-lang]').forEach((button) => button.addEventListener('click', showConnection));
showConnection();

if ('serviceWorker' in navigator) {
  // A new version takes over as soon as it is kept (sw.js skips waiting). A page that was
  // opened by the previous version just as the update came may mix the new page with the
  // old files, so it reloads once: only in its first seconds and if nobody has touched it.
  const updating = Boolean(navigator.serviceWorker.controller);
  let touched = false;
  const touch = () => { touched = true; };
  for (const type of ['pointerdown', 'keydown', 'input']) window.addEventListener(type, touch, { capture: true, once: true });
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (updating && !touched && performance.now() < 10_000) window.location.reload();
  });
  const register = () => {
    navigator.serviceWorker.register(new URL('sw.js', document.baseURI), { scope: './' })
      .catch(() => { /* no worker (private mode, offline at the first visit): the form still works online */ });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
