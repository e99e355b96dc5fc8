// The Applejack orchard drawn as 19 pointy-top hexes (rows of 3, 4, 5, 4, 3; field 1 top
// left, 10 the centre). Each hex is a button named by its label (what it draws is hidden
// from screen readers); one of them is in the Tab order and the arrow keys move between
// them (left/right along a row, up/down to the nearest hex of the next row), Home/End to
// the ends of a row.

import { h, s, onPage, unchanged } from './dom.js';
import { getLang, t } from './i18n.js';

const SIZE = 40; // hex radius in SVG units
const ROOT3 = Math.sqrt(3);
export const EDGES = ['e', 'se', 'sw', 'w', 'nw', 'ne']; // clockwise from the right
const EDGE_ANGLE = { e: 0, se: 60, sw: 120, w: 180, nw: 240, ne: 300 };
export const VARIETIES = ['red', 'light_green', 'yellow', 'orange', 'pink', 'brown', 'seventh'];
// Dark enough for white numbers on them (contrast 4.5:1 or more).
export const AREA_COLORS = ['#7b1fa2', '#00796b', '#b34700', '#1565c0', '#c2185b', '#3f6f1f', '#5d4037', '#283593'];

/** Fields 1-19 with axial coordinates, in reading order (rules/applejack.md). */
export const FIELDS = [];
for (let r = -2; r <= 2; r += 1) {
  for (let q = Math.max(-2, -2 - r); q <= Math.min(2, 2 - r); q += 1) FIELDS.push({ field: FIELDS.length + 1, q, r });
}

function centre({ q, r }) {
  return [SIZE * ROOT3 * (q + r / 2), SIZE * 1.5 * r];
}
function corners(x, y, radius) {
  return [0, 1, 2, 3, 4, 5].map((k) => {
    const a = (Math.PI / 180) * (60 * k - 90);
    return `${(x + radius * Math.cos(a)).toFixed(1)},${(y + radius * Math.sin(a)).toFixed(1)}`;
  }).join(' ');
}
function toward(x, y, edge, distance) {
  const a = (Math.PI / 180) * EDGE_ANGLE[edge];
  return [x + distance * Math.cos(a), y + distance * Math.sin(a)];
}

/** A spoken/visible summary of a tile, e.g. "赤2、花1、巣箱（右・左）価格3". */
export function describeTile(tile) {
  if (!tile) return t('aj.empty');
  if (tile.pasture) return t('aj.pasture');
  const parts = Object.entries(tile.apples).filter(([, n]) => n > 0).map(([v, n]) => t('aj.tile.apples', { variety: t(`aj.variety.${v}`), n }));
  if (tile.blossoms > 0) parts.push(t('aj.tile.blossoms', { n: tile.blossoms }));
  if (tile.beehives.length) {
    parts.push(t('aj.tile.beehives', {
      edges: tile.beehives.map((e) => t(`aj.edge.${e}`)).join(t('aj.edgeSeparator')), price: tile.price ?? t('aj.tile.noPrice'),
    }));
  }
  return parts.join(t('aj.separator')) || t('aj.treeBlank');
}

/** The field the arrow `key` leads to from `field` (undefined at the edge of the orchard). */
export function fieldToward(field, key) {
  const place = FIELDS[field - 1];
  const row = FIELDS.filter((p) => p.r === place.r);
  const i = row.indexOf(place);
  if (key === 'ArrowLeft') return row[i - 1]?.field;
  if (key === 'ArrowRight') return row[i + 1]?.field;
  if (key === 'Home') return row[0].field;
  if (key === 'End') return row.at(-1).field;
  const step = { ArrowUp: -1, ArrowDown: 1 }[key];
  if (!step) return undefined;
  const [x] = centre(place);
  let best;
  let bestDistance = Infinity;
  // The nearest hex of the next row; between two as near, up takes the right one and down
  // the left one, so that up then down comes back.
  for (const p of FIELDS.filter((other) => other.r === place.r + step)) {
    const distance = Math.round(Math.abs(centre(p)[0] - x));
    if (distance < bestDistance || (distance === bestDistance && step < 0)) [best, bestDistance] = [p, distance];
  }
  return best?.field;
}

function tileContent(tile, x, y) {
  if (!tile) return [s('text', { x, y: y + 5, class: 'hex-plus', 'aria-hidden': 'true' }, '+')];
  if (tile.pasture) return [s('text', { x, y: y + 4, class: 'hex-pasture-text' }, t('aj.pastureShort'))];
  const out = [];
  const apples = Object.entries(tile.apples).filter(([, n]) => n > 0);
  const perRow = 3;
  apples.forEach(([variety, n], k) => {
    const row = Math.floor(k / perRow);
    const inRow = Math.min(perRow, apples.length - row * perRow);
    const ax = x + ((k % perRow) - (inRow - 1) / 2) * 19;
    const ay = y - 4 + row * 19 - (apples.length > perRow ? 9 : 0);
    out.push(s('circle', { cx: ax, cy: ay, r: 9, class: `apple v-${variety}` }));
    out.push(s('text', { x: ax, y: ay + 4, class: `apple-n v-${variety}` }, String(n)));
  });
  if (tile.blossoms > 0) out.push(s('text', { x, y: y + 22, class: 'hex-blossom' }, `✿${tile.blossoms}`));
  for (const edge of tile.beehives) {
    const [bx, by] = toward(x, y, edge, SIZE * 0.64);
    out.push(hiveMark(bx, by), s('text', { x: bx, y: by + 3.5, class: 'hive-n' }, String(tile.price ?? '?')));
  }
  return out;
}

