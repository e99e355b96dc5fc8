// Tiny DOM helpers: build elements, re-render a region without losing keyboard focus
// (replaced, or patched to change only what differs).

const SVG_NS = 'http://www.w3.org/2000/svg';

// An element's handlers (`onclick` ...) live in `el[HANDLERS]`, called by one listener per
// event type, so that patching an element can hand it the newer render's handlers.
const HANDLERS = Symbol('handlers');
function dispatch(event) {
  const handler = this[HANDLERS]?.[event.type];
  return handler ? handler.call(this, event) : undefined;
}

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
    else if (key.startsWith('on')) {
      const type = key.slice(2).toLowerCase();
      (el[HANDLERS] ||= {})[type] = v;
      el.addEventListener(type, dispatch);
    } else el.setAttribute(key, v === true ? '' : String(v));
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
  for (const [container, [nodes, fallbackId, how]] of waiting) how(container, nodes, fallbackId);
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
  render(container, nodes, fallbackId, replace);
}

/**
 * Like rerender, but the page's nodes are patched to match `nodes` instead of replaced:
 * only what differs changes (a text, an attribute, a value, the handlers; nodes added or
 * removed), so the browser restyles and lays out only that, and the elements under a
 * finger or holding the focus stay. Children are matched by id, else by position and tag.
 * `onPage(node)` is the element on the page that a node of `nodes` became.
 */
export function patch(container, nodes, fallbackId) {
  render(container, nodes, fallbackId, morphInto);
}

function render(container, nodes, fallbackId, how) {
  if (pressed) { held.set(container, [nodes, fallbackId, how]); return; }
  held.delete(container); // an older render held during the press is out of date
  how(container, nodes, fallbackId);
}

/** Where the focus was in `container`, to put it back after a render removed its element. */
function focusIn(container) {
  const active = document.activeElement;
  if (!active || active === document.body || !container.contains(active)) return null;
  let selection = null;
  try {
    if (typeof active.selectionStart === 'number') selection = [active.selectionStart, active.selectionEnd];
  } catch { /* number inputs have no selection */ }
  return { active, id: active.id, selection };
}

function refocus(had, fallbackId) {
  if (!had || (had.active.isConnected && document.activeElement === had.active)) return;
  const target = (had.id && document.getElementById(had.id)) || (fallbackId && document.getElementById(fallbackId));
  if (!target) return;
  target.focus({ preventScroll: true });
  if (had.selection && typeof target.setSelectionRange === 'function') {
    try { target.setSelectionRange(...had.selection); } catch { /* not a text input */ }
  }
}

/** The nodes of a render: nested lists flattened, empty values left out, text as text nodes. */
function nodesOf(nodes) {
  return [nodes].flat(Infinity).filter(Boolean).map((node) => (node instanceof Node ? node : document.createTextNode(String(node))));
}

function replace(container, nodes, fallbackId) {
  const had = focusIn(container);
  container.replaceChildren(...nodesOf(nodes).map(resolved));
  refocus(had, fallbackId);
}

function morphInto(container, nodes, fallbackId) {
  const had = focusIn(container);
  morphChildren(container, nodesOf(nodes));
  refocus(had, fallbackId);
}

const peers = new WeakMap(); // a node of a patch -> the page's element that took its place
const KEPT = Symbol('kept');

/**
 * A stand-in for `node`, an element drawn before (on the page) that would be drawn the same:
 * in a patch it stays as it is, where the stand-in stands, and is not compared; a new
 * element that holds stand-ins is inserted with the nodes they stand for.
 */
export function unchanged(node) {
  const mark = document.createComment('');
  mark[KEPT] = node;
  return mark;
}

/** `node` with the stand-ins in it replaced by what they stand for (a node built to insert). */
function resolved(node) {
  if (node[KEPT]) return node[KEPT];
  if (node.nodeType !== 1) return node;
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_COMMENT);
  const marks = [];
  while (walker.nextNode()) if (walker.currentNode[KEPT]) marks.push(walker.currentNode);
  for (const mark of marks) mark.replaceWith(mark[KEPT]);
  return node;
}

/** The element on the page that `node` (built for a patch) became: itself, or the one patched to match it. */
export function onPage(node) {
  return (node && peers.get(node)) || node;
}

const same = (a, b) => a.nodeType === b.nodeType && a.nodeName === b.nodeName && a.namespaceURI === b.namespaceURI;
const keyOf = (node) => (node.nodeType === 1 && node.id) || null;

function morphChildren(parent, wanted) {
  const byId = new Map();
  for (const child of parent.children) if (child.id) byId.set(child.id, child);
  let cursor = parent.firstChild;
  for (const wish of wanted) {
    const next = wish[KEPT] || wish;
    if (next === cursor) { cursor = cursor.nextSibling; continue; } // kept as it is
    if (wish !== next) { parent.insertBefore(next, cursor); continue; } // kept, moved here
    const key = keyOf(next);
    let match = null;
    if (key) {
      const old = byId.get(key);
      if (old && old.parentNode === parent && same(old, next)) match = old;
    } else if (cursor && !keyOf(cursor) && same(cursor, next)) {
      match = cursor;
    } else if (cursor && cursor.nextSibling && !keyOf(cursor.nextSibling) && same(cursor.nextSibling, next)) {
      const gone = cursor; // one node left out of the new render
      cursor = cursor.nextSibling;
      gone.remove();
      match = cursor;
    }
    if (!match) { parent.insertBefore(resolved(next), cursor); continue; }
    if (match === cursor) cursor = cursor.nextSibling;
    else parent.insertBefore(match, cursor);
    morph(match, next);
  }
  while (cursor) {
    const gone = cursor;
    cursor = cursor.nextSibling;
    gone.remove();
  }
}

function morph(old, next) {
  if (old.nodeType !== 1) {
    if (old.nodeValue !== next.nodeValue) old.nodeValue = next.nodeValue;
    return;
  }
  peers.set(next, old);
  for (const name of old.getAttributeNames()) if (!next.hasAttribute(name)) old.removeAttribute(name);
  for (const name of next.getAttributeNames()) {
    const value = next.getAttribute(name);
    if (old.getAttribute(name) === value) continue;
    if (name === 'style') old.style.cssText = next.style.cssText; // CSSOM, as setProps
    else old.setAttribute(name, value);
  }
  old[HANDLERS] = next[HANDLERS];
  for (const type of Object.keys(next[HANDLERS] || {})) old.addEventListener(type, dispatch); // once per type
  morphChildren(old, [...next.childNodes]);
  // What the user can change lives in properties, not attributes: they follow the render.
  if ('checked' in old && old.checked !== next.checked) old.checked = next.checked;
  if ('value' in old && typeof old.value === 'string' && old.value !== next.value && old.localName !== 'button' && old.localName !== 'option') {
    old.value = next.value;
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
