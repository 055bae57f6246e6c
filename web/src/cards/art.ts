// Pictures of the cards' symbols, drawn as inline SVG (no image is
// downloaded): the helpers each game's own art (domain/<game>/app/art.ts)
// draws with. Each function returns an <svg>
// element; one with a label is an image a screen reader names, one without
// is decoration next to words that say the same.
const NS = 'http://www.w3.org/2000/svg';

// Shape is what a picture is drawn from: elements, nested lists of them,
// and gaps (null, false) that draw nothing.
export type Shape = SVGElement | string | null | undefined | false | readonly Shape[];

// el builds an SVG element: el('circle', {cx: 12, cy: 12, r: 9}).
export function el(tag: string, attrs: Record<string, unknown> | null, ...kids: Shape[]): SVGElement {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  for (const k of (kids as unknown[]).flat(Infinity)) if (k instanceof Node || (typeof k === 'string' && k)) e.append(k);
  return e;
}

// svg wraps shapes in a 24x24 picture; label makes it an image with a name.
export function svg(shapes: Shape, label: string | null | undefined, cls: string | null | undefined, box = '0 0 24 24'): SVGElement {
  const s = el('svg', {viewBox: box, class: 'art' + (cls ? ' ' + cls : ''), focusable: 'false'}, shapes);
  if (label) {
    s.setAttribute('role', 'img');
    s.setAttribute('aria-label', label);
  } else s.setAttribute('aria-hidden', 'true');
  return s;
}

export const text = (x: number, y: number, t: string | number, attrs = {}) => el('text', {x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-size': 11, 'font-weight': 700, 'font-family': 'system-ui, sans-serif', ...attrs}, String(t));