/** A beehive: a flat-topped hexagon (an apple is a circle), in the colour of honey. */
function hiveMark(x, y, radius = 7.5) {
  const points = [0, 1, 2, 3, 4, 5].map((k) => {
    const a = (Math.PI / 3) * k;
    return `${(x + radius * Math.cos(a)).toFixed(1)},${(y + radius * Math.sin(a)).toFixed(1)}`;
  }).join(' ');
  return s('polygon', { points, class: 'hive' });
}

/** What the marks on the orchard mean: an apple, a beehive and a blossom, each with its word. */
export function orchardLegend() {
  const mark = (...shapes) => s('svg', { viewBox: '-10 -10 20 20', class: 'aj-legend-mark', 'aria-hidden': 'true' }, ...shapes);
  return h('ul', { class: 'aj-legend', testid: 'aj-legend', 'aria-label': t('aj.legend') },
    h('li', null, mark(s('circle', { r: 8, class: 'apple v-red' })), t('aj.legend.apple')),
    h('li', { testid: 'aj-legend-hive' }, mark(hiveMark(0, 0, 9)), t('aj.legend.hive')),
    h('li', null, h('span', { class: 'aj-legend-blossom', 'aria-hidden': 'true' }, '✿'), t('aj.legend.blossom')));
}

/**
 * The orchard SVG. `tiles` maps field -> tile; `areaOf` maps field -> area index (for the
 * highlight); `errorFields` is a Set of fields with errors; `onPick(field)` on click/Enter;
 * `focusable` is the hex in the Tab order, `onFocusHex(field)` says which one has the focus.
 * `drawn` (a Map the caller keeps for one orchard on the page, with the same `onPick` and
 * `onFocusHex` every time) remembers the hexes drawn: a hex that would be drawn the same
 * stays the page's node (unchanged), so a patch redraws only the hexes that changed.
 */
export function orchardSvg({ tiles, selected, areaOf, errorFields, onPick, focusable, onFocusHex, drawn = null }) {
  const width = SIZE * ROOT3 * 5 + 8;
  const height = SIZE * 8 + 8;
  const inTabOrder = focusable || selected || 1;
  const move = (from, key) => {
    const to = fieldToward(from, key);
    const target = to && document.getElementById(`aj-field-${to}`);
    if (!target) return;
    for (const hex of target.parentNode.querySelectorAll('[role="button"]')) hex.setAttribute('tabindex', hex === target ? '0' : '-1');
    target.focus();
  };
  const hexes = FIELDS.map((place) => {
    const tile = tiles[place.field];
    const area = areaOf.get(place.field);
    const look = JSON.stringify([tile ?? null, area ?? null, errorFields.has(place.field), selected === place.field, place.field === inTabOrder, getLang()]);
    const before = drawn?.get(place.field);
    if (before?.look === look) return before.nodes.map((node) => unchanged(onPage(node)));
    const nodes = hexNodes(place, tile, area);
    drawn?.set(place.field, { look, nodes });
    return nodes;
  });
  return s('svg', {
    viewBox: `${-width / 2} ${-height / 2} ${width} ${height}`, class: 'orchard', testid: 'aj-orchard',
    role: 'group', 'aria-label': t('aj.orchard'),
  }, hexes);

  function hexNodes(place, tile, area) {
    const [x, y] = centre(place);
    const classes = ['hex', tile ? (tile.pasture ? 'pasture' : 'tree') : 'empty'];
    if (area !== undefined) classes.push('hl');
    if (errorFields.has(place.field)) classes.push('has-error');
    if (selected === place.field) classes.push('selected');
    const label = `${t('aj.fieldN', { n: place.field })}: ${describeTile(tile)}${area !== undefined ? ` · ${t('aj.areaN', { n: area + 1 })}` : ''}`
      + (errorFields.has(place.field) ? t('aj.hexToFix') : '');
    const pick = () => onPick(place.field);
    const style = area !== undefined ? `--area: ${AREA_COLORS[area % AREA_COLORS.length]}` : null;
    // The button is the hex itself; what is drawn on it follows in a group screen readers
    // and pointers pass through (the label says it all).
    return [
      s('g', {
        class: classes.join(' '), role: 'button', tabindex: place.field === inTabOrder ? 0 : -1, id: `aj-field-${place.field}`, testid: `aj-field-${place.field}`,
        'data-area': area !== undefined ? String(area + 1) : null, 'aria-label': label, 'aria-pressed': String(selected === place.field),
        style,
        onclick: pick,
        onfocus: () => onFocusHex?.(place.field),
        onkeydown: (e) => {
          if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); pick(); return; }
          if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'].includes(e.key)) { e.preventDefault(); move(place.field, e.key); }
        },
      },
      s('title', null, label),
      s('polygon', { points: corners(x, y, SIZE - 1.5), class: 'hex-shape' })),
      s('g', { class: `${classes.join(' ')} hex-marks`, 'aria-hidden': 'true', 'pointer-events': 'none', style },
        s('text', { x, y: y - SIZE * 0.58, class: 'hex-num' }, String(place.field)),
        ...tileContent(tile, x, y),
        area !== undefined ? s('circle', { cx: x, cy: y + 30, r: 6.5, class: 'area-dot' }) : null,
        area !== undefined ? s('text', { x, y: y + 33, class: 'area-tag' }, String(area + 1)) : null),
    ];
  }
}
