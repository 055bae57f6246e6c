// Lucky Treasure Hunter: each seat sees its hand (digital) or its hand's
// size (physical), the sets face up, the steal under way with its dice, and
// the moves the server lists with what each does and its odds. In a
// physical game the host's device (the shared table device, which sees no
// hand) reports the 3 middle cards and every roll as the dice fell, and may
// make the moves of the seat on turn for it.
import type {Bag, Move, Schemas, Screen, Table, Words} from '../../../web/src/screen';
import {h, type Child} from '../../../web/src/lib';
import {treasure, pirate} from './art';
import './screen.css';
import {sheet} from './sheet';

// The game's view and listing as the server sends them (its schemas in
// openapi.yaml).
type View = Schemas['LuckyTreasureHunterView'];
type Own = Schemas['LuckyTreasureHunterLegal'];
type Steal = Schemas['LuckyTreasureHunterStealState'];
type Treasure = Schemas['LuckyTreasureHunterTreasure'];
type Face = Schemas['LuckyTreasureHunterFace'];
type Option = Schemas['LuckyTreasureHunterOption'];
type Score = Schemas['LuckyTreasureHunterScore'];
// UI is what the host is choosing: a place's treasure and count (a physical
// game), the middle's cards, the dice as they fell.
type UI = {placeT?: Treasure; placeN?: number; middle?: Partial<Record<Treasure, number>>; faces?: Face[]};
type GameTable = Table<View, Own, UI, Bag, Score>;
// EventData is any of the game's events: each names the fields it has.
type EventData = Partial<Schemas['LuckyTreasureHunterEventSeat'] & Schemas['LuckyTreasureHunterEventMiddleDealt'] & Schemas['LuckyTreasureHunterEventTurnStarted'] &
  Schemas['LuckyTreasureHunterEventCardsPlaced'] & Schemas['LuckyTreasureHunterEventCardsDrawn'] & Schemas['LuckyTreasureHunterEventDrew'] &
  Schemas['LuckyTreasureHunterEventPileEmpty'] & Schemas['LuckyTreasureHunterEventStealNamed'] & Schemas['LuckyTreasureHunterEventDiceRolled'] &
  Schemas['LuckyTreasureHunterEventCardsDiscarded'] & Schemas['LuckyTreasureHunterEventSetStolen'] & Schemas['LuckyTreasureHunterEventMisdraw']>;

// A treasure's word (silver, gold, …).
const TREASURE = 'app.lth.treasure.';
const tw = (table: Words, x: string) => table.t(TREASURE + x);
// nt is n cards of a treasure: "3 gold".
const nt = (table: Words, n: number | undefined, x: string | null | undefined) => table.t('app.lth.n-treasure', {count: n, treasure: tw(table, x || '')});

// tcard draws treasure cards as they lie: the treasure's picture and how
// many (a set's size, a hand's count).
function tcard(table: Words, t: Treasure, n: number, label: string) {
  return h('span', {class: `tcard t-${t}`, role: 'img', 'aria-label': label || nt(table, n, t)}, treasure(t), h('span', {class: 'tcount', 'aria-hidden': 'true'}, `×${n}`));
}

// setsArt draws sets of treasure cards, or says there are none.
function setsArt(table: Words, list: Schemas['LuckyTreasureHunterSet'][]) {
  return list.length ? h('span', {class: 'tcards'}, list.map((s) => tcard(table, s.treasure, s.size, table.t('app.lth.a-set-of', {set: nt(table, s.size, s.treasure)})))) : h('span', {}, table.t('app.none'));
}

const ruleset = 'lucky-treasure-hunter';
// Listed for the log ("What happened"); the screen reads the game again
// after every move. cards_drawn reaches only the seat that drew (the server
// sends it to no one else, not even the host).
const events = ['middle_dealt', 'turn_started', 'place_skipped', 'cards_placed', 'cards_drawn', 'drew', 'pile_empty',
  'steal_named', 'steal_skipped', 'dice_rolled', 'cards_discarded', 'captain_used', 'set_stolen', 'steal_stopped', 'misdraw', 'game_ended'];

