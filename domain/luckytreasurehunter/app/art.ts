// Lucky Treasure Hunter's treasures and pirate die, drawn as inline SVG
// with the helpers of web/src/cards/art.ts (no image is downloaded).
import {el, svg} from '../../../web/src/cards/art';

const TREASURE: Record<string, (c: SVGElement | null) => (SVGElement | null)[]> = {
  silver: (c) => [el('path', {d: 'M4 15l3-6h10l3 6z', fill: '#c9ced6', stroke: '#4a5058', 'stroke-width': 1.3, 'stroke-linejoin': 'round'}),
    el('path', {d: 'M4 15h16v3H4z', fill: '#9aa1ab', stroke: '#4a5058', 'stroke-width': 1.3}), el('path', {d: 'M8.5 11h4', stroke: '#fff', 'stroke-width': 1.2, 'stroke-linecap': 'round'}), c],
  gold: (c) => [el('circle', {cx: 9, cy: 14, r: 6, fill: '#f2c94c', stroke: '#8a6100', 'stroke-width': 1.3}), el('circle', {cx: 15, cy: 10, r: 6, fill: '#f7d96b', stroke: '#8a6100', 'stroke-width': 1.3}),
    el('circle', {cx: 15, cy: 10, r: 3.2, fill: 'none', stroke: '#8a6100', 'stroke-width': 1}), c],
  pearl: (c) => [el('path', {d: 'M3 16c2-7 16-7 18 0-2 4-16 4-18 0z', fill: '#5b6b7a', stroke: '#2a3440', 'stroke-width': 1.2}),
    el('circle', {cx: 12, cy: 11.5, r: 4.5, fill: '#fbfbf8', stroke: '#6b6b6b', 'stroke-width': 1.2}), el('circle', {cx: 10.5, cy: 10, r: 1.3, fill: '#fff'}), c],
  ruby: (c) => [el('path', {d: 'M7 4h10l4 5-9 12L3 9z', fill: '#c8102e', stroke: '#6b0010', 'stroke-width': 1.3, 'stroke-linejoin': 'round'}),
    el('path', {d: 'M3 9h18M9 4l-2 5 5 12 5-12-2-5', fill: 'none', stroke: '#ff8a9a', 'stroke-width': 1}), c],
  jade: (c) => [el('circle', {cx: 12, cy: 12, r: 9, fill: '#3a9d5d', stroke: '#1d6b2a', 'stroke-width': 1.3}),
    el('circle', {cx: 12, cy: 12, r: 3.2, fill: '#fff', stroke: '#1d6b2a', 'stroke-width': 1.2}), el('path', {d: 'M6 9a7 7 0 0 1 4-3.5', stroke: '#b8e6c6', 'stroke-width': 1.2, fill: 'none', 'stroke-linecap': 'round'}), c],
};

// treasure draws a Lucky Treasure Hunter treasure.
export const treasure = (t: string, label?: string | null) => svg((TREASURE[t] || TREASURE.silver)(null), label, 'treasure-art t-' + t);

// pirate is the die face that counts; blank is the other.
export const pirate = (label?: string | null) => svg([
  el('path', {d: 'M12 3.5c-4.4 0-7.5 3-7.5 7 0 2.5 1.2 4.2 3 5.2V19h9v-3.3c1.8-1 3-2.7 3-5.2 0-4-3.1-7-7.5-7z', fill: '#fff'}),
  el('circle', {cx: 9, cy: 10.5, r: 2, fill: '#1b1b1b'}), el('circle', {cx: 15, cy: 10.5, r: 2, fill: '#1b1b1b'}),
  el('path', {d: 'M11 14.5h2l-1-1.8z', fill: '#1b1b1b'}), el('path', {d: 'M10 17v2M12 17v2M14 17v2', stroke: '#1b1b1b', 'stroke-width': 0.9}),
  el('path', {d: 'M4 3.5l3 2M20 3.5l-3 2', stroke: '#c8102e', 'stroke-width': 1.6, 'stroke-linecap': 'round'}),
], label, 'pirate-art');

