// Pictures of the cards' symbols, drawn as inline SVG (no image is
// downloaded): what more than one screen draws (Colorful Treasure's gems,
// diamonds, keys and chests, which its score sheet draws too) and the
// helpers each game's own art (domain/<game>/app/art.ts) draws with. Each function returns an <svg>
// element; one with a label is an image a screen reader names, one without
// is decoration next to words that say the same.
const NS = 'http://www.w3.org/2000/svg';

// el builds an SVG element: el('circle', {cx: 12, cy: 12, r: 9}).
export function el(tag: any, attrs: any, ...kids: any[]) {
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

export const text = (x: any, y: any, t: any, attrs = {}) => el('text', {x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-size': 11, 'font-weight': 700, 'font-family': 'system-ui, sans-serif', ...attrs}, String(t));

// ---- Colorful Treasure (and its score sheet) ----

const GEM: Record<string, [string, string]> = {red: ['#c8102e', '#ff8a9a'], yellow: ['#f2c200', '#fff2a8'], green: ['#1d8a3a', '#9be0ad'], blue: ['#0b5cad', '#9cc8f2'], purple: ['#6a3d9a', '#c9a8ea']};

// gem draws a cut gem of a colour; diamond, key and chest their kinds.
export function gem(kind: any, label?: string | null) {
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

