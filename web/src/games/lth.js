// Lucky Treasure Hunter: each seat sees its hand (digital) or its hand's
// size (physical), the sets face up, the steal under way with its dice, and
// the moves the server lists with what each does and its odds. In a
// physical game the host's device (the shared table device, which sees no
// hand) reports the 3 middle cards and every roll as the dice fell, and may
// make the moves of the seat on turn for it.
import {h} from '../lib.js';
import {treasure, pirate} from '../cards/art.js';

// tcard draws treasure cards as they lie: the treasure's picture and how
// many (a set's size, a hand's count).
function tcard(t, n, label) {
  return h('span', {class: `tcard t-${t}`, role: 'img', 'aria-label': label || `${n} ${t}`}, treasure(t), h('span', {class: 'tcount', 'aria-hidden': 'true'}, `×${n}`));
}

// setsArt draws sets of treasure cards, or says there are none.
function setsArt(list, what) {
  return list.length ? h('span', {class: 'tcards'}, list.map((s) => tcard(s.treasure, s.size, `${what} ${s.size} ${s.treasure}`))) : h('span', {}, 'none');
}

export const ruleset = 'lucky-treasure-hunter';
// Listed for the log ("What happened"); the screen reads the game again
// after every move. cards_drawn reaches only the seat that drew (the server
// sends it to no one else, not even the host).
export const events = ['middle_dealt', 'turn_started', 'place_skipped', 'cards_placed', 'cards_drawn', 'drew', 'pile_empty',
  'steal_named', 'steal_skipped', 'dice_rolled', 'cards_discarded', 'captain_used', 'set_stolen', 'steal_stopped', 'misdraw', 'game_ended'];
export const refreshOnMove = true;

// The fields each move type takes (the listed options carry more: odds,
// set sizes).
const FIELDS = {place: ['type', 'seat', 'treasure', 'count'], steal: ['type', 'seat', 'owner', 'set'],
  reroll: ['type', 'seat', 'dice'], captain: ['type', 'seat'], stop: ['type', 'seat']};
const TREASURES = ['silver', 'gold', 'pearl', 'ruby', 'jade'];
const none = (x) => x === undefined || x === null;

export function seatName(ctx) {
  const p = ctx.view.state.players[ctx.seat];
  return p ? p.name : undefined;
}

function name(ctx, seat) {
  const p = ctx.view && ctx.view.state.players[seat];
  return p ? p.name : `Seat ${seat + 1}`;
}

const whose = (ctx, owner) => (none(owner) ? 'the middle’s' : name(ctx, owner) + '’s');
const counts = (cards) => TREASURES.map((t) => [t, cards.filter((c) => c === t).length]).filter(([, n]) => n).map(([t, n]) => `${n} ${t}`).join(', ');
const pct = (c) => `${Math.round(c * 100)}%`;

// where names what a move was chosen in, for game.js: a move refused
// because the game moved on (412) is sent again only if this is unchanged.
// A steal's decisions share one phase, so its dice count too; so do the
// sets and the middle, which a steal names by index.
export function where(ctx) {
  const st = ctx.view.state;
  return JSON.stringify([st.turn, st.phase, st.steal || null, st.middle, st.players.map((p) => [p.sets, p.hand_size, p.captain_used])]);
}

// hostSeats are the seats whose legal moves the host's screen reads: in a
// physical game, the seat on turn, whose moves the host may make for it.
export function hostSeats(view) {
  const st = view.state;
  if (st.mode !== 'physical' || view.ended || !['place', 'steal', 'decide'].includes(st.phase)) return [];
  return [st.turn];
}

