// The MCP Apps view: a scoring tool's answer drawn as the form's own result card (cards.js)
// inside ChatGPT, Claude and other MCP Apps hosts. scoring_api/mcp_view.py assembles this
// module and every module it imports into one HTML document, served as an MCP resource.
// It makes no network request of any kind (hosts allow none: connect-src 'none').
//
// The app side of MCP Apps (the 2026-01-26 specification): JSON-RPC 2.0 over
// window.parent.postMessage. The view asks ui/initialize and gets the host's context (theme,
// locale, style variables, the tool), says ui/notifications/initialized, then draws the
// ui/notifications/tool-result the host sends (its structuredContent), and reports its size
// (ui/notifications/size-changed) whenever it changes, so the host sizes the frame to the card.
// ChatGPT's own bridge too: window.openai.toolOutput (the structuredContent) when the page
// loads, and the openai:set_globals event when it changes. Both may deliver the same answer:
// every draw starts from the latest one.

import { CARD_TOOLS, errorCard, toolCard, toolOf } from './cards.js';
import { h } from './dom.js';
import { getLang, setLang, t } from './i18n.js';

const PROTOCOL_VERSION = '2026-01-26';
const APP_INFO = { name: 'board-game-scoring-card', version: '1' };
const PREFIX = 'view'; // the test ids of the card
const MAX_VARIABLES = 200; // style variables taken from a host
const MAX_VARIABLE_LENGTH = 500; // characters of one variable's value

const root = document.getElementById('view');
const framed = window.parent !== window;
const seen = { name: null, args: null, result: null, cancelled: false, context: {} };
const waiting = new Map(); // id of a request to the host -> what takes its answer
let nextId = 1;
let initialized = false; // the host hears of nothing but ui/initialize before

// -- the host -----------------------------------------------------------------------------

function send(message) {
  if (framed) window.parent.postMessage({ jsonrpc: '2.0', ...message }, '*');
}

const notify = (method, params) => send({ method, params });

function ask(method, params) {
  const id = nextId;
  nextId += 1;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    send({ id, method, params });
  });
}

/** The language of the host's locale when it is Japanese or English, else Japanese. */
function langOf(locale) {
  const tag = String(locale || '').toLowerCase();
  return tag.startsWith('en') ? 'en' : 'ja';
}

