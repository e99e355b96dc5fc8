// アイちゃんに聞く: the chat panel. It talks to the service's OpenAI-compatible endpoint
// (/v1/chat/completions, streamed), sends the conversation of this page each time (nothing
// is kept on the server), shows アイちゃん's answer as it arrives, then the scores she
// computed as the same result cards the game panels show (cards.js; the MCP Apps view draws
// them with it too).
//
// Photos: when the service's model reads pictures (the page's panel says data-vision="on",
// SCORING_CHAT_VISION), a photo button takes pictures of the table. Each is downscaled here
// (a canvas: longest side PHOTO_SIDE px, JPEG at PHOTO_QUALITY) before it is sent as a data
// URL, and shown as a thumbnail drawn on a canvas (the page's CSP loads no data: images).

import { CARD_TOOLS, toolCard } from './cards.js';
import { h, rerender } from './dom.js';
import { getLang, t } from './i18n.js';

const KEY_STORE = 'scoring.chatKey';
const MAX_LENGTH = 4000; // characters of one message (the service's limit)
const MAX_SENT = 40; // the newest messages sent with each question
const MAX_PHOTOS = 4; // photos of one question (the service's limit a message)
const MAX_PHOTOS_SENT = 8; // photos of a conversation (the service's limit): older ones stay here
const PHOTO_SIDE = 1568; // px, the longest side of a photo as sent
const PHOTO_QUALITY = 0.85; // JPEG quality of a photo as sent
const THUMB_SIDE = 96; // px, the longest side of a thumbnail

const state = { turns: [], busy: false, keyOpen: false, controller: null, photos: [], preparing: 0, photoError: null };
let root = null;
let boxes = null;

function savedKey() {
  try { return localStorage.getItem(KEY_STORE) || ''; } catch { return ''; }
}

function saveKey(value) {
  try {
    if (value) localStorage.setItem(KEY_STORE, value);
    else localStorage.removeItem(KEY_STORE);
  } catch { /* private mode: kept for this page only */ }
}

/** The conversation so far as chat messages (answers that failed, and questions that never
 * reached the service, are left out); the newest MAX_PHOTOS_SENT photos go with their
 * questions, older ones are left out (アイちゃん listed what she read in her answers). */
function history() {
  const turns = state.turns
    .filter((turn) => (turn.text.trim() || turn.photos?.length) && !turn.unsent && !(turn.role === 'assistant' && turn.error))
    .slice(-MAX_SENT);
  let room = MAX_PHOTOS_SENT;
  const messages = [];
  for (const turn of turns.reverse()) {
    const photos = (turn.photos || []).slice(0, Math.max(0, room));
    room -= photos.length;
    messages.unshift(message(turn.role, turn.text || (turn.photos?.length ? t('chat.photoLeftOut') : ''), photos));
  }
  return messages;
}

/** One chat message: its text, and its photos as image_url parts. */
function message(role, text, photos = []) {
  if (!photos.length) return { role, content: text };
  const parts = photos.map((photo) => ({ type: 'image_url', image_url: { url: photo.url } }));
  return { role, content: text ? [{ type: 'text', text }, ...parts] : parts };
}

// --- photos ------------------------------------------------------------------------------

/** Whether the service's model reads pictures (the page says so on the panel). */
function visionOn() {
  return root?.dataset.vision === 'on';
}

