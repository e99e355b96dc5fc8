// Page wiring: the language switch, the game tabs (arrow keys move between them, as in the
// WAI-ARIA tabs pattern), and one module per game mounted in its panel. Back online, the
// open game scores again by itself, each other game when its tab is opened.

import { keptNote } from './answers.js';
import * as apero from './apero.js';
import * as applejack from './applejack.js';
import * as chat from './chat.js';
import * as fairyBlackBox from './fairy-black-box.js';
import { applyStatic, getLang, setLang, t } from './i18n.js';
import * as pedro from './pedro.js';
import { recordBar } from './record.js';
import { shareBar } from './share.js';
import { currentName, decode } from './store.js';

const GAMES = { apero, pedro, applejack, 'fairy-black-box': fairyBlackBox, chat };
const bars = [];
const openedWith = location.hash; // a shared link's data, read before the tabs rewrite the address

function showError(error) {
  const box = document.createElement('p');
  box.className = 'error-box';
  box.setAttribute('role', 'alert');
  box.textContent = `${error?.message || error}`;
  document.getElementById('panels')?.prepend(box);
}

function selectTab(tab, focus) {
  const tabs = [...document.querySelectorAll('[role="tab"]')];
  for (const other of tabs) {
    const selected = other === tab;
    other.setAttribute('aria-selected', String(selected));
    other.tabIndex = selected ? 0 : -1;
    document.getElementById(other.getAttribute('aria-controls')).hidden = !selected;
  }
  if (focus) tab.focus();
  history.replaceState(null, '', `#${tab.dataset.game}`);
  catchUp(tab.dataset.game);
}

// The games to score again since the connection came back (their answers may be kept ones).
const behind = new Set();
function catchUp(id) {
  if (behind.delete(id)) GAMES[id].refresh();
}
window.addEventListener('online', () => {
  for (const id of Object.keys(GAMES)) behind.add(id);
  catchUp(document.querySelector('[role="tab"][aria-selected="true"]')?.dataset.game);
});

function setupTabs() {
  const tabs = [...document.querySelectorAll('[role="tab"]')];
  tabs.forEach((tab, i) => {
    tab.addEventListener('click', () => selectTab(tab, false));
    tab.addEventListener('keydown', (e) => {
      const moves = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 };
      if (!(e.key in moves)) return;
      e.preventDefault();
      selectTab(tabs[(moves[e.key] + tabs.length) % tabs.length], true);
    });
  });
  const game = currentName(location.hash.slice(1).split(':')[0]); // an old tab name still opens its tab
  const fromHash = tabs.find((tab) => tab.dataset.game === game);
  if (fromHash) selectTab(fromHash, false);
}

/** A shared link (#<game>:<data>) opens that game's inputs; the address keeps only #<game>.
 * A link made before a tab was renamed (#fairy:<data>) opens the tab under its name now. */
function openShared() {
  const [name, part] = openedWith.slice(1).split(':');
  const game = currentName(name);
  if (!part || !GAMES[game]?.restore) return;
  const data = decode(part);
  history.replaceState(null, '', `#${game}`);
  if (!data) return;
  GAMES[game].restore(data);
  const note = document.createElement('p');
  note.className = 'hint';
  note.dataset.testid = 'shared-opened';
  note.setAttribute('role', 'status');
  note.textContent = t('share.opened');
  document.getElementById(`panel-${game}`)?.prepend(note);
}

function showLang() {
  applyStatic();
  document.querySelectorAll('[data-lang]').forEach((button) => {
    button.setAttribute('aria-pressed', String(button.dataset.lang === getLang()));
  });
}

function setupLang() {
  document.querySelectorAll('[data-lang]').forEach((button) => {
    button.addEventListener('click', () => {
      if (button.dataset.lang === getLang()) return;
      setLang(button.dataset.lang);
      showLang();
      for (const game of Object.values(GAMES)) { game.render(); game.refresh(); }
      for (const bar of bars) bar.redraw();
    });
  });
}

window.addEventListener('unhandledrejection', (e) => showError(e.reason));
try {
  showLang();
  setupTabs();
  setupLang();
  for (const [id, game] of Object.entries(GAMES)) {
    const panel = document.getElementById(`panel-${id}`);
    game.mount(panel);
    if (game.snapshot) { bars.push(shareBar(id, game)); panel.append(bars.at(-1)); }
    if (game.snapshot) bars.push(keptNote(panel, id)); // offline: says when the answer shown is from before
    if (game.lastResult) bars.push(recordBar(panel, id, game)); // BG Stats: above the share bar
  }
  openShared();
  document.body.dataset.ready = 'true';
} catch (error) {
  showError(error);
  throw error;
}
