// Pictures of the cards' symbols, drawn as inline SVG (no image is
// downloaded): the helpers each game's own art (domain/<game>/app/art.ts)
// draws with. Each function returns an <svg>
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