// The fields each move type takes (the listed options carry more: odds,
// set sizes).
const FIELDS: Record<string, string[]> = {place: ['type', 'seat', 'treasure', 'count'], steal: ['type', 'seat', 'owner', 'set'],
  reroll: ['type', 'seat', 'dice'], captain: ['type', 'seat'], stop: ['type', 'seat']};
const TREASURES: Treasure[] = ['silver', 'gold', 'pearl', 'ruby', 'jade'];
const none = (x: unknown): x is null | undefined => x === undefined || x === null;

const whose = (table: GameTable, owner: number | null | undefined) => (none(owner) ? table.t('app.lth.whose-middle') : table.t('app.lth.whose', {name: table.playerName(owner)}));
const counts = (table: Words, cards: readonly string[]) => TREASURES.map((t) => [t, cards.filter((c) => c === t).length] as const).filter(([, n]) => n).map(([t, n]) => nt(table, n, t)).join(', ');
const pct = (c: number) => `${Math.round(c * 100)}%`;

// where names what a move was chosen in, for game.js: a move refused
// because the game moved on (412) is sent again only if this is unchanged.
// A steal's decisions share one phase, so its dice count too; so do the
// sets and the middle, which a steal names by index.
function where(table: GameTable) {
  const st = table.view.state;
  return JSON.stringify([st.turn, st.phase, st.steal || null, st.middle, st.players.map((p) => [p.sets, p.hand_size, p.captain_used])]);
}

// hostSeats are the seats whose legal moves the host's screen reads: in a
// physical game, the seat on turn, whose moves the host may make for it.
function hostSeats(view: GameTable['view']) {
  const st = view.state;
  if (st.mode !== 'physical' || view.ended || !['place', 'steal', 'decide'].includes(st.phase)) return [];
  return [st.turn];
}

// describe turns an event into a line of the table's log.
function describe(ev: string, data: unknown, table: GameTable) {
  const d = data as EventData | null;
  if (!d) return null;
  const who = none(d.seat) ? '' : table.playerName(d.seat);
  switch (ev) {
    case 'middle_dealt':
      return table.t('app.lth.log.middle', {sets: (d.middle || []).map((s) => nt(table, s.size, s.treasure)).join(', ')});
    case 'turn_started':
      return table.t('app.lth.log.turn', {who, turn: d.turn});
    case 'place_skipped':
      return table.t('app.lth.log.place-skipped', {who});
    case 'cards_placed':
      return table.t('app.lth.log.placed', {who, cards: nt(table, d.count, d.treasure)});
    case 'cards_drawn':
      // Only the seat that drew receives it.
      return d.seat === table.seat ? table.t('app.lth.log.you-drew', {cards: counts(table, d.cards || [])}) : table.t('app.lth.log.drew-cards', {who, cards: counts(table, d.cards || [])});
    case 'drew':
      if (table.view && table.view.state.mode === 'digital' && table.role === 'seat' && d.seat === table.seat) return null; // cards_drawn says it
      return table.t('app.lth.log.drew', {who, count: d.count, pile: d.pile});
    case 'misdraw':
      return table.t((d.count || 0) > 0 ? 'app.lth.log.misdraw-more' : 'app.lth.log.misdraw-fewer', {who, count: Math.abs(d.count || 0), hand: d.hand_size, pile: d.pile});
    case 'pile_empty':
      return table.t('app.lth.log.pile-empty', {who: table.playerName(d.ends_before ?? null)});
    case 'steal_named':
      return table.t('app.lth.log.steal-named', {who, whose: whose(table, d.owner), set: nt(table, d.size, d.treasure)});
    case 'steal_skipped':
      return table.t('app.lth.log.steal-skipped', {who});
    case 'dice_rolled': {
      const faces = d.faces || [];
      const p = faces.filter((f) => f === 'pirate').length;
      return table.t('app.lth.log.rolled', {who, pirates: table.t('app.lth.pirates', {count: p}), blanks: faces.length - p,
        result: d.failed ? table.t('app.lth.still-blank', {count: d.failed}) : table.t('app.lth.all-pirates')});
    }
    case 'cards_discarded':
      return table.t('app.lth.log.discarded', {who, cards: nt(table, d.count, d.treasure)});
    case 'captain_used':
      return table.t('app.lth.log.captain', {who});
    case 'set_stolen':
      return table.t('app.lth.log.stolen', {who, whose: whose(table, d.owner), set: nt(table, d.size, d.treasure)});
    case 'steal_stopped':
      return table.t('app.lth.log.stopped', {who});
    case 'game_ended':
      return table.t('app.lth.log.ended');
    default:
      return null;
  }
}