/** A canvas of `bitmap` whose longest side is at most `side` px (never enlarged). */
function drawn(bitmap, side) {
  const scale = Math.min(1, side / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff'; // a transparent picture's background, as JPEG has no alpha
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  return canvas;
}

/** A picked file as it is sent (a downscaled JPEG data URL) and its thumbnail. */
async function photoOf(file) {
  const bitmap = await createImageBitmap(file); // turned upright by its EXIF orientation
  try {
    const url = drawn(bitmap, PHOTO_SIDE).toDataURL('image/jpeg', PHOTO_QUALITY);
    const thumb = drawn(bitmap, THUMB_SIDE);
    thumb.className = 'chat-photo';
    thumb.setAttribute('role', 'img');
    return { url, thumb };
  } finally {
    bitmap.close();
  }
}

/** `photo` with a thumbnail of its own (a node is on the page in one place only). */
function copied(photo) {
  const thumb = document.createElement('canvas');
  thumb.width = photo.thumb.width;
  thumb.height = photo.thumb.height;
  thumb.getContext('2d').drawImage(photo.thumb, 0, 0);
  thumb.className = photo.thumb.className;
  thumb.setAttribute('role', 'img');
  return { url: photo.url, thumb };
}

async function attach(event) {
  const input = event.target;
  const files = [...(input.files || [])];
  input.value = '';
  state.photoError = null;
  const room = MAX_PHOTOS - state.photos.length - state.preparing;
  if (files.length > room) state.photoError = t('chat.photoMax', { n: MAX_PHOTOS });
  const taken = files.slice(0, Math.max(0, room));
  state.preparing += taken.length;
  render('chat-photo');
  for (const file of taken) {
    try {
      state.photos.push(await photoOf(file));
    } catch {
      state.photoError = t('chat.photoUnreadable');
    } finally {
      state.preparing -= 1;
    }
  }
  render('chat-photo');
}

/** Thumbnails of `photos`, each named (and, while still to send, with a button to take it out). */
function thumbnails(photos, testid, removable) {
  if (!photos?.length) return null;
  return h('ul', { class: 'chat-photos', testid },
    photos.map((photo, k) => {
      photo.thumb.setAttribute('aria-label', t('chat.photoAlt', { n: k + 1 }));
      photo.thumb.dataset.testid = `${testid}-${k}`;
      return h('li', null, photo.thumb,
        removable
          ? h('button', { type: 'button', class: 'secondary', testid: `${testid}-remove-${k}`,
            onclick: () => { state.photos.splice(k, 1); state.photoError = null; render('chat-photo'); } },
          t('chat.photoRemove', { n: k + 1 }))
          : null);
    }));
}

function photoPicker() {
  if (!visionOn()) return null;
  const full = state.photos.length + state.preparing >= MAX_PHOTOS;
  return h('div', { class: 'chat-photo-picker', testid: 'chat-photo-picker' },
    h('label', { for: 'chat-photo' }, t('chat.photo')),
    h('input', { type: 'file', id: 'chat-photo', testid: 'chat-photo', accept: 'image/*', capture: 'environment',
      disabled: full || state.busy, onchange: attach }),
    h('p', { class: 'hint' }, t('chat.photoHint', { n: MAX_PHOTOS })),
    thumbnails(state.photos, 'chat-photo-pending', true),
    state.preparing ? h('p', { class: 'hint', role: 'status', testid: 'chat-photo-preparing' }, t('chat.photoPreparing')) : null,
    state.photoError ? h('p', { class: 'error-box', role: 'alert', testid: 'chat-photo-error' }, state.photoError) : null);
}

// --- the scores a turn computed, as the game panels show them ---------------------------

// Only scores get a card: a rules lookup (the rules tool) is quoted in her answer instead.
function toolCards(turn, n) {
  const done = turn.calls.filter((call) => call.result && !call.result.error && CARD_TOOLS.includes(call.name));
  if (!done.length) return null;
  return h('div', { class: 'chat-cards', testid: `chat-cards-${n}` },
    done.map((call, k) => h('section', { class: 'chat-card', 'aria-label': t(`chat.tool.${call.name}`) },
      h('h3', { class: 'chat-card-title' }, t(`chat.tool.${call.name}`)),
      toolCard(call.name, call.result, call.arguments, `chat-${n}-${k}`))));
}

// --- the view ---------------------------------------------------------------------------

function bubble(turn, n) {
  const who = turn.role === 'user' ? t('chat.you') : t('chat.aiChan');
  const text = h('p', { class: 'chat-text', testid: `chat-text-${n}` }, turn.text);
  turn.node = text; // the answer grows here as it streams
  return h('article', { class: `chat-turn ${turn.role}`, testid: `chat-turn-${n}`, 'aria-label': who },
    h('p', { class: 'chat-who' }, who),
    turn.role === 'assistant' && !turn.text && !turn.done ? h('p', { class: 'hint', testid: `chat-thinking-${n}` }, t('chat.thinking')) : null,
    thumbnails(turn.photos, `chat-photos-${n}`, false),
    text,
    turn.error ? h('p', { class: 'error-box', role: 'alert', testid: `chat-error-${n}` }, turn.error) : null,
    turn.done && turn.role === 'assistant' ? toolCards(turn, n) : null);
}

function log() {
  if (!state.turns.length) return h('p', { class: 'hint', testid: 'chat-empty' }, t('chat.empty'));
  return state.turns.map(bubble);
}

function keyBox() {
  return h('details', { class: 'card-box chat-key', testid: 'chat-key-box', open: state.keyOpen, ontoggle: (e) => { state.keyOpen = e.target.open; } },
    h('summary', null, t('chat.key')),
    h('p', { class: 'hint' }, t('chat.keyHint')),
    h('label', { for: 'chat-key' }, t('chat.keyLabel')),
    h('input', { type: 'password', id: 'chat-key', testid: 'chat-key', autocomplete: 'off', value: savedKey(),
      onchange: (e) => saveKey(e.target.value.trim()) }));
}

function composer() {
  const send = (e) => { e.preventDefault(); ask(); };
  return h('form', { class: 'chat-form', testid: 'chat-form', onsubmit: send },
    h('label', { for: 'chat-input' }, t('chat.question')),
    h('textarea', { id: 'chat-input', testid: 'chat-input', rows: 3, maxlength: MAX_LENGTH, placeholder: t('chat.placeholder'),
      onkeydown: (e) => {
        // Enter sends; Shift+Enter starts a new line; Enter that confirms a Japanese IME conversion does neither
        if (e.key === 'Enter' && !e.shiftKey && !e.isComposing && e.keyCode !== 229) send(e);
      } }),
    photoPicker(),
    h('div', { class: 'row' },
      state.busy
        ? h('button', { type: 'button', class: 'secondary', id: 'chat-stop', testid: 'chat-stop', onclick: () => state.controller?.abort() }, t('chat.stop'))
        : h('button', { type: 'submit', id: 'chat-send', testid: 'chat-send', disabled: state.preparing > 0 }, t('chat.send')),
      state.turns.length && !state.busy
        ? h('button', { type: 'button', class: 'secondary', id: 'chat-new', testid: 'chat-new',
          onclick: () => { state.turns = []; render('chat-input'); } }, t('chat.new'))
        : null),
    h('p', { class: 'hint' }, t('chat.enterHint')));
}

export function render(focusFallback) {
  if (!root) return;
  const input = document.getElementById('chat-input');
  const draft = input ? input.value : '';
  if (!boxes) {
    boxes = {
      intro: h('div'),
      log: h('div', { class: 'chat-log', role: 'log', 'aria-live': 'polite', testid: 'chat-log' }),
      key: h('div'),
      form: h('div'),
    };
    root.replaceChildren(boxes.intro, boxes.log, boxes.form, boxes.key);
  }
  rerender(boxes.intro, [h('h2', null, t('chat.title')), h('p', { class: 'hint' }, t('chat.intro'))]);
  boxes.log.setAttribute('aria-busy', String(state.busy));
  rerender(boxes.log, log());
  rerender(boxes.form, composer(), focusFallback);
  rerender(boxes.key, keyBox());
  const again = document.getElementById('chat-input');
  if (again) again.value = draft;
}

export function refresh() {}

export function mount(panel) {
  root = panel;
  boxes = null;
  render();
}

// --- asking -------------------------------------------------------------------------------

function failure(status, data) {
  const message = data?.error?.message;
  if (status === 401) state.keyOpen = true;
  return message || (status === 401 ? t('chat.keyWrong') : t('error.http', { status }));
}

async function ask() {
  const input = document.getElementById('chat-input');
  const question = (input?.value || '').trim();
  const photos = visionOn() ? state.photos : [];
  if ((!question && !photos.length) || state.busy || state.preparing) return;
  const messages = [...history(), message('user', question, photos)];
  const asked = { role: 'user', text: question, photos: photos.map(copied), done: true, unsent: false };
  state.photos = [];
  state.photoError = null;
  state.turns.push(asked);
  const turn = { role: 'assistant', text: '', calls: [], error: null, done: false };
  state.turns.push(turn);
  state.busy = true;
  state.controller = new AbortController();
  input.value = '';
  render('chat-stop');
  const headers = { 'Content-Type': 'application/json', Accept: 'text/event-stream' };
  const key = savedKey();
  if (key) headers.Authorization = `Bearer ${key}`;
  try {
    const response = await fetch(new URL('v1/chat/completions', document.baseURI), {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: getLang() === 'en' ? 'ai-chan-en' : 'ai-chan', stream: true, messages }),
      signal: state.controller.signal,
    });
    if (!response.ok || !(response.headers.get('Content-Type') || '').startsWith('text/event-stream')) {
      let data = null;
      try { data = await response.json(); } catch { /* not JSON */ }
      turn.error = failure(response.status, data);
    } else {
      await readStream(response, turn);
    }
  } catch (error) {
    if (error?.name === 'AbortError') turn.error = t('chat.stopped');
    else {
      // Nothing reached the service: the question goes back to the box, to send again.
      asked.unsent = true;
      turn.error = navigator.onLine === false ? t('chat.offline') : t('chat.network');
    }
  } finally {
    turn.done = true;
    state.busy = false;
    state.controller = null;
    if (asked.unsent && !state.photos.length) state.photos = photos; // back to send again, as the question
    render('chat-input');
    const box = document.getElementById('chat-input');
    if (asked.unsent && box && !box.value) box.value = question;
    const wantsKey = turn.error && state.keyOpen;
    document.getElementById(wantsKey ? 'chat-key' : 'chat-input')?.focus({ preventScroll: true });
  }
}

/** Read the server-sent events: text grows in the bubble, the trace comes at the end. */
async function readStream(response, turn) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let finished = false;
  const take = (block) => {
    for (const line of block.split('\n')) {
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') { finished = true; continue; }
      let event;
      try { event = JSON.parse(data); } catch { continue; }
      if (event.error) { turn.error = event.error.message || t('chat.failed'); finished = true; continue; }
      const piece = event.choices?.[0]?.delta?.content;
      if (piece) {
        turn.text += piece;
        if (turn.node) {
          turn.node.textContent = turn.text;
          turn.node.parentElement?.querySelector('[data-testid^="chat-thinking"]')?.remove();
        }
      }
      if (event.ai_chan) turn.calls = event.ai_chan.tool_calls || [];
    }
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      take(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
    }
  }
  if (buffer.trim()) take(buffer);
  if (!finished && !turn.error) turn.error = t('chat.cutOff');
}
