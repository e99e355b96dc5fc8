// Tiny DOM helpers: build elements, re-render a region without losing keyboard focus.

const SVG_NS = 'http://www.w3.org/2000/svg';

function setProps(el, props) {
  let value;
  for (const [key, v] of Object.entries(props || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (key === 'class') el.setAttribute('class', v);
    else if (key === 'testid') el.dataset.testid = v;
    else if (key === 'text') el.textContent = v;
    else if (key === 'value') value = v;
    else if (key === 'checked') el.checked = true;
    else if (key === 'style') el.style.cssText = v; // CSSOM: allowed by the CSP, a style attribute is not
    else if (key.startsWith('on')) el.addEventListener(key.slice(2).toLowerCase(), v);
    else el.setAttribute(key, v === true ? '' : String(v));
  }
  return value;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** h('button', {class, testid, onclick, ...}, ...children) -> an HTML element. */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  const value = setProps(el, props);
  append(el, children);
  if (value !== undefined) el.value = value; // after children, so <select> finds its option
  return el;
}

/** s('circle', {...}, ...children) -> an SVG element. */
export function s(tag, props, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setProps(el, props);
  append(el, children);
  return el;
}

// While a pointer is pressed, re-rendering is held back until its click has run: a button
// replaced between press and release never gets the click (an answer arriving from the
// service mid-tap used to lose the tap). The hold ends when the pointer is released, so the
// click's own handlers render at once (the next tap or key already meets the page they drew,
// whenever the browser runs its timers); the renders held during the press run in a task
// just after the click (and any change or submit it causes), the newest per container, and
// are dropped where the click rendered that container again. A press longer than HOLD_MS
// lets them through.
const HOLD_MS = 1500;
const held = new Map();
const afterHeld = [];
let pressed = false;
let holdTimer = null;
let flushTimer = null;

function release() {
  clearTimeout(holdTimer);
  if (!pressed) return;
  pressed = false;
  clearTimeout(flushTimer);
  flushTimer = setTimeout(flush, 0);
}

function flush() {
  if (pressed) return; // pressed again: they wait for that press's release
  const waiting = [...held.entries()];
  held.clear();
  for (const [container, [nodes, fallbackId]] of waiting) replace(container, nodes, fallbackId);
  for (const fn of afterHeld.splice(0)) fn();
}

/** Run `fn` once what was rendered is on the page: at once, or just after the held
 * renders while a pointer is pressed (to focus or scroll to an answer). */
export function whenRendered(fn) {
  if (pressed) afterHeld.push(fn); else fn();
}

document.addEventListener('pointerdown', () => {
  pressed = true;
  clearTimeout(holdTimer);
  holdTimer = setTimeout(release, HOLD_MS);
}, true);
for (const type of ['pointerup', 'pointercancel']) document.addEventListener(type, release, true);
window.addEventListener('blur', release);

/**
 * Replace the children of `container` and put the keyboard focus back on the element with
 * the same id (or on `fallbackId` when it is gone), so re-rendering never strands the user;
 * held back while a pointer is pressed (see above).
 */
export function rerender(container, nodes, fallbackId) {
  if (pressed) { held.set(container, [nodes, fallbackId]); return; }
  held.delete(container); // an older render held during the press is out of date
  replace(container, nodes, fallbackId);
}

function replace(container, nodes, fallbackId) {
  const active = document.activeElement;
  const hadFocus = active && active !== document.body && container.contains(active);
  const id = hadFocus ? active.id : null;
  let selection = null;
  try {
    if (hadFocus && typeof active.selectionStart === 'number') selection = [active.selectionStart, active.selectionEnd];
  } catch { /* number inputs have no selection */ }
  container.replaceChildren(...[nodes].flat(Infinity).filter(Boolean));
  if (!hadFocus) return;
  const target = (id && document.getElementById(id)) || (fallbackId && document.getElementById(fallbackId));
  if (!target) return;
  target.focus({ preventScroll: true });
  if (selection && typeof target.setSelectionRange === 'function') {
    try { target.setSelectionRange(...selection); } catch { /* not a text input */ }
  }
}

/** A labelled input: returns [label, input] sharing an id. */
export function labelled(text, input) {
  return [h('label', { for: input.id }, text), input];
}

/** Integer from an input's value, or null when empty / not a number. */
export function toInt(text) {
  if (text === '' || text === null || text === undefined) return null;
  const n = Number(text);
  return Number.isInteger(n) ? n : null;
}

/**
 * Bring an answer into view after an action: scroll `el` so that it starts in the viewport
 * (or stays where it is if it already is) and move the keyboard focus to it, so that a
 * phone shows the result at once and a screen reader reads it. `el` gets tabindex=-1.
 */
export function showAnswer(el) {
  if (!el || !el.isConnected) return;
  if (!el.hasAttribute('tabindex')) el.tabIndex = -1;
  el.focus({ preventScroll: true });
  const box = el.getBoundingClientRect();
  if (box.top < 0 || box.top > window.innerHeight - Math.min(box.height, window.innerHeight * 0.5)) {
    el.scrollIntoView({ block: 'start', behavior: 'instant' });
  }
}

/**
 * The compact ranking that opens every game's results: one line per player or team, the
 * total, ★ on the winners. `rows` = [{name, total, winner}] in ranking order.
 */
export function rankingStrip(rows, testid) {
  return h('ol', { class: 'ranking', testid },
    rows.map((row, k) => h('li', { class: row.winner ? 'winner-row' : null, testid: `${testid}-${k}` },
      h('span', { class: 'rank-mark', 'aria-hidden': 'true' }, row.winner ? '★' : ''),
      h('span', { class: 'rank-name' }, row.name),
      h('strong', { class: 'rank-total' }, String(row.total)))));
}