// odds says a steal's chance as the listing gives it: with the seat's
// matching cards (its own screen, digital), or as anyone can work it out,
// with no (further) card discarded.
function odds(table: Words, o: Option) {
  if (!none(o.chance)) return table.t('app.lth.odds', {pct: pct(o.chance)});
  if (!none(o.chance_without_cards)) return table.t(o.type === 'reroll' ? 'app.lth.odds-no-further' : 'app.lth.odds-no-discard', {pct: pct(o.chance_without_cards)});
  return '';
}

function move(o: Option): Move {
  const m: Move = {type: o.type || ''};
  const fields: Record<string, unknown> = o;
  for (const k of FIELDS[m.type] || Object.keys(o)) if (!none(fields[k])) m[k] = fields[k];
  return m;
}


// dice draws dice: pirates first, then blanks, then those still to roll.
function dice(table: Words, pirates: number, blanks: number, pending: number, label: string) {
  const out = [];
  for (let i = 0; i < pirates; i++) out.push(h('li', {class: 'die pirate'}, pirate(), h('span', {class: 'sr-only'}, table.t('app.lth.pirate'))));
  for (let i = 0; i < blanks; i++) out.push(h('li', {class: 'die blank'}, h('span', {class: 'sr-only'}, table.t('app.lth.blank'))));
  for (let i = 0; i < pending; i++) out.push(h('li', {class: 'die pending'}, h('span', {'aria-hidden': 'true'}, '?'), h('span', {class: 'sr-only'}, table.t('app.lth.to-roll'))));
  return h('ul', {class: 'dice', 'aria-label': label}, out);
}

// stealPanel tells the steal under way: the set, the dice and what comes next.
function stealPanel(table: GameTable, s: Steal) {
  const st = table.view.state;
  const pending = st.phase === 'roll' ? s.dice_to_report : 0;
  const blanks = s.failed - pending;
  let now;
  const mine = table.role === 'seat' && table.seat === s.seat;
  if (st.phase === 'roll') now = table.t('app.lth.being-rolled', {count: s.dice_to_report});
  else if (s.failed) now = mine ? table.t('app.lth.blank-you', {count: s.failed, treasure: tw(table, s.treasure)}) : table.t('app.lth.blank-they', {count: s.failed, who: table.playerName(s.seat), treasure: tw(table, s.treasure)});
  else now = table.t('app.lth.taken');
  const set = {whose: whose(table, s.owner), set: nt(table, s.size, s.treasure)};
  return h('section', {class: 'steal', 'aria-labelledby': 'steal-h', 'data-testid': 'steal'},
    h('h2', {id: 'steal-h'}, mine ? table.t('app.lth.you-steal', set) : table.t('app.lth.they-steal', {who: table.playerName(s.seat), ...set})),
    dice(table, s.pirates, blanks, pending, pending ? table.t('app.lth.dice-pending', {pirates: table.t('app.lth.pirates', {count: s.pirates}), blanks: table.t('app.lth.blanks', {count: blanks}), pending})
      : table.t('app.lth.dice', {pirates: table.t('app.lth.pirates', {count: s.pirates}), blanks: table.t('app.lth.blanks', {count: blanks})})),
    h('p', {}, table.t('app.lth.of-pirates', {pirates: s.pirates, size: s.size, now})),
    s.rerolls || s.captain ? h('p', {class: 'muted'}, [s.rerolls ? table.t('app.lth.discarded', {count: s.rerolls}) : '', s.captain ? table.t('app.lth.captain-rerolled') : ''].filter(Boolean).join(' · ')) : null);
}

