// Pictures of the cards' symbols, drawn as inline SVG (no image is
// downloaded): Silver & Gold's coins, palm trees, red crosses, cups and
// seals; Lucky Treasure Hunter's treasures and dice; Colorful Treasure's
// gems, diamonds, keys, chests and wonders. Each function returns an <svg>
// element; one with a label is an image a screen reader names, one without
// is decoration next to words that say the same.
const NS = 'http://www.w3.org/2000/svg';

// el builds an SVG element: el('circle', {cx: 12, cy: 12, r: 9}).
function el(tag: any, attrs: any, ...kids: any[]) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  for (const k of kids.flat(Infinity)) if (k) e.append(k);
  return e;
}

// svg wraps shapes in a 24x24 picture; label makes it an image with a name.
export function svg(shapes: any, label: any, cls: any, box = '0 0 24 24') {
  const s = el('svg', {viewBox: box, class: 'art' + (cls ? ' ' + cls : ''), focusable: 'false'}, shapes);
  if (label) {
    s.setAttribute('role', 'img');
    s.setAttribute('aria-label', label);
  } else s.setAttribute('aria-hidden', 'true');
  return s;
}

const text = (x: any, y: any, t: any, attrs = {}) => el('text', {x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-size': 11, 'font-weight': 700, 'font-family': 'system-ui, sans-serif', ...attrs}, String(t));

// ---- Silver & Gold ----

export const coin = (label: any) => svg([
  el('circle', {cx: 12, cy: 12, r: 9.5, fill: '#f2c94c', stroke: '#8a6100', 'stroke-width': 1.5}),
  el('circle', {cx: 12, cy: 12, r: 6, fill: 'none', stroke: '#8a6100', 'stroke-width': 1.2}),
  el('path', {d: 'M9.5 13.5l2.5-5 2.5 5z', fill: '#8a6100'}),
], label, 'coin-art');

export const palm = (label: any) => svg([
  el('path', {d: 'M11.2 22c.6-4 .8-8 .4-12.5h1.6c.6 4.5.4 8.5-.2 12.5z', fill: '#7a4a1c'}),
  el('path', {d: 'M12.4 9.6C10 6.6 6.2 6.2 2.8 8c3-.2 5.4.6 7 2.6M12.4 9.6c2.4-3 6.2-3.4 9.6-1.6-3-.2-5.4.6-7 2.6M12.4 9.6c-1.2-3.4-4-5.6-7.4-5.8 2.6 1.4 4 3.2 4.8 5.4M12.4 9.6c1.2-3.4 4-5.6 7.4-5.8-2.6 1.4-4 3.2-4.8 5.4M12.4 9.6c-3.2-.4-6 1.4-7.4 4.6 2-1.8 4.2-2.6 6.4-2.4M12.4 9.6c3.2-.4 6 1.4 7.4 4.6-2-1.8-4.2-2.6-6.4-2.4',
    fill: '#2e7d32', stroke: '#1d6b2a', 'stroke-width': 1.4, 'stroke-linejoin': 'round'}),
], label, 'palm-art');

export const redCross = (label: any) => svg([
  el('path', {d: 'M9 3h6v6h6v6h-6v6H9v-6H3V9h6z', fill: '#c8102e', stroke: '#7a000f', 'stroke-width': 1}),
], label, 'cross-art');

// crossedOut is the pen stroke over a crossed box.
export const crossedOut = () => svg([el('path', {d: 'M4 4l16 16M20 4L4 20', stroke: '#1b1b1b', 'stroke-width': 2.6, 'stroke-linecap': 'round'})], null, 'pen-art');

export const cup = (value: any, label: any) => svg([
  el('path', {d: 'M6 3h12v3.5c0 4-2.4 6.5-6 6.5s-6-2.5-6-6.5z', fill: value ? '#f2c94c' : '#fff', stroke: '#8a6100', 'stroke-width': 1.4}),
  el('path', {d: 'M6 5H3.5c0 3 1.2 4.6 3.4 5M18 5h2.5c0 3-1.2 4.6-3.4 5', fill: 'none', stroke: '#8a6100', 'stroke-width': 1.4}),
  el('path', {d: 'M10.5 13h3v4h-3zM7.5 20h9v2h-9zM9 17h6v3H9z', fill: '#8a6100'}),
  value ? text(12, 7.5, value, {'font-size': 7, fill: '#1b1b1b'}) : null,
], label, 'cup-art');

const COLOUR = {grey: '#6e6e6e', green: '#2e7d32', orange: '#d9700a', purple: '#6a3d9a'};

// seal is a wax seal in the colour it names, with its points per card.
export const seal = (colour: any, points: any, label: any) => svg([
  el('path', {d: 'M12 1.5l2.3 1.8 2.9-.4 1.1 2.7 2.7 1.1-.4 2.9 1.8 2.3-1.8 2.3.4 2.9-2.7 1.1-1.1 2.7-2.9-.4L12 22.5l-2.3-1.8-2.9.4-1.1-2.7-2.7-1.1.4-2.9L1.5 12l1.8-2.3-.4-2.9 2.7-1.1 1.1-2.7 2.9.4z',
    fill: COLOUR[colour] || '#555', stroke: '#1b1b1b', 'stroke-width': 0.8}),
  el('circle', {cx: 12, cy: 12, r: 6.5, fill: 'none', stroke: '#fff', 'stroke-width': 1}),
  // Its points as pips (1 or 2), which a tapped card's name says in words.
  points > 1 ? [el('circle', {cx: 9.5, cy: 12, r: 2, fill: '#fff'}), el('circle', {cx: 14.5, cy: 12, r: 2, fill: '#fff'})] : el('circle', {cx: 12, cy: 12, r: 2.2, fill: '#fff'}),
], label, 'seal-art');

// symbol draws one box's symbol of a Silver & Gold card: c coin, p palm
// tree, x red cross (o is a blank box: nothing).
export function symbol(ch: any) {
  if (ch === 'c') return coin();
  if (ch === 'p') return palm();
  if (ch === 'x') return redCross();
  return null;
}

// ---- Lucky Treasure Hunter ----

const TREASURE = {
  silver: (c: any) => [el('path', {d: 'M4 15l3-6h10l3 6z', fill: '#c9ced6', stroke: '#4a5058', 'stroke-width': 1.3, 'stroke-linejoin': 'round'}),
    el('path', {d: 'M4 15h16v3H4z', fill: '#9aa1ab', stroke: '#4a5058', 'stroke-width': 1.3}), el('path', {d: 'M8.5 11h4', stroke: '#fff', 'stroke-width': 1.2, 'stroke-linecap': 'round'}), c],
  gold: (c: any) => [el('circle', {cx: 9, cy: 14, r: 6, fill: '#f2c94c', stroke: '#8a6100', 'stroke-width': 1.3}), el('circle', {cx: 15, cy: 10, r: 6, fill: '#f7d96b', stroke: '#8a6100', 'stroke-width': 1.3}),
    el('circle', {cx: 15, cy: 10, r: 3.2, fill: 'none', stroke: '#8a6100', 'stroke-width': 1}), c],
  pearl: (c: any) => [el('path', {d: 'M3 16c2-7 16-7 18 0-2 4-16 4-18 0z', fill: '#5b6b7a', stroke: '#2a3440', 'stroke-width': 1.2}),
    el('circle', {cx: 12, cy: 11.5, r: 4.5, fill: '#fbfbf8', stroke: '#6b6b6b', 'stroke-width': 1.2}), el('circle', {cx: 10.5, cy: 10, r: 1.3, fill: '#fff'}), c],
  ruby: (c: any) => [el('path', {d: 'M7 4h10l4 5-9 12L3 9z', fill: '#c8102e', stroke: '#6b0010', 'stroke-width': 1.3, 'stroke-linejoin': 'round'}),
    el('path', {d: 'M3 9h18M9 4l-2 5 5 12 5-12-2-5', fill: 'none', stroke: '#ff8a9a', 'stroke-width': 1}), c],
  jade: (c: any) => [el('circle', {cx: 12, cy: 12, r: 9, fill: '#3a9d5d', stroke: '#1d6b2a', 'stroke-width': 1.3}),
    el('circle', {cx: 12, cy: 12, r: 3.2, fill: '#fff', stroke: '#1d6b2a', 'stroke-width': 1.2}), el('path', {d: 'M6 9a7 7 0 0 1 4-3.5', stroke: '#b8e6c6', 'stroke-width': 1.2, fill: 'none', 'stroke-linecap': 'round'}), c],
};

// treasure draws a Lucky Treasure Hunter treasure.
export const treasure = (t: any, label: any) => svg((TREASURE[t] || TREASURE.silver)(null), label, 'treasure-art t-' + t);

// pirate is the die face that counts; blank is the other.
export const pirate = (label: any) => svg([
  el('path', {d: 'M12 3.5c-4.4 0-7.5 3-7.5 7 0 2.5 1.2 4.2 3 5.2V19h9v-3.3c1.8-1 3-2.7 3-5.2 0-4-3.1-7-7.5-7z', fill: '#fff'}),
  el('circle', {cx: 9, cy: 10.5, r: 2, fill: '#1b1b1b'}), el('circle', {cx: 15, cy: 10.5, r: 2, fill: '#1b1b1b'}),
  el('path', {d: 'M11 14.5h2l-1-1.8z', fill: '#1b1b1b'}), el('path', {d: 'M10 17v2M12 17v2M14 17v2', stroke: '#1b1b1b', 'stroke-width': 0.9}),
  el('path', {d: 'M4 3.5l3 2M20 3.5l-3 2', stroke: '#c8102e', 'stroke-width': 1.6, 'stroke-linecap': 'round'}),
], label, 'pirate-art');

// ---- Colorful Treasure ----

const GEM = {red: ['#c8102e', '#ff8a9a'], yellow: ['#f2c200', '#fff2a8'], green: ['#1d8a3a', '#9be0ad'], blue: ['#0b5cad', '#9cc8f2'], purple: ['#6a3d9a', '#c9a8ea']};

// gem draws a cut gem of a colour; diamond, key and chest their kinds.
export function gem(kind: any, label: any) {
  if (kind === 'diamond') {
    return svg([el('path', {d: 'M6 4h12l4 5-10 12L2 9z', fill: '#e8f4fb', stroke: '#3b6b8a', 'stroke-width': 1.3, 'stroke-linejoin': 'round'}),
      el('path', {d: 'M2 9h20M8 4l-2 5 6 12 6-12-2-5M12 4l-3 5h6z', fill: 'none', stroke: '#7fb2d4', 'stroke-width': 0.9})], label, 'kind-art k-diamond');
  }
  if (kind === 'key') {
    return svg([el('circle', {cx: 7.5, cy: 12, r: 4.5, fill: 'none', stroke: '#8a6100', 'stroke-width': 2.4}),
      el('path', {d: 'M12 12h10M18.5 12v4M21.5 12v3', stroke: '#8a6100', 'stroke-width': 2.4, 'stroke-linecap': 'round'})], label, 'kind-art k-key');
  }
  if (kind === 'chest') {
    return svg([el('path', {d: 'M3 10c0-4 3-6 9-6s9 2 9 6z', fill: '#a0622a', stroke: '#4a2a0c', 'stroke-width': 1.2}),
      el('path', {d: 'M3 10h18v10H3z', fill: '#b8742f', stroke: '#4a2a0c', 'stroke-width': 1.2}),
      el('path', {d: 'M3 10h18', stroke: '#f2c94c', 'stroke-width': 1.6}), el('path', {d: 'M10.5 9h3v4h-3z', fill: '#f2c94c', stroke: '#4a2a0c', 'stroke-width': 0.8})], label, 'kind-art k-chest');
  }
  const [c, light] = GEM[kind] || ['#888', '#ccc'];
  return svg([el('path', {d: 'M12 2l8.5 5v10L12 22l-8.5-5V7z', fill: c, stroke: '#1b1b1b', 'stroke-width': 1}),
    el('path', {d: 'M12 6l4.5 2.7v6.6L12 18l-4.5-2.7V8.7z', fill: light, opacity: 0.55}),
    el('path', {d: 'M12 2v4M20.5 7l-4 1.7M20.5 17l-4-1.7M12 22v-4M3.5 17l4-1.7M3.5 7l4 1.7', stroke: '#1b1b1b', 'stroke-width': 0.6})], label, 'kind-art k-' + kind);
}

// The wonders' silhouettes, one path each (a 24x16 box), as a card back shows its wonder.
const WONDER = {
  'great-wall': 'M0 16V8h2V6h2v2h2V6h2v2h2V6h2v2h2V6h2v2h2V6h2v2h2V6h2v10z',
  pyramids: 'M0 16L8 3l8 13zM10 16l7-10 7 10z',
  colosseum: 'M1 16V4h22v12h-3v-4a2 2 0 0 0-4 0v4h-2v-4a2 2 0 0 0-4 0v4H8v-4a2 2 0 0 0-4 0v4z',
  'taj-mahal': 'M2 16V5h1v11zM21 16V5h1v11zM5 16V9h14v7zM7 9c0-4 2.5-6 5-7 2.5 1 5 3 5 7z',
  petra: 'M2 16V2h20v14h-7v-6a3 3 0 0 0-6 0v6zM4 4h16v2H4z',
  'machu-picchu': 'M0 16l6-9 3 3 5-9 10 15z',
  'chichen-itza': 'M1 16h22l-2-3H3zM4 12.5h16l-2-3H6zM7 9h10l-2-3H9zM10 5.5h4V3h-4z',
  'christ-redeemer': 'M11 2h2v3h9v2h-9v4l1 5h-4l1-5V7H2V5h9z',
  stonehenge: 'M1 16V7h3v9zM7 16V7h3v9zM0 4h11v3H0zM14 16V6h3v10zM20 16V6h3v10zM13 3h11v3H13z',
  'angkor-wat': 'M0 16v-4h24v4zM2 12l2-5 2 5zM18 12l2-5 2 5zM7 12l2-6 2 6zM13 12l2-6 2 6zM9 12l3-10 3 10z',
};

// wonderArt draws a wonder's silhouette (a plain mark for one this app does not know).
export const wonderArt = (id: any, label: any) => svg([el('path', {d: WONDER[id] || 'M2 16V4h20v12z', fill: 'currentColor'})], label, 'wonder-art', '0 0 24 16');
