// The generic screen: how a game without a screen of its own is played (a
// fifth game, before anyone draws it). It shows the public parts of the
// game's view as the server sends them, and the legal moves as buttons with
// the server's labels: a complete move is sent as it is; a move made of
// parts is completed by picking its parts in order (parts.ts, the rule of
// the LegalMove schema), then sent. It knows no game.
import {h} from './lib';
import {pickable, ready, complete, partsOf} from './parts';
import type {Move, Screen, Table} from './screen';

// Choosing is the move being completed: the listing's entry and the parts
// picked so far (indexes into its pool).
type Choosing = {entry: number; picked: number[]};

// shown writes a value of the view as text: lists and objects as compact
// JSON, the way the API's documentation shows them.
export function shown(v: unknown): string {
  if (v === null || v === undefined) return '–';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

// fields lists an object's members as a definition list.
function fields(o: Record<string, unknown>, testid: string): HTMLElement {
  return h('dl', {class: 'generic-fields', 'data-testid': testid}, Object.entries(o).flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, shown(v))]));
}

function moves(table: Table): HTMLElement | null {
  const l = table.legal;
  if (!l || table.view.ended) return null;
  const t = table.t;
  const entries = (l.moves || []).map((e, i) => ({e, i})).filter(({e}) => !e.correction);
  const sec = h('section', {class: 'action', 'aria-labelledby': 'act-h', 'data-testid': 'generic-moves'}, h('h2', {id: 'act-h'}, t('app.generic.moves')));
  const choosing = table.ui.choosing as Choosing | undefined;
  const entry = choosing && l.moves[choosing.entry];
  if (choosing && entry) {
    const parts = partsOf(l.pools, entry);
    const picked = choosing.picked;
    sec.append(h('p', {}, entry.label),
      h('p', {role: 'status'}, t('app.generic.chosen', {parts: picked.length ? table.tlist(picked.map((i) => parts[i].label)) : t('app.none')})),
      h('div', {class: 'buttons'}, pickable(l.pools, entry, picked).map((i) => h('button', {type: 'button', 'data-k': 'part-' + i, 'data-part': i,
        onclick: () => { table.ui.choosing = {entry: choosing.entry, picked: [...picked, i]}; table.redraw(); }}, parts[i].label))),
      h('div', {class: 'buttons'},
        h('button', {type: 'button', class: 'primary', 'data-k': 'send', 'data-action': 'send', disabled: !ready(l.pools, entry, picked),
          onclick: () => table.send(complete(l.pools, entry, picked) as Move)}, t('app.generic.send')),
        picked.length ? h('button', {type: 'button', 'data-k': 'clear', onclick: () => { table.ui.choosing = {entry: choosing.entry, picked: []}; table.redraw(); }}, t('app.clear')) : null,
        h('button', {type: 'button', 'data-k': 'back', onclick: () => { table.ui.choosing = undefined; table.redraw(); }}, t('app.back'))));
    return sec;
  }
  if (!entries.length) {
    sec.append(h('p', {}, t('app.generic.nothing')));
    return sec;
  }
  sec.append(h('ul', {class: 'buttons'}, entries.map(({e, i}) => h('li', {}, h('button', {type: 'button', 'data-k': 'move-' + i, 'data-move': i,
    onclick: () => {
      if (!e.choose) {
        table.send(e.move as Move);
        return;
      }
      table.ui.choosing = {entry: i, picked: []};
      table.redraw();
    }}, e.label)))));
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