// describe turns an event into a line of the table's log.
export function describe(ev, d, ctx) {
  if (!d) return null;
  const who = none(d.seat) ? '' : name(ctx, d.seat);
  switch (ev) {
    case 'middle_dealt':
      return `The middle is dealt: ${d.middle.map((s) => `${s.size} ${s.treasure}`).join(', ')}`;
    case 'turn_started':
      return `${who}’s turn (turn ${d.turn})`;
    case 'place_skipped':
      return `${who} has no card left and places nothing`;
    case 'cards_placed':
      return `${who} placed ${d.count} ${d.treasure} into the middle`;
    case 'cards_drawn':
      // Only the seat that drew receives it.
      return `${d.seat === ctx.seat ? 'You' : who} drew: ${counts(d.cards)}`;
    case 'drew':
      if (ctx.view && ctx.view.state.mode === 'digital' && ctx.role === 'seat' && d.seat === ctx.seat) return null; // cards_drawn says it
      return `${who} drew ${d.count} card${d.count === 1 ? '' : 's'} (${d.pile} left in the pile)`;
    case 'misdraw':
      return `The table corrected a mis-draw: ${who} holds ${Math.abs(d.count)} card${Math.abs(d.count) === 1 ? '' : 's'} ${d.count > 0 ? 'more' : 'fewer'} than counted (${d.hand_size} in hand, ${d.pile} left in the pile)`;
    case 'pile_empty':
      return `The pile is empty: last round, the game ends before ${name(ctx, d.ends_before)}’s turn`;
    case 'steal_named':
      return `${who} tries to steal ${whose(ctx, d.owner)} set of ${d.size} ${d.treasure}`;
    case 'steal_skipped':
      return `${who} has no set to steal`;
    case 'dice_rolled': {
      const p = d.faces.filter((f) => f === 'pirate').length;
      return `${who} rolled ${p} pirate${p === 1 ? '' : 's'} and ${d.faces.length - p} blank: ${d.failed ? `${d.failed} ${d.failed === 1 ? 'die' : 'dice'} still blank` : 'all pirates'}`;
    }
    case 'cards_discarded':
      return `${who} discarded ${d.count} ${d.treasure} to re-roll`;
    case 'captain_used':
      return `${who} turned the captain over to re-roll every blank die`;
    case 'set_stolen':
      return `${who} took ${whose(ctx, d.owner)} set of ${d.size} ${d.treasure}`;
    case 'steal_stopped':
      return `${who} stopped and took nothing`;
    case 'game_ended':
      return 'The game has ended';
    default:
      return null;
  }
}

// odds says a steal's chance as the listing gives it: with the seat's
// matching cards (its own screen, digital), or as anyone can work it out,
// with no (further) card discarded.
function odds(o) {
  if (!none(o.chance)) return `${pct(o.chance)} to take the set`;
  if (!none(o.chance_without_cards)) return `${pct(o.chance_without_cards)} to take the set${o.type === 'reroll' ? ' with no further discards' : ' without discarding cards'}`;
  return '';
}

function move(o) {
  const m = {};
  for (const k of FIELDS[o.type] || Object.keys(o)) if (!none(o[k])) m[k] = o[k];
  return m;
}


// dice draws dice: pirates first, then blanks, then those still to roll.
function dice(pirates, blanks, pending, label) {
  const out = [];
  for (let i = 0; i < pirates; i++) out.push(h('li', {class: 'die pirate'}, pirate(), h('span', {class: 'sr-only'}, 'pirate')));
  for (let i = 0; i < blanks; i++) out.push(h('li', {class: 'die blank'}, h('span', {class: 'sr-only'}, 'blank')));
  for (let i = 0; i < pending; i++) out.push(h('li', {class: 'die pending'}, h('span', {'aria-hidden': 'true'}, '?'), h('span', {class: 'sr-only'}, 'to roll')));
  return h('ul', {class: 'dice', 'aria-label': label}, out);
}

