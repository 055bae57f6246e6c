// The generic screen: how a game without a screen of its own is played (a
// fifth game, before anyone draws it). It shows the public parts of the
// game's view as the server sends them, and the legal moves as buttons with
// the server's labels: a complete move is sent as it is; a move made of
// parts is completed by picking its parts in order (parts.ts, the rule of
// the LegalMove schema), then sent. It knows no game.
import {h} from './lib';
import {pickable, ready, complete, partsOf} from './parts';
import type {Listing, Move, Screen, Table} from './screen';

// Choosing is the move being completed: the listing's entry and the parts
// picked so far (indexes into its pool).
export type Choosing = {entry: number; picked: number[]};

// Offer is what the generic screen offers a player now, worked out from
// the listing alone (no DOM), so that it can be checked without a browser:
// nothing to do; the listed moves, each a button with the server's label
// (a complete move is sent as listed, one made of parts is chosen first);
// or the parts of the move being chosen, with what is chosen so far and
// the move to send once enough are (null before).
export type Offer =
  | {kind: 'nothing'}
  | {kind: 'moves'; moves: {entry: number; label: string; send: Move | null}[]}
  | {kind: 'parts'; label: string; chosen: string[]; parts: {part: number; label: string}[]; send: Move | null};

// offer is what l offers while choosing (null: no move being chosen). The
// corrections (take-backs, a mis-draw report) are every screen's Undo and
// Correct panel, not offered here.
export function offer(l: Listing, choosing: Choosing | null | undefined): Offer {
  const entry = choosing && l.moves[choosing.entry];
  if (choosing && entry) {
    const parts = partsOf(l.pools, entry);
    const picked = choosing.picked;
    return {kind: 'parts', label: entry.label, chosen: picked.map((i) => parts[i].label),
      parts: pickable(l.pools, entry, picked).map((i) => ({part: i, label: parts[i].label})),
      send: ready(l.pools, entry, picked) ? (complete(l.pools, entry, picked) as Move) : null};
  }
  const moves = (l.moves || []).flatMap((e, i) => (e.correction ? [] : [{entry: i, label: e.label, send: e.choose ? null : (e.move as Move)}]));
  return moves.length ? {kind: 'moves', moves} : {kind: 'nothing'};
}

// shown writes a value of the view as text: lists and objects as compact
// JSON, the way the API's documentation shows them.
export function shown(v: unknown): string {
  if (v === null || v === undefined) return '–';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

// fields lists an object's members as a definition list.
function fields(o: object, testid: string): HTMLElement {
  return h('dl', {class: 'generic-fields', 'data-testid': testid}, Object.entries(o).flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, shown(v))]));
}

function moves(table: Table): HTMLElement | null {
  const l = table.legal;
  if (!l || table.view.ended) return null;
  const t = table.t;
  const sec = h('section', {class: 'action', 'aria-labelledby': 'act-h', 'data-testid': 'generic-moves'}, h('h2', {id: 'act-h'}, t('app.generic.moves')));
  const choosing = table.ui.choosing as Choosing | undefined;
  const o = offer(l, choosing);
  const choose = (c: Choosing | undefined) => { table.ui.choosing = c; table.redraw(); };
  if (o.kind === 'parts' && choosing) {
    const send = o.send;
    sec.append(h('p', {}, o.label),
      h('p', {role: 'status'}, t('app.generic.chosen', {parts: o.chosen.length ? table.tlist(o.chosen) : t('app.none')})),
      h('div', {class: 'buttons'}, o.parts.map(({part, label}) => h('button', {type: 'button', 'data-k': 'part-' + part, 'data-part': part,
        onclick: () => choose({entry: choosing.entry, picked: [...choosing.picked, part]})}, label))),
      h('div', {class: 'buttons'},
        h('button', {type: 'button', class: 'primary', 'data-k': 'send', 'data-action': 'send', disabled: !send,
          onclick: () => send && table.send(send)}, t('app.generic.send')),
        o.chosen.length ? h('button', {type: 'button', 'data-k': 'clear', onclick: () => choose({entry: choosing.entry, picked: []})}, t('app.clear')) : null,
        h('button', {type: 'button', 'data-k': 'back', onclick: () => choose(undefined)}, t('app.back'))));
    return sec;
  }
  if (o.kind !== 'moves') {
    sec.append(h('p', {}, t('app.generic.nothing')));
    return sec;
  }
  sec.append(h('ul', {class: 'buttons'}, o.moves.map(({entry, label, send}) => h('li', {}, h('button', {type: 'button', 'data-k': 'move-' + entry, 'data-move': entry,
    onclick: () => (send ? table.send(send) : choose({entry, picked: []}))}, label)))));
  return sec;
}

export const generic: Screen = {
  ruleset: '',
  render(table) {
    const v = table.view;
    const t = table.t;
    const state = v.state && typeof v.state === 'object' ? v.state : {};
    return h('div', {class: 'generic', 'data-ruleset': v.ruleset},
      table.heading(v.ruleset),
      h('p', {class: 'note'}, t('app.game.no-screen')),
      moves(table),
      v.ended && table.score ? h('section', {class: 'final', 'aria-labelledby': 'final-h', 'data-testid': 'final'},
        h('h2', {id: 'final-h'}, t('app.score.final')), fields(table.score, 'generic-score')) : null,
      h('section', {'aria-labelledby': 'state-h'}, h('h2', {id: 'state-h'}, t('app.generic.table')), fields(state, 'generic-state')));
  },
};
