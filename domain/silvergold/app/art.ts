// Silver & Gold's coins, palm trees, red crosses, cups and seals, drawn as inline SVG
// with the helpers of web/src/cards/art.ts (no image is downloaded).
import {el, svg, text} from '../../../web/src/cards/art';

export const coin = (label?: string | null) => svg([
  el('circle', {cx: 12, cy: 12, r: 9.5, fill: '#f2c94c', stroke: '#8a6100', 'stroke-width': 1.5}),
  el('circle', {cx: 12, cy: 12, r: 6, fill: 'none', stroke: '#8a6100', 'stroke-width': 1.2}),
  el('path', {d: 'M9.5 13.5l2.5-5 2.5 5z', fill: '#8a6100'}),
], label, 'coin-art');

export const palm = (label?: string | null) => svg([
  el('path', {d: 'M11.2 22c.6-4 .8-8 .4-12.5h1.6c.6 4.5.4 8.5-.2 12.5z', fill: '#7a4a1c'}),
  el('path', {d: 'M12.4 9.6C10 6.6 6.2 6.2 2.8 8c3-.2 5.4.6 7 2.6M12.4 9.6c2.4-3 6.2-3.4 9.6-1.6-3-.2-5.4.6-7 2.6M12.4 9.6c-1.2-3.4-4-5.6-7.4-5.8 2.6 1.4 4 3.2 4.8 5.4M12.4 9.6c1.2-3.4 4-5.6 7.4-5.8-2.6 1.4-4 3.2-4.8 5.4M12.4 9.6c-3.2-.4-6 1.4-7.4 4.6 2-1.8 4.2-2.6 6.4-2.4M12.4 9.6c3.2-.4 6 1.4 7.4 4.6-2-1.8-4.2-2.6-6.4-2.4',
    fill: '#2e7d32', stroke: '#1d6b2a', 'stroke-width': 1.4, 'stroke-linejoin': 'round'}),
], label, 'palm-art');

export const redCross = (label?: string | null) => svg([
  el('path', {d: 'M9 3h6v6h6v6h-6v6H9v-6H3V9h6z', fill: '#c8102e', stroke: '#7a000f', 'stroke-width': 1}),
], label, 'cross-art');

// crossedOut is the pen stroke over a crossed box.
export const crossedOut = () => svg([el('path', {d: 'M4 4l16 16M20 4L4 20', stroke: '#1b1b1b', 'stroke-width': 2.6, 'stroke-linecap': 'round'})], null, 'pen-art');

export const cup = (value: number | undefined, label?: string | null) => svg([
  el('path', {d: 'M6 3h12v3.5c0 4-2.4 6.5-6 6.5s-6-2.5-6-6.5z', fill: value ? '#f2c94c' : '#fff', stroke: '#8a6100', 'stroke-width': 1.4}),
  el('path', {d: 'M6 5H3.5c0 3 1.2 4.6 3.4 5M18 5h2.5c0 3-1.2 4.6-3.4 5', fill: 'none', stroke: '#8a6100', 'stroke-width': 1.4}),
  el('path', {d: 'M10.5 13h3v4h-3zM7.5 20h9v2h-9zM9 17h6v3H9z', fill: '#8a6100'}),
  value ? text(12, 7.5, value, {'font-size': 7, fill: '#1b1b1b'}) : null,
], label, 'cup-art');

const COLOUR: Record<string, string> = {grey: '#6e6e6e', green: '#2e7d32', orange: '#d9700a', purple: '#6a3d9a'};

// seal is a wax seal in the colour it names, with its points per card.
export const seal = (colour: string, points: number, label?: string | null) => svg([
  el('path', {d: 'M12 1.5l2.3 1.8 2.9-.4 1.1 2.7 2.7 1.1-.4 2.9 1.8 2.3-1.8 2.3.4 2.9-2.7 1.1-1.1 2.7-2.9-.4L12 22.5l-2.3-1.8-2.9.4-1.1-2.7-2.7-1.1.4-2.9L1.5 12l1.8-2.3-.4-2.9 2.7-1.1 1.1-2.7 2.9.4z',
    fill: COLOUR[colour] || '#555', stroke: '#1b1b1b', 'stroke-width': 0.8}),
  el('circle', {cx: 12, cy: 12, r: 6.5, fill: 'none', stroke: '#fff', 'stroke-width': 1}),
  // Its points as pips (1 or 2), which a tapped card's name says in words.
  points > 1 ? [el('circle', {cx: 9.5, cy: 12, r: 2, fill: '#fff'}), el('circle', {cx: 14.5, cy: 12, r: 2, fill: '#fff'})] : el('circle', {cx: 12, cy: 12, r: 2.2, fill: '#fff'}),
], label, 'seal-art');

// symbol draws one box's symbol of a Silver & Gold card: c coin, p palm
// tree, x red cross (o is a blank box: nothing).
export function symbol(ch: string) {
  if (ch === 'c') return coin();
  if (ch === 'p') return palm();
  if (ch === 'x') return redCross();
  return null;
}

