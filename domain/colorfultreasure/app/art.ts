// Colorful Treasure's wonder silhouettes, drawn as inline SVG
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
export const wonderArt = (id: any, label?: string | null) => svg([el('path', {d: WONDER[id] || 'M2 16V4h20v12z', fill: 'currentColor'})], label, 'wonder-art', '0 0 24 16');
