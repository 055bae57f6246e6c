// Lucky Treasure Hunter, digital: each seat sees its hand, the sets face up
// and the moves the server lists, with the odds of a steal as the server
// works them out. A physical game's reports (the roll, the middle) are not
// drawn here yet: the screen says so.
import {h} from '../lib.js';

export const ruleset = 'lucky-treasure-hunter';
// Its events are not listed here: the screen reads the game again after
// every move event.
export const events = [];
export const refreshOnMove = true;

// The fields each move type takes (the listed options carry more: odds,
// set sizes).
const FIELDS = {place: ['type', 'seat', 'treasure', 'count'], steal: ['type', 'seat', 'owner', 'set'],
  reroll: ['type', 'seat', 'dice'], captain: ['type', 'seat'], stop: ['type', 'seat']};
const TREASURES = ['silver', 'gold', 'pearl', 'ruby', 'jade'];

export function seatName(ctx) {
  const p = ctx.view.state.players[ctx.seat];
  return p ? p.name : undefined;
}

function name(ctx, seat) {
  const p = ctx.view.state.players[seat];
  return p ? p.name : `Seat ${seat + 1}`;
}

function odds(o) {
  const c = o.chance ?? o.chance_without_cards;
  if (c === undefined || c === null) return '';
  return ` (${Math.round(c * 100)}% to take the set${o.chance === undefined || o.chance === null ? ', not counting hand cards' : ''})`;
}

function label(ctx, o) {
  const st = ctx.view.state;
  switch (o.type) {
    case 'place':
      return `Place ${o.count} ${o.treasure}`;
    case 'steal':
      return `Steal ${o.owner === undefined || o.owner === null ? 'the middle’s' : name(ctx, o.owner) + '’s'} set of ${o.size} ${o.treasure}${odds(o)}`;
    case 'reroll':
      return `Discard ${o.dice} ${st.steal ? st.steal.treasure : ''} to re-roll ${o.dice} dice${odds(o)}`;
    case 'captain':
      return `Turn your captain over: re-roll every failed die${odds(o)}`;
    case 'stop':
      return 'Stop: take nothing';
    default:
      return o.type;
  }
}

function move(o) {
  const m = {};
  for (const k of FIELDS[o.type] || Object.keys(o)) if (o[k] !== undefined && o[k] !== null) m[k] = o[k];
  return m;
}

const sets = (list) => (list.length ? list.map((s) => `${s.size} ${s.treasure}`).join(', ') : 'none');

export function render(ctx) {
  const v = ctx.view;
  const st = v.state;
  const who = ctx.role === 'host' ? 'Host' : ctx.role === 'seat' ? name(ctx, ctx.seat) : 'Spectator';
  document.title = `Lucky Treasure Hunter: ${who}`;
  const out = [h('h1', {}, `Lucky Treasure Hunter · ${who}`)];
  out.push(h('p', {class: 'phase'}, v.ended ? 'Game over' : `${name(ctx, st.turn)}’s turn (${st.phase})`,
    ` · pile: ${st.pile_size} cards · pirates on ${st.pirate_faces} of 6 faces${st.last_round ? ' · last round' : ''}`));
  if (st.steal) {
    const s = st.steal;
    out.push(h('p', {class: 'awaiting'}, `${name(ctx, s.seat)} is stealing ${s.owner === null || s.owner === undefined ? 'the middle’s' : name(ctx, s.owner) + '’s'} set of ${s.size} ${s.treasure}: ${s.pirates} pirate${s.pirates === 1 ? '' : 's'}, ${s.failed} failed ${s.failed === 1 ? 'die' : 'dice'}.`));
  }
  out.push(h('p', {}, h('strong', {}, 'In the middle: '), sets(st.middle)));
  if (v.ended && ctx.score) out.push(finalScore(ctx));
  if (st.mode === 'physical' && !v.ended) {
    out.push(h('p', {class: 'note'}, 'This app draws a digital game of Lucky Treasure Hunter; in a physical game, report the dice and the middle cards through the API (see /docs).'));
  }
  const l = ctx.legal;
  if (l && l.moves && l.moves.length && !(ctx.role === 'host' && l.seat === -1 && st.mode === 'physical')) {
    out.push(h('section', {class: 'action', 'aria-labelledby': 'act-h', 'data-state': 'options'}, h('h2', {id: 'act-h'}, 'Your move'),
      h('ul', {class: 'options'}, l.moves.map((o, i) => h('li', {}, h('button', {type: 'button', 'data-k': 'opt-' + i, 'data-option': i,
        onclick: () => ctx.play(move(o))}, label(ctx, o)))))));
  } else if (ctx.role === 'seat' && !v.ended) {
    out.push(h('section', {class: 'action', 'aria-labelledby': 'act-h', 'data-state': 'wait'}, h('h2', {id: 'act-h'}, 'Waiting'), h('p', {}, `Waiting for ${name(ctx, st.turn)}.`)));
  }
  out.push(h('section', {'aria-labelledby': 'boards-h'}, h('h2', {id: 'boards-h'}, 'Players'), h('div', {class: 'boards'}, st.players.map((p) => h('article', {class: 'board', 'aria-labelledby': 'lth-' + p.seat},
    h('h3', {id: 'lth-' + p.seat}, p.name, p.seat === st.turn && !v.ended ? h('span', {class: 'muted'}, ' · on turn') : null),
    p.hand ? h('p', {}, h('strong', {}, 'Hand: '), TREASURES.filter((t) => p.hand[t]).map((t) => `${p.hand[t]} ${t}`).join(', ') || 'empty') : h('p', {}, `${p.hand_size} card${p.hand_size === 1 ? '' : 's'} in hand`),
    h('p', {}, h('strong', {}, 'Sets: '), sets(p.sets)),
    h('p', {class: 'muted'}, `captain ${p.captain_used ? 'used' : 'unused'}${p.captain_heart ? ' · holds the captain’s heart' : ''}`))))));
  return h('div', {class: 'lth'}, out);
}

function finalScore(ctx) {
  const sc = ctx.score;
  return h('section', {class: 'final', 'aria-labelledby': 'final-h', 'data-testid': 'final'}, h('h2', {id: 'final-h'}, sc.final ? 'Final score' : 'Score so far'),
    h('table', {}, h('thead', {}, h('tr', {}, ['Player', 'Cards', 'Captain', 'Total'].map((t) => h('th', {scope: 'col'}, t)))),
      h('tbody', {}, sc.players.map((p) => h('tr', {}, h('th', {scope: 'row'}, p.name), h('td', {}, p.cards), h('td', {}, p.captain), h('td', {}, h('strong', {}, p.total)))))),
    h('ol', {class: 'ranking'}, sc.ranking.map((r, i) => h('li', {}, `${r.rank}. ${r.name}, ${r.total}`,
      r.decided_by && i > 0 ? ` (${r.decided_by === 'total' ? 'fewer cards than' : r.decided_by === 'shared' ? 'shares the place with' : 'smaller sets than'} ${sc.ranking[i - 1].name})` : ''))));
}