// stealPanel tells the steal under way: the set, the dice and what comes next.
function stealPanel(ctx) {
  const st = ctx.view.state;
  const s = st.steal;
  const pending = st.phase === 'roll' ? s.dice_to_report : 0;
  const blanks = s.failed - pending;
  let now;
  if (st.phase === 'roll') now = `${s.dice_to_report} ${s.dice_to_report === 1 ? 'die is' : 'dice are'} being rolled at the table.`;
  else if (s.failed) now = `${s.failed} ${s.failed === 1 ? 'die shows' : 'dice show'} blank: ${ctx.role === 'seat' && ctx.seat === s.seat ? 'you' : name(ctx, s.seat)} may re-roll them by discarding ${s.treasure} cards, turn the captain over (once a game), or stop.`;
  else now = 'Every die shows a pirate: the set is taken.';
  return h('section', {class: 'steal', 'aria-labelledby': 'steal-h', 'data-testid': 'steal'},
    h('h2', {id: 'steal-h'}, `${ctx.role === 'seat' && ctx.seat === s.seat ? 'You steal' : name(ctx, s.seat) + ' steals'} ${whose(ctx, s.owner)} set of ${s.size} ${s.treasure}`),
    dice(s.pirates, blanks, pending, `Dice: ${s.pirates} pirate${s.pirates === 1 ? '' : 's'}, ${blanks} blank${pending ? `, ${pending} to roll` : ''}`),
    h('p', {}, `${s.pirates} of ${s.size} pirates. ${now}`),
    s.rerolls || s.captain ? h('p', {class: 'muted'}, [s.rerolls ? `${s.rerolls} card${s.rerolls === 1 ? '' : 's'} discarded to re-roll` : '', s.captain ? 'the captain re-rolled' : ''].filter(Boolean).join(' · ')) : null);
}

// what says what a listed move does, in a player's words.
function what(ctx, o, forName) {
  const s = ctx.view.state.steal;
  const hand = forName ? forName + '’s' : 'your';
  switch (o.type) {
    case 'place':
      return `Put ${o.count} ${o.treasure} from ${hand} hand into the middle, then draw back up to 5.`;
    case 'steal':
      return `Roll ${o.size} ${o.size === 1 ? 'die' : 'dice'}: all pirates and the set is taken; otherwise re-roll or stop. ${odds(o)}.`;
    case 'reroll':
      return `Discard ${o.dice} ${s ? s.treasure : ''} from ${hand} hand to re-roll ${o.dice} blank ${o.dice === 1 ? 'die' : 'dice'}. ${odds(o)}.`;
    case 'captain':
      return `Once a game: re-roll every blank die for free; the captain then no longer scores its point. ${odds(o)}.`;
    case 'stop':
      return 'Give up this steal: take nothing; the turn ends.';
    default:
      return '';
  }
}

function label(ctx, o) {
  switch (o.type) {
    case 'place':
      return `${o.count} ${o.treasure}`;
    case 'steal':
      return `Steal ${whose(ctx, o.owner)} ${o.size} ${o.treasure}`;
    case 'reroll':
      return `Re-roll ${o.dice} (discard ${o.dice})`;
    case 'captain':
      return 'Turn the captain over';
    case 'stop':
      return 'Stop';
    default:
      return o.type;
  }
}