// what says what a listed move does, in a player's words.
function what(table: GameTable, o: Option, forName: string | undefined) {
  const s = table.view.state.steal;
  const hand = forName ? table.t('app.lth.their-hand', {name: forName}) : table.t('app.lth.your-hand');
  switch (o.type) {
    case 'place':
      return table.t('app.lth.what.place', {cards: nt(table, o.count, o.treasure), hand});
    case 'steal':
      return table.t('app.lth.what.steal', {count: o.size, odds: odds(table, o)});
    case 'reroll':
      return table.t('app.lth.what.reroll', {cards: s ? nt(table, o.dice, s.treasure) : o.dice, hand, count: o.dice, odds: odds(table, o)});
    case 'captain':
      return table.t('app.lth.what.captain', {odds: odds(table, o)});
    case 'stop':
      return table.t('app.lth.what.stop');
    default:
      return '';
  }
}

function label(table: GameTable, o: Option) {
  switch (o.type) {
    case 'place':
      return nt(table, o.count, o.treasure);
    case 'steal':
      return table.t('app.lth.label.steal', {whose: whose(table, o.owner), set: nt(table, o.size, o.treasure)});
    case 'reroll':
      return table.t('app.lth.label.reroll', {n: o.dice});
    case 'captain':
      return table.t('app.lth.label.captain');
    case 'stop':
      return table.t('app.lth.label.stop');
    default:
      return o.type || '';
  }
}

// options draws a listing's moves: places grouped by treasure, the others
// one per row with what they do. forName names the seat when the host acts
// for it.
function options(table: GameTable, l: Own, forName?: string) {
  const key = forName ? 'for-' : 'opt-';
  const attr = forName ? 'data-for' : 'data-option';
  const btn = (o: Option, i: number, text: string) => h('button', {type: 'button', 'data-k': key + i, [attr]: i, 'data-type': o.type,
    'aria-describedby': o.type === 'place' ? null : key + 'd-' + i, onclick: () => table.send(move(o))}, text);
  // Corrections (take-backs, a mis-draw) are every screen's Undo or Correct.
  const all = l.moves.map((o, i) => [o, i] as [Option, number]).filter(([o]) => !o.correction);
  const places = all.filter(([o]) => o.type === 'place');
  const rest = all.filter(([o]) => o.type !== 'place');
  const out = [];
  if (places.length) {
    out.push(h('p', {}, forName ? table.t('app.lth.place-how-they', {name: forName}) : table.t('app.lth.place-how')));
    if (table.view.state.mode === 'physical') {
      out.push(placePicker(table, places, forName, key, attr));
    } else {
      out.push(h('ul', {class: 'place-rows'}, TREASURES.filter((t) => places.some(([o]) => o.treasure === t)).map((t) =>
        h('li', {class: 'place-row'}, h('span', {class: 'place-t'}, treasure(t), ' ', tw(table, t)), h('span', {class: 'buttons'},
          places.filter(([o]) => o.treasure === t).map(([o, i]) => btn(o, i, table.t('app.lth.place-n', {cards: nt(table, o.count, t)}))))))));
    }
  }
  if (rest.length) {
    out.push(h('ul', {class: 'options'}, rest.map(([o, i]) => h('li', {},
      btn(o, i, forName ? table.t('app.lth.for', {label: label(table, o), name: forName}) : label(table, o)),
      h('span', {class: 'hint', id: key + 'd-' + i}, what(table, o, forName))))));
  }
  return out;
}

