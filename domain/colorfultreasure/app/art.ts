// Colorful Treasure's wonder silhouettes and gems (diamonds, keys and chests
// too; its score sheet draws them), drawn as inline SVG
// with the helpers of web/src/cards/art.ts (no image is downloaded).
import {el, svg} from '../../../web/src/cards/art';

// The wonders' silhouettes, one path each (a 24x16 box), as a card back shows its wonder.
const WONDER: Record<string, string> = {
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
export const wonderArt = (id: string, label?: string | null) => svg([el('path', {d: WONDER[id] || 'M2 16V4h20v12z', fill: 'currentColor'})], label, 'wonder-art', '0 0 24 16');

const GEM: Record<string, [string, string]> = {red: ['#c8102e', '#ff8a9a'], yellow: ['#f2c200', '#fff2a8'], green: ['#1d8a3a', '#9be0ad'], blue: ['#0b5cad', '#9cc8f2'], purple: ['#6a3d9a', '#c9a8ea']};

// gem draws a cut gem of a colour; diamond, key and chest their kinds.
export function gem(kind: string, label?: string | null) {
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