// options draws a listing's moves: places grouped by treasure, the others
// one per row with what they do. forName names the seat when the host acts
// for it.
function options(ctx, l, forName) {
  const key = forName ? 'for-' : 'opt-';
  const attr = forName ? 'data-for' : 'data-option';
  const btn = (o, i, text) => h('button', {type: 'button', 'data-k': key + i, [attr]: i, 'data-type': o.type,
    'aria-describedby': o.type === 'place' ? null : key + 'd-' + i, onclick: () => ctx.play(move(o))}, text);
  // Corrections (take-backs, a mis-draw) are every screen's Undo or Correct.
  const all = l.moves.map((o, i) => [o, i]).filter(([o]) => !o.correction);
  const places = all.filter(([o]) => o.type === 'place');
  const rest = all.filter(([o]) => o.type !== 'place');
  const out = [];
  if (places.length) {
    out.push(h('p', {}, `Place 1 to 5 cards of one treasure from ${forName ? forName + '’s' : 'your'} hand into the middle; then ${forName ? 'they draw' : 'you draw'} back up to 5.`));
    if (ctx.view.state.mode === 'physical') {
      out.push(placePicker(ctx, places, forName, key, attr));
    } else {
      out.push(h('ul', {class: 'place-rows'}, TREASURES.filter((t) => places.some(([o]) => o.treasure === t)).map((t) =>
        h('li', {class: 'place-row'}, h('span', {class: 'place-t'}, treasure(t), ' ', t), h('span', {class: 'buttons'},
          places.filter(([o]) => o.treasure === t).map(([o, i]) => btn(o, i, `Place ${o.count} ${t}`)))))));
    }
  }
  if (rest.length) {
    out.push(h('ul', {class: 'options'}, rest.map(([o, i]) => h('li', {},
      btn(o, i, label(ctx, o) + (forName ? ` for ${forName}` : '')),
      h('span', {class: 'hint', id: key + 'd-' + i}, what(ctx, o, forName))))));
  }
  return out;
}

// placePicker chooses a physical place in two taps, the treasure and how
// many, among the listed ones (the server lists every treasure that may still
// be in the hand, up to the hand's size), then sends it.
function placePicker(ctx, places, forName, key, attr) {
  const ui = ctx.ui;
  const ts = TREASURES.filter((t) => places.some(([o]) => o.treasure === t));
  const t = ts.includes(ui.placeT) ? ui.placeT : null;
  const ns = t ? places.filter(([o]) => o.treasure === t) : [];
  const chosen = ns.find(([o]) => o.count === ui.placeN);
  const pick = (k, v) => { ui[k] = v; ctx.rerender(); };
  return h('div', {class: 'place-pick'},
    h('p', {id: key + 'pt'}, 'Which treasure?'),
    h('div', {class: 'buttons', role: 'group', 'aria-labelledby': key + 'pt'}, ts.map((x) => h('button', {type: 'button', 'data-k': key + 't-' + x, 'data-treasure': x,
      'aria-pressed': x === t ? 'true' : 'false', class: 'tpick', onclick: () => pick('placeT', x)}, treasure(x), ' ', x))),
    t ? h('p', {id: key + 'pn'}, `How many ${t}?`) : null,
    t ? h('div', {class: 'buttons', role: 'group', 'aria-labelledby': key + 'pn'}, ns.map(([o]) => h('button', {type: 'button', 'data-k': key + 'n-' + o.count, 'data-count': o.count,
      'aria-pressed': chosen && chosen[0] === o ? 'true' : 'false', onclick: () => pick('placeN', o.count)}, String(o.count)))) : null,
    h('button', {type: 'button', class: 'primary', 'data-k': key + 'place', [attr]: chosen ? chosen[1] : null, 'data-type': 'place', disabled: !chosen,
      onclick: () => ctx.play(move(chosen[0]))}, chosen ? `Place ${chosen[0].count} ${t}${forName ? ' for ' + forName : ''}` : 'Place: choose a treasure and how many'));
}