// placePicker chooses a physical place in two taps, the treasure and how
// many, among the listed ones (the server lists every treasure that may still
// be in the hand, up to the hand's size), then sends it.
function placePicker(table: GameTable, places: [Option, number][], forName: string | undefined, key: string, attr: string) {
  const ui = table.ui;
  const ts = TREASURES.filter((t) => places.some(([o]) => o.treasure === t));
  const t = ui.placeT && ts.includes(ui.placeT) ? ui.placeT : null;
  const ns = t ? places.filter(([o]) => o.treasure === t) : [];
  const chosen = ns.find(([o]) => o.count === ui.placeN);
  const pick = <K extends keyof UI>(k: K, v: UI[K]) => { ui[k] = v; table.redraw(); };
  return h('div', {class: 'place-pick'},
    h('p', {id: key + 'pt'}, table.t('app.lth.which')),
    h('div', {class: 'buttons', role: 'group', 'aria-labelledby': key + 'pt'}, ts.map((x) => h('button', {type: 'button', 'data-k': key + 't-' + x, 'data-treasure': x,
      'aria-pressed': x === t ? 'true' : 'false', class: 'tpick', onclick: () => pick('placeT', x)}, treasure(x), ' ', tw(table, x)))),
    t ? h('p', {id: key + 'pn'}, table.t('app.lth.how-many', {treasure: tw(table, t)})) : null,
    t ? h('div', {class: 'buttons', role: 'group', 'aria-labelledby': key + 'pn'}, ns.map(([o]) => h('button', {type: 'button', 'data-k': key + 'n-' + o.count, 'data-count': o.count,
      'aria-pressed': chosen && chosen[0] === o ? 'true' : 'false', onclick: () => pick('placeN', o.count)}, String(o.count)))) : null,
    h('button', {type: 'button', class: 'primary', 'data-k': key + 'place', [attr]: chosen ? chosen[1] : null, 'data-type': 'place', disabled: !chosen,
      onclick: () => chosen && table.send(move(chosen[0]))}, chosen ? (forName ? table.t('app.lth.for', {label: table.t('app.lth.place-n', {cards: nt(table, chosen[0].count, t)}), name: forName}) : table.t('app.lth.place-n', {cards: nt(table, chosen[0].count, t)})) : table.t('app.lth.place-choose')));
}

// middlePicker is the host's report of the 3 cards turned into the middle.
function middlePicker(table: GameTable) {
  const st = table.view.state;
  const ui = table.ui;
  const picked = ui.middle || (ui.middle = {});
  const total = TREASURES.reduce((a, t) => a + (picked[t] || 0), 0);
  const rows = TREASURES.map((t) => {
    const n = picked[t] || 0;
    const most = Math.min(3, st.unseen[t]);
    const set = (v: number) => { picked[t] = v; table.redraw(); };
    return h('li', {class: 'stepper'}, h('span', {class: 'place-t', id: 'mid-' + t}, treasure(t), ' ', tw(table, t)),
      h('button', {type: 'button', 'data-k': 'mid-less-' + t, 'aria-label': table.t('app.lth.one-fewer', {treasure: tw(table, t)}), disabled: n === 0, onclick: () => set(n - 1)}, '−'),
      h('output', {'aria-live': 'polite', 'aria-labelledby': 'mid-' + t, 'data-count': t}, String(n)),
      h('button', {type: 'button', 'data-k': 'mid-more-' + t, 'aria-label': table.t('app.lth.one-more', {treasure: tw(table, t)}), disabled: total >= 3 || n >= most, onclick: () => set(n + 1)}, '+'));
  });
  const cards = TREASURES.flatMap((t) => Array(picked[t] || 0).fill(t));
  return h('section', {class: 'action', 'aria-labelledby': 'act-h', 'data-state': 'middle'}, h('h2', {id: 'act-h'}, table.t('app.lth.report-middle')),
    h('p', {}, table.t('app.lth.report-middle-how')),
    h('ul', {class: 'steppers'}, rows),
    h('p', {'data-testid': 'middle-count'}, total ? table.t('app.lth.chosen-of-3-cards', {n: total, cards: counts(table, cards)}) : table.t('app.lth.chosen-of-3', {n: total})),
    h('button', {type: 'button', class: 'primary', 'data-k': 'report-middle', 'data-action': 'middle', disabled: total !== 3,
      onclick: () => table.send({type: 'lth_middle', cards})}, table.t('app.lth.report-middle')));
}