/** The host's theme, else the system's. */
function themeOf(theme) {
  if (theme === 'light' || theme === 'dark') return theme;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** The host's style variables (--color-background-primary ...) on the document, bounded. */
function applyVariables(variables) {
  if (!variables || typeof variables !== 'object') return;
  for (const [name, value] of Object.entries(variables).slice(0, MAX_VARIABLES)) {
    if (name.startsWith('--') && typeof value === 'string' && value.length <= MAX_VARIABLE_LENGTH) {
      document.documentElement.style.setProperty(name, value);
    }
  }
}

/** Merge `context` (the host's, whole or changed) into what the view knows, and apply it. */
function applyContext(context) {
  if (context && typeof context === 'object') seen.context = { ...seen.context, ...context };
  const { locale, theme, styles } = seen.context;
  setLang(langOf(locale));
  const html = document.documentElement;
  html.lang = getLang();
  html.dataset.theme = themeOf(theme);
  html.style.colorScheme = html.dataset.theme;
  applyVariables(styles?.variables);
  document.title = t('app.title');
}

// -- the card -----------------------------------------------------------------------------

/** The answer of a tool result: its structuredContent, else its JSON text. */
function answerOf(result) {
  if (result.structuredContent && typeof result.structuredContent === 'object') return result.structuredContent;
  const text = Array.isArray(result.content) ? result.content.find((block) => block?.type === 'text')?.text : null;
  try { return typeof text === 'string' ? JSON.parse(text) : null; } catch { return null; }
}

/** The tool that answered: as the host names it (when it has a card), else by the answer's shape. */
function toolName(answer) {
  const named = seen.context.toolInfo?.tool?.name ?? seen.name;
  return CARD_TOOLS.includes(named) ? named : toolOf(answer) ?? named;
}

const note = (key) => h('p', { class: 'hint', role: 'status', testid: `${PREFIX}-status` }, t(key));

function card() {
  const result = seen.result;
  if (!result) return note(seen.cancelled ? 'view.cancelled' : 'view.waiting');
  const answer = answerOf(result);
  if (!answer) return note('view.unknown');
  if (result.isError || answer.error) return errorCard(answer.error || {}, PREFIX);
  const name = toolName(answer);
  const title = CARD_TOOLS.includes(name) ? h('h2', { class: 'view-title', testid: `${PREFIX}-title` }, t(`chat.tool.${name}`)) : null;
  try {
    return [title, toolCard(name, answer, seen.args, PREFIX)];
  } catch {
    return [title, note('view.unknown')]; // an answer of another shape than its tool's
  }
}

function draw() {
  root.replaceChildren(...[card()].flat(Infinity).filter(Boolean));
  root.dataset.tool = seen.result ? toolName(answerOf(seen.result)) ?? '' : '';
  measure();
}

// -- its size -----------------------------------------------------------------------------

// The document's height as its content needs it (measured at max-content, never from the
// frame's size, which the host sets from this), and the frame's width; sent when they change.
let sent = null;

function measure() {
  const html = document.documentElement;
  const before = html.style.height;
  html.style.height = 'max-content';
  const height = Math.ceil(html.getBoundingClientRect().height);
  html.style.height = before;
  const width = Math.ceil(window.innerWidth);
  if (sent && sent.height === height && sent.width === width) return;
  sent = { width, height };
  if (initialized) notify('ui/notifications/size-changed', { width, height });
  window.openai?.notifyIntrinsicHeight?.(height);
}

// -- messages -----------------------------------------------------------------------------

function received(event) {
  if (!framed || event.source !== window.parent) return;
  const message = event.data;
  if (!message || typeof message !== 'object' || message.jsonrpc !== '2.0') return;
  if (message.method === undefined) { // an answer to one of the view's requests
    const take = waiting.get(message.id);
    waiting.delete(message.id);
    take?.(message.error ? null : message.result);
    return;
  }
  const params = message.params && typeof message.params === 'object' ? message.params : {};
  switch (message.method) {
    case 'ui/notifications/tool-input':
      seen.args = params.arguments ?? null;
      if (typeof params.name === 'string') seen.name = params.name;
      draw();
      break;
    case 'ui/notifications/tool-result':
      seen.result = params;
      draw();
      break;
    case 'ui/notifications/tool-cancelled':
      seen.cancelled = true;
      draw();
      break;
    case 'ui/notifications/host-context-changed':
      applyContext(params);
      draw();
      break;
    case 'ui/resource-teardown':
    case 'ping':
      send({ id: message.id, result: {} });
      break;
    default:
      if (message.id !== undefined) send({ id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
  }
}

/** ChatGPT's globals: its locale and theme, the call's arguments and its structuredContent. */
function fromOpenAI() {
  const openai = window.openai;
  if (!openai || typeof openai !== 'object') return;
  applyContext({ locale: openai.locale ?? seen.context.locale, theme: openai.theme ?? seen.context.theme });
  if (openai.toolInput && typeof openai.toolInput === 'object') seen.args = openai.toolInput;
  const output = openai.toolOutput;
  if (output && typeof output === 'object') seen.result = { structuredContent: output, isError: Boolean(output.error) };
  draw();
}

async function connect() {
  if (!framed) return;
  const answer = await ask('ui/initialize', {
    appInfo: APP_INFO,
    appCapabilities: { availableDisplayModes: ['inline'] },
    protocolVersion: PROTOCOL_VERSION,
  });
  if (!answer) return; // not an MCP Apps host (ChatGPT's globals may still draw)
  applyContext(answer.hostContext);
  notify('ui/notifications/initialized', {});
  initialized = true;
  sent = null; // the host hears the size now
  draw();
}

window.addEventListener('message', received);
window.addEventListener('openai:set_globals', fromOpenAI);
window.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', () => applyContext({}));
new ResizeObserver(measure).observe(document.documentElement);
applyContext({});
draw();
fromOpenAI();
connect();