// middlePicker is the host's report of the 3 cards turned into the middle.
function middlePicker(ctx) {
  const st = ctx.view.state;
  const ui = ctx.ui;
  const picked = ui.middle || (ui.middle = {});
  const total = TREASURES.reduce((a, t) => a + (picked[t] || 0), 0);
  const rows = TREASURES.map((t) => {
    const n = picked[t] || 0;
    const most = Math.min(3, st.unseen[t]);
    const set = (v) => { picked[t] = v; ctx.rerender(); };
    return h('li', {class: 'stepper'}, h('span', {class: 'place-t', id: 'mid-' + t}, treasure(t), ' ', t),
      h('button', {type: 'button', 'data-k': 'mid-less-' + t, 'aria-label': `One ${t} fewer`, disabled: n === 0, onclick: () => set(n - 1)}, '−'),
      h('output', {'aria-live': 'polite', 'aria-labelledby': 'mid-' + t, 'data-count': t}, String(n)),
      h('button', {type: 'button', 'data-k': 'mid-more-' + t, 'aria-label': `One ${t} more`, disabled: total >= 3 || n >= most, onclick: () => set(n + 1)}, '+'));
  });
  const cards = TREASURES.flatMap((t) => Array(picked[t] || 0).fill(t));
  return h('section', {class: 'action', 'aria-labelledby': 'act-h', 'data-state': 'middle'}, h('h2', {id: 'act-h'}, 'Report the middle'),
    h('p', {}, 'Deal 5 cards to each player, turn 3 face up into the middle and say here which they are.'),
    h('ul', {class: 'steppers'}, rows),
    h('p', {'data-testid': 'middle-count'}, `${total} of 3 chosen${total ? ': ' + counts(cards) : ''}`),
    h('button', {type: 'button', class: 'primary', 'data-k': 'report-middle', 'data-action': 'middle', disabled: total !== 3,
      onclick: () => ctx.play({type: 'lth_middle', cards})}, 'Report the middle'));
}

// rollPicker is the host's report of the dice as they fell.
function rollPicker(ctx, n) {
  const s = ctx.view.state.steal;
  const ui = ctx.ui;
  if (!ui.faces || ui.faces.length !== n) ui.faces = Array(n).fill('blank');
  const faces = ui.faces;
  const pirates = faces.filter((f) => f === 'pirate').length;
  return h('section', {class: 'action', 'aria-labelledby': 'act-h', 'data-state': 'roll'}, h('h2', {id: 'act-h'}, 'Report the roll'),
    h('p', {}, `${name(ctx, s.seat)} rolls ${n} ${n === 1 ? 'die' : 'dice'} for ${whose(ctx, s.owner)} set of ${s.size} ${s.treasure}. Tap each die that shows the pirate.`),
    h('ul', {class: 'dice roll'}, faces.map((f, i) => h('li', {}, h('button', {type: 'button', class: 'die ' + f, 'data-k': 'die-' + i, 'data-die': i,
      'aria-pressed': f === 'pirate' ? 'true' : 'false', 'aria-label': `Die ${i + 1}: pirate`,
      onclick: () => { faces[i] = f === 'pirate' ? 'blank' : 'pirate'; ctx.rerender(); }}, f === 'pirate' ? pirate() : ' ')))),
    h('p', {}, `${pirates} pirate${pirates === 1 ? '' : 's'}, ${n - pirates} blank`),
    h('button', {type: 'button', class: 'primary', 'data-k': 'report-roll', 'data-action': 'roll', onclick: () => ctx.play({type: 'roll', faces: faces.slice()})}, 'Report the roll'));
}