// rollPicker is the host's report of the dice as they fell.
function rollPicker(table: GameTable, s: Steal, n: number) {
  const ui = table.ui;
  if (!ui.faces || ui.faces.length !== n) ui.faces = Array(n).fill('blank');
  const faces = ui.faces;
  const pirates = faces.filter((f) => f === 'pirate').length;
  return h('section', {class: 'action', 'aria-labelledby': 'act-h', 'data-state': 'roll'}, h('h2', {id: 'act-h'}, table.t('app.lth.report-roll')),
    h('p', {}, table.t('app.lth.report-roll-how', {who: table.playerName(s.seat), count: n, whose: whose(table, s.owner), set: nt(table, s.size, s.treasure)})),
    h('ul', {class: 'dice roll'}, faces.map((f, i) => h('li', {}, h('button', {type: 'button', class: 'die ' + f, 'data-k': 'die-' + i, 'data-die': i,
      'aria-pressed': f === 'pirate' ? 'true' : 'false', 'aria-label': table.t('app.lth.die-pirate', {n: i + 1}),
      onclick: () => { faces[i] = f === 'pirate' ? 'blank' : 'pirate'; table.redraw(); }}, f === 'pirate' ? pirate() : ' ')))),
    h('p', {}, table.t('app.lth.dice', {pirates: table.t('app.lth.pirates', {count: pirates}), blanks: table.t('app.lth.blanks', {count: n - pirates})})),
    h('button', {type: 'button', class: 'primary', 'data-k': 'report-roll', 'data-action': 'roll', onclick: () => table.send({type: 'roll', faces: faces.slice()})}, table.t('app.lth.report-roll')));
}

function action(table: GameTable) {
  const v = table.view;
  const st = v.state;
  const l = table.legal;
  const sec = (state: string, title: string, ...body: Child[]) => h('section', {class: 'action', 'aria-labelledby': 'act-h', 'data-state': state}, h('h2', {id: 'act-h'}, title), body);
  if (v.ended) return null;
  if (table.role === 'host' && st.mode === 'physical') {
    // (The game and its listings are read at once: draw them only when
    // they agree on the step.)
    const rep = l && l.moves && l.moves[0];
    if (rep && rep.type === 'lth_middle' && st.phase === 'setup') return middlePicker(table);
    if (rep && rep.type === 'roll' && rep.dice && st.phase === 'roll' && st.steal) return rollPicker(table, st.steal, rep.dice);
    const sl = (table.seatLegal || {})[st.turn];
    if (sl && sl.moves && sl.moves.length && sl.step === st.phase) {
      const who = table.playerName(st.turn);
      return sec('for-seat', table.t('app.lth.their-move', {who}), h('p', {}, table.t('app.lth.they-or-you', {who})), options(table, sl, who));
    }
    return sec('wait', table.t('app.sg.nothing-to-report'), h('p', {}, table.t('app.lth.reports-appear')));
  }
  if (l && l.moves && l.moves.length && l.seat >= 0 && l.step === st.phase) {
    return sec(l.step, l.step === 'place' ? table.t('app.lth.move-place') : l.step === 'steal' ? table.t('app.lth.move-steal') : table.t('app.lth.move-decide'), options(table, l));
  }
  if (table.role !== 'seat') return null;
  if (st.phase === 'setup') return sec('wait-middle', table.t('app.lth.wait-host'), h('p', {}, table.t('app.lth.wait-middle')));
  if (st.phase === 'roll') {
    return sec('wait-roll', table.t('app.lth.wait-roll'), h('p', {}, st.turn === table.seat ? table.t('app.lth.roll-you') : table.t('app.lth.roll-they', {who: table.playerName(st.turn)})));
  }
  return sec('wait', table.t('app.sg.waiting'), h('p', {}, table.t('app.sg.waiting-for', {who: table.playerName(st.turn)})));
}

// What the player on turn does, by phase.
const PHASE = 'app.lth.phase.';
const PHASES = ['setup', 'place', 'steal', 'roll', 'decide'];