function action(ctx) {
  const v = ctx.view;
  const st = v.state;
  const l = ctx.legal;
  const sec = (state, title, ...body) => h('section', {class: 'action', 'aria-labelledby': 'act-h', 'data-state': state}, h('h2', {id: 'act-h'}, title), body);
  if (v.ended) return null;
  if (ctx.role === 'host' && st.mode === 'physical') {
    // (The game and its listings are read at once: draw them only when
    // they agree on the step.)
    const rep = l && l.moves && l.moves[0];
    if (rep && rep.type === 'lth_middle' && st.phase === 'setup') return middlePicker(ctx);
    if (rep && rep.type === 'roll' && st.phase === 'roll' && st.steal) return rollPicker(ctx, rep.dice);
    const sl = (ctx.s.seatLegal || {})[st.turn];
    if (sl && sl.moves && sl.moves.length && sl.step === st.phase) {
      const who = name(ctx, st.turn);
      return sec('for-seat', `${who}’s move`, h('p', {}, `${who} plays on their phone, or you here for them.`), options(ctx, sl, who));
    }
    return sec('wait', 'Nothing to report', h('p', {}, 'Reports appear here when the table rolls.'));
  }
  if (l && l.moves && l.moves.length && l.seat >= 0 && l.step === st.phase) {
    return sec(l.step, l.step === 'place' ? 'Your move: place cards' : l.step === 'steal' ? 'Your move: name a set to steal' : 'Your move: the roll failed', options(ctx, l));
  }
  if (ctx.role !== 'seat') return null;
  if (st.phase === 'setup') return sec('wait-middle', 'Waiting for the host', h('p', {}, 'Waiting for the host to report the 3 middle cards.'));
  if (st.phase === 'roll') {
    return sec('wait-roll', 'Waiting for the host to report the roll', h('p', {}, st.turn === ctx.seat ? 'Roll the dice at the table; the host reports how they fell.' : `${name(ctx, st.turn)} rolls; the host reports how the dice fell.`));
  }
  return sec('wait', 'Waiting', h('p', {}, `Waiting for ${name(ctx, st.turn)}.`));
}

const PHASE = {setup: 'the middle cards are dealt', place: 'places cards', steal: 'names a set to steal', roll: 'rolls the dice', decide: 'decides after a failed roll'};

export function render(ctx) {
  const v = ctx.view;
  const st = v.state;
  const who = ctx.role === 'host' ? 'Host' : ctx.role === 'seat' ? name(ctx, ctx.seat) : 'Spectator';
  document.title = `Lucky Treasure Hunter: ${who}`;
  const out = [h('h1', {}, `Lucky Treasure Hunter · ${who}`)];
  out.push(h('p', {class: 'phase'}, v.ended ? 'Game over' : st.phase === 'setup' ? 'Setting up: the middle cards are dealt' : `${st.turn === ctx.seat && ctx.role === 'seat' ? 'Your turn' : name(ctx, st.turn) + '’s turn'}: ${PHASE[st.phase] || st.phase}`,
    ` · pile: ${st.pile_size} cards · pirates on ${st.pirate_faces} of 6 faces`));
  if (st.last_round && !v.ended) {
    out.push(h('p', {class: 'note', 'data-testid': 'last-round'}, `Last round: the pile is empty. The game ends when ${name(ctx, st.captain_heart)}’s turn (Captain Heart) would come again.`));
  }
  if (v.ended && ctx.score) out.push(finalScore(ctx));
  if (st.steal) out.push(stealPanel(ctx));
  out.push(action(ctx));
  out.push(h('div', {class: 'middle'}, h('strong', {}, 'In the middle: '), setsArt(st.middle, 'a set of')));
  out.push(h('section', {'aria-labelledby': 'boards-h'}, h('h2', {id: 'boards-h'}, 'Players'), h('div', {class: 'boards'}, st.players.map((p) => h('article', {class: 'board', 'aria-labelledby': 'lth-' + p.seat},
    h('h3', {id: 'lth-' + p.seat}, p.name, p.seat === st.turn && !v.ended ? h('span', {class: 'muted'}, ' · on turn') : null),
    p.hand ? h('div', {'data-testid': 'hand'}, h('strong', {}, 'Hand: '), TREASURES.some((t) => p.hand[t]) ? h('span', {class: 'tcards'}, TREASURES.filter((t) => p.hand[t]).map((t) => tcard(t, p.hand[t], `${p.hand[t]} ${t} in hand`))) : 'empty')
      : h('p', {'data-testid': 'hand-size'}, `${p.hand_size} card${p.hand_size === 1 ? '' : 's'} in hand`),
    h('div', {}, h('strong', {}, 'Sets: '), setsArt(p.sets, 'a set of')),
    h('p', {class: 'muted'}, `captain ${p.captain_used ? 'used' : 'unused'}${p.captain_heart ? ' · Captain Heart' : ''}`))))));
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