function render(table: GameTable) {
  const v = table.view;
  const st = v.state;
  const out: (HTMLElement | null)[] = [table.heading(table.t('app.lth.title'))];
  const doing = PHASES.includes(st.phase) ? table.t(PHASE + st.phase) : st.phase;
  out.push(h('p', {class: 'phase'}, v.ended ? table.t('app.sg.game-over') : st.phase === 'setup' ? table.t('app.lth.setting-up') :
    st.turn === table.seat && table.role === 'seat' ? table.t('app.lth.your-turn', {doing}) : table.t('app.lth.their-turn', {who: table.playerName(st.turn), doing}),
  table.t('app.lth.phase-rest', {pile: st.pile_size, faces: st.pirate_faces})));
  if (st.last_round && !v.ended) {
    out.push(h('p', {class: 'note', 'data-testid': 'last-round'}, table.t('app.lth.last-round', {who: table.playerName(st.captain_heart)})));
  }
  if (v.ended && table.score) out.push(finalScore(table, table.score));
  if (st.steal) out.push(stealPanel(table, st.steal));
  out.push(action(table));
  out.push(h('div', {class: 'middle'}, h('strong', {}, table.t('app.lth.in-middle')), setsArt(table, st.middle)));
  out.push(h('section', {'aria-labelledby': 'boards-h'}, h('h2', {id: 'boards-h'}, table.t('app.new.players')), h('div', {class: 'boards'}, st.players.map((p) => h('article', {class: 'board', 'aria-labelledby': 'lth-' + p.seat},
    h('h3', {id: 'lth-' + p.seat}, p.name, p.seat === st.turn && !v.ended ? h('span', {class: 'muted'}, table.t('app.lth.on-turn')) : null),
    p.hand ? handArt(table, p.hand)
      : h('p', {'data-testid': 'hand-size'}, table.t('app.lth.hand-size', {count: p.hand_size})),
    h('div', {}, h('strong', {}, table.t('app.lth.sets')), setsArt(table, p.sets)),
    h('p', {class: 'muted'}, (p.captain_used ? table.t('app.lth.captain-used') : table.t('app.lth.captain-unused')) + (p.captain_heart ? table.t('app.lth.captain-heart') : '')))))));
  return h('div', {class: 'lth'}, out);
}

// handArt draws a hand the viewer may see, by treasure.
function handArt(table: Words, hand: Schemas['LuckyTreasureHunterCounts']) {
  const held = TREASURES.filter((t) => hand[t]);
  return h('div', {'data-testid': 'hand'}, h('strong', {}, table.t('app.lth.hand')), held.length ? h('span', {class: 'tcards'}, held.map((t) => tcard(table, t, hand[t], table.t('app.lth.in-hand', {cards: nt(table, hand[t], t)})))) : table.t('app.lth.empty'));
}

function finalScore(table: GameTable, sc: Score) {
  return h('section', {class: 'final', 'aria-labelledby': 'final-h', 'data-testid': 'final'}, h('h2', {id: 'final-h'}, sc.final ? table.t('app.score.final') : table.t('app.score.so-far')),
    h('table', {}, h('thead', {}, h('tr', {}, ['app.sg.col.player', 'app.sheet.lth.col.cards', 'app.sheet.lth.col.captain', 'app.sg.col.total'].map((k) => h('th', {scope: 'col'}, table.t(k))))),
      h('tbody', {}, sc.players.map((p) => h('tr', {}, h('th', {scope: 'row'}, p.name), h('td', {}, p.cards), h('td', {}, p.captain), h('td', {}, h('strong', {}, p.total)))))),
    h('ol', {class: 'ranking'}, sc.ranking.map((r, i) => h('li', {}, `${r.rank}. ${r.name}, ${r.total}`,
      r.decided_by && i > 0 ? ` (${r.decided_by_label || decided(table, r.decided_by, sc.ranking[i - 1].name)})` : ''))));
}

// decided says what put a player below the one above in the ranking.
function decided(table: Words, by: string, above: string) {
  if (by === 'total') return table.t('app.lth.fewer-cards', {above});
  if (by === 'shared') return table.t('app.score.shares', {above});
  return table.t('app.lth.smaller-sets', {above});
}

// The screen, as the shell finds it (web/src/games.gen.ts).
const screen: Screen<View, Own, UI, Bag, Score> = {ruleset, events, refreshOnMove: true, where, hostSeats, describe, render, sheet};
export default screen;
