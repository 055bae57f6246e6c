// Colorful Treasure: the memory grid as the server shows it to everyone (a
// face-down card is only its column's wonder and colours; a card revealed
// this turn shows its kind), each player's cards and tokens, and for the
// seat on turn the moves the server lists: tap face-down cards to flip them,
// then collect, rob, use or claim a token, end the turn. In a digital game
// the server turns the cards over, and what a peek shows reaches the peeking
// seat only, until the next move. It is a memory game: the log says which
// places were turned over, never what a card showed (the grid shows it
// while it is face up), and is read from the game's event stream from the
// start, so that a reload keeps it. In a physical game the cards are real: the seat on
// turn, or the host for it, taps the cards turned over and reports what each
// shows among the kinds the listing still allows; a peek is only recorded.
// On a narrow screen the grid is drawn with the wonders as rows, so that
// its ten wonders fit a phone's width with cards still large enough to tap.
import type {Legal, Move, Schemas, Screen, Table, Words} from '../../../web/src/screen';
import {h} from '../../../web/src/lib';
import {gem, wonderArt} from './art';
import './screen.css';
import {sheet} from './sheet';

// The game's view and listing as the server sends them (its schemas in
// openapi.yaml).
type View = Schemas['ColorfulTreasureView'];
type Own = Schemas['ColorfulTreasureLegal'];
type Pos = Schemas['ColorfulTreasurePos'];
type Kind = Schemas['ColorfulTreasureKind'];
type Column = Schemas['ColorfulTreasureColumn'];
type Shown = Schemas['ColorfulTreasureShownCard'];
type UseToken = Own['use_token'][number];
type Cell = Schemas['ColorfulTreasureFlipOption']['cells'][number];
type Score = Schemas['ColorfulTreasureScore'];
// UI is what the player is choosing: the token whose peek is being chosen,
// the cards tapped, and what each was said to show (a physical report, by
// key).
type UI = {peek?: number; picked?: Pos[]; shows?: Record<string, Kind>};
// Memo keeps the width watch of the grid, and a peek's cards until the
// next move.
type Memo = {narrow?: MediaQueryList; peek?: Shown[]};
type GameTable = Table<View, Own, UI, Memo, Score>;
// EventData is any of the game's events: each names the fields it has.
type EventData = Partial<Schemas['ColorfulTreasureEventCardsShown'] & Schemas['ColorfulTreasureEventCardsCollected'] & Schemas['ColorfulTreasureEventPairs'] &
  Schemas['ColorfulTreasureEventStolen'] & Schemas['ColorfulTreasureEventTokenUsed'] & Schemas['ColorfulTreasureEventTokenTaken'] &
  Schemas['ColorfulTreasureEventAwardTaken'] & Schemas['ColorfulTreasureEventLastRound'] & Schemas['ColorfulTreasureEventTurnStarted'] & Schemas['EventMove']>;
// Acting is the listing a page plays from and the seat it plays for.
type Acting = {l: Legal<Own>; seat: number; host: boolean};
// Pick is what a tap on a face-down card chooses for: a peek or a flip.
type Pick = {cells: Cell[]; min: number; max: number; peek?: UseToken; report?: boolean};

const ruleset = 'colorful-treasure';
// Listed for the log; the screen reads the game again after every move.
const events = ['cards_revealed', 'cards_collected', 'tokens_paired', 'theft_skipped', 'stolen', 'token_used',
  'peeked', 'token_taken', 'award_taken', 'last_round', 'turn_started'];
// The log is read from the start of the game (nothing in it is hidden now).

// The words for the action tokens' effects (in a sentence), the awards,
// the wonders and the kinds of card (gems, diamond, key, chest).
const EFFECT = 'app.ct.does.';
const AWARD = 'app.ct.award.';
const WONDER = 'app.ct.wonder.';
const KIND = 'app.ct.kind.';
const effect = (table: Words, e: string) => table.term(EFFECT, e);
// What the player on turn does, by phase, and the variants' names.
const PHASE = 'app.ct.phase.';
const VARIANT = 'app.ct.variant.';
const kind = (table: Words, k: string) => table.term(KIND, k);

const wonder = (table: Words, id: string) => table.term(WONDER, id);
const place = (table: Words, p: {wonder: string; row: number}) => table.t('app.ct.place', {wonder: wonder(table, p.wonder), row: p.row + 1});
// placeAt names a place of the grid ({column, row}) by its wonder.
const placeAt = (table: GameTable, p: Pos) => {
  const c = table.view && table.view.state.columns[p.column];
  return c ? place(table, {wonder: c.wonder, row: p.row}) : table.t('app.ct.column-row', {column: p.column + 1, row: p.row + 1});
};
// cardWords names a card taken or stolen: its kind and wonder.
const cardWords = (table: Words, c: Schemas['ColorfulTreasureCardRef']) => table.t('app.ct.card', {kind: kind(table, c.kind), wonder: wonder(table, c.wonder)});
const samePos = (a: Pos, b: Pos) => a.column === b.column && a.row === b.row;

// describe turns an event into a line of the table's log. No line says
// what a card of the grid showed: the log stays on every screen, and a card
// turned face down again must be face down there too. What cards show is
// said while they are face up (the grid), and a peek's cards to the peeking
// seat until the next move (peekPanel).
function describe(ev: string, data: unknown, table: GameTable) {
  const d = data as EventData | null;
  if (!d) return null;
  const who = d.seat !== undefined && d.seat !== null ? table.playerName(d.seat) : '';
  switch (ev) {
    case 'move':
      // A new move: a peek's cards are face down for the peeking seat too.
      delete table.memo.peek;
      if (d.move && d.move.type === 'flip' && d.move.cards) {
        const m = d.move as Schemas['ColorfulTreasureFlip'];
        return table.t('app.ct.log.turned-over', {who: table.playerName(m.seat), places: table.tlist(m.cards.map((c) => placeAt(table, c)))});
      }
      return null;
    case 'cards_revealed':
      // Heard as it happens (a screen reader); the grid shows them.
      table.announce(table.t('app.ct.log.turned-over', {who, places: table.tlist((d.cards || []).map((c) => table.t('app.ct.kind-at', {kind: kind(table, c.kind), place: place(table, c)})))}));
      return null;
    case 'cards_collected':
      return d.cards && d.cards.length ? table.t('app.ct.log.took', {who, cards: d.cards.map((c) => cardWords(table, c)).join(', ')}) : table.t('app.ct.log.took-nothing', {who});
    case 'tokens_paired':
      return table.t('app.ct.log.paired', {who, count: d.pairs});
    case 'theft_skipped':
      return table.t('app.ct.log.nobody', {who});
    case 'stolen':
      return table.t('app.ct.log.stole', {who, what: d.card ? cardWords(table, d.card) : table.t('app.ct.the-diamond-token', {wonder: wonder(table, d.diamond_token || '')}), from: table.playerName(d.target ?? null)});
    case 'token_used':
      return d.cards ? table.t('app.ct.log.used-at', {who, token: d.token, effect: effect(table, d.effect || ''), places: table.tlist(d.cards.map((c) => placeAt(table, c)))}) :
        table.t('app.ct.log.used', {who, token: d.token, effect: effect(table, d.effect || '')});
    case 'peeked':
      if (table.role === 'seat' && d.seat === table.seat && !(table.view && table.view.ended)) table.memo.peek = d.cards;
      return null;
    case 'token_taken':
      return table.t('app.ct.log.token-taken', {who, token: d.token, effect: effect(table, d.effect || ''), colour: kind(table, d.colour || '')});
    case 'award_taken':
      return table.t('app.ct.log.award', {who, award: table.term(AWARD, d.award || ''), points: d.points});
    case 'last_round':
      return table.t('app.ct.log.last-round', {count: d.cards_left});
    case 'turn_started':
      return table.t('app.ct.log.turn', {who, round: d.round});
    default:
      return null;
  }
}

const physical = (table: GameTable) => table.view.state.mode === 'physical';
const key = (p: Pos) => `${p.column}-${p.row}`;

// acting is the listing this page plays from, and the seat it plays for: a
// seat's own; on the host's device in a physical game, the seat on turn's
// (the shared device acts for it). In a digital game the host only watches.
function acting(table: GameTable): Acting | null {
  const v = table.view;
  if (v.ended) return null;
  if (table.role === 'seat') return table.legal && table.legal.seat >= 0 ? {l: table.legal, seat: table.legal.seat, host: false} : null;
  if (table.role !== 'host' || !physical(table)) return null;
  const l = (table.seatLegal || {})[v.state.turn];
  return l && l.seat === v.state.turn ? {l, seat: l.seat, host: true} : null;
}

const hasMoves = (a: ReturnType<typeof acting>): a is NonNullable<ReturnType<typeof acting>> => !!a && !!(a.l.flip || (['collect', 'rob', 'use_token', 'claim'] as const).some((k) => (a.l[k] || []).length) || a.l.end);

// hostSeats are the seats whose legal moves the host's screen reads: in a
// physical game, the seat on turn's, which the host may play for it.
function hostSeats(view: GameTable['view']) {
  return view.state.mode === 'physical' && !view.ended ? [view.state.turn] : [];
}

// pickable lists the face-down cards a tap may choose now: a peek's, or the
// flip's (in a physical game, to report what they show).
function pickable(table: GameTable, a: Acting | null): Pick | null {
  if (!a) return null;
  const l = a.l;
  if (table.ui.peek !== undefined) {
    const t = (l.use_token || []).find((u) => u.token === table.ui.peek);
    return t && t.cells ? {cells: t.cells, min: t.min ?? 0, max: t.max ?? t.cells.length, peek: t} : null;
  }
  return l.flip ? {cells: l.flip.cells, min: l.flip.count, max: l.flip.count, report: physical(table)} : null;
}

// allowed keeps a choice to what its listing says: as many cards as it
// names; a peek's of one wonder, or of different wonders (a chosen card can
// always be tapped again to unchoose it).
function allowed(pick: Pick, picked: Pos[], pos: Pos) {
  if (picked.some((p) => samePos(p, pos))) return true;
  if (picked.length >= pick.max) return false;
  if (pick.peek && pick.peek.same_wonder && picked.length) return picked[0].column === pos.column;
  if (pick.peek && pick.peek.different_wonders) return !picked.some((p) => p.column === pos.column);
  return true;
}

// offered lists what a card chosen for a physical report may show: what the
// listing allows there, less what another chosen card of its wonder was
// said to show (a wonder has one card of each kind).
function offered(table: GameTable, pick: Pick, pos: Pos): Kind[] {
  const cell = pick.cells.find((c) => samePos(c, pos));
  const shows = table.ui.shows || {};
  const others = (table.ui.picked || []).filter((q) => q.column === pos.column && !samePos(q, pos)).map((q) => shows[key(q)]);
  return ((cell && cell.shows) || []).filter((k) => !others.includes(k));
}

// tidy keeps the cards chosen to what the listing, read again after
// another device's move, still offers.
function tidy(table: GameTable, a: Acting | null) {
  const ui = table.ui;
  if (ui.peek !== undefined && !(a && (a.l.use_token || []).some((u) => u.token === ui.peek && u.cells))) delete ui.peek;
  const pick = pickable(table, a);
  if (!pick) {
    ui.picked = [];
    ui.shows = {};
    return;
  }
  const kept = (ui.picked || []).filter((q) => pick.cells.some((c) => samePos(c, q))).slice(0, pick.max);
  ui.picked = kept;
  const shows = ui.shows || {};
  const now: Record<string, Kind> = {};
  ui.shows = now;
  for (const q of kept) {
    const k = shows[key(q)];
    if (k && offered(table, pick, q).includes(k)) now[key(q)] = k;
  }
}

function tap(table: GameTable, pos: Pos, pick: Pick, a: Acting) {
  const picked = table.ui.picked || (table.ui.picked = []);
  const shows = table.ui.shows || (table.ui.shows = {});
  const i = picked.findIndex((p) => samePos(p, pos));
  if (i >= 0) {
    picked.splice(i, 1);
    delete shows[key(pos)];
  } else if (picked.length < pick.max) {
    picked.push(pos);
    const can = pick.report ? offered(table, pick, pos) : [];
    if (can.length === 1) shows[key(pos)] = can[0];
  }
  if (!pick.peek && !pick.report && picked.length === pick.max) {
    const cards = picked.map((p) => ({column: p.column, row: p.row}));
    table.ui.picked = [];
    table.send({type: 'flip', seat: a.seat, cards});
    return;
  }
  if (pick.report) table.announce(table.t(i >= 0 ? 'app.ct.unchosen' : 'app.ct.chosen-say', {place: place(table, {wonder: table.view.state.columns[pos.column].wonder, row: pos.row})}));
  table.redraw();
  const el = document.querySelector<HTMLElement>(`button[data-cell="${key(pos)}"]`);
  if (el) el.focus();
}

// reportPanel asks what each card chosen in a physical flip shows, among
// the kinds offered, then reports them.
function reportPanel(table: GameTable, a: Acting | null, pick: Pick) {
  const st = table.view.state;
  const picked = table.ui.picked || [];
  const shows = table.ui.shows || (table.ui.shows = {});
  const left = pick.max - picked.length;
  const ready = left === 0 && picked.every((p) => shows[key(p)]);
  const groups = picked.map((p) => {
    const k = key(p);
    const id = 'shows-' + k;
    return h('div', {class: 'ct-shows', role: 'group', 'aria-labelledby': id}, h('p', {id}, table.t('app.ct.shows', {place: place(table, {wonder: st.columns[p.column].wonder, row: p.row})})),
      h('div', {class: 'buttons'}, offered(table, pick, p).map((kind) => h('button', {type: 'button', class: 'ct-kind', 'data-kind': kind, 'data-for': k, 'data-k': `kind-${k}-${kind}`,
        'aria-pressed': shows[k] === kind ? 'true' : 'false', onclick: () => { shows[k] = kind; table.redraw(); }}, gem(kind), table.term(KIND, kind)))));
  });
  const who = a && a.host ? table.playerName(a.seat) : '';
  return h('section', {class: 'ct-report', 'aria-labelledby': 'report-h', 'data-state': 'report'},
    h('h2', {id: 'report-h'}, who ? table.t('app.ct.what-show-for', {count: pick.max, who}) : table.t('app.ct.what-show', {count: pick.max})),
    left > 0 ? h('p', {}, left === 1 ? (pick.max === 1 ? table.t('app.ct.tap-the') : table.t('app.ct.tap-one-more')) : table.t('app.ct.tap-n', {n: left})) : null,
    groups,
    h('div', {class: 'buttons'},
      h('button', {type: 'button', class: 'primary', 'data-k': 'report', disabled: !ready,
        onclick: () => a && table.send({type: 'flip', seat: a.seat, cards: picked.map((p) => ({column: p.column, row: p.row})), shows: picked.map((p) => shows[key(p)])})}, who ? table.t('app.ct.report-for', {who}) : table.t('app.sg.report')),
      h('button', {type: 'button', 'data-k': 'report-clear', onclick: () => {
        table.ui.picked = [];
        table.ui.shows = {};
        table.redraw();
        const g = document.querySelector<HTMLElement>('.ct-scroll');
        if (g) g.focus();
      }}, table.t('app.clear'))));
}

// narrow says whether the screen is too narrow for ten wonders side by
// side: the grid then has a row per wonder (5 cards across, not 10), and is
// drawn again when the width crosses over (a tablet turned).
const NARROW = '(max-width: 56rem)';
function narrow(table: GameTable) {
  if (typeof matchMedia !== 'function') return false;
  let watch = table.memo.narrow;
  if (!watch) {
    watch = matchMedia(NARROW);
    watch.addEventListener('change', () => { if (!table.closed) table.redraw(); });
    table.memo.narrow = watch;
  }
  return watch.matches;
}

const tokensLeft = (c: Column): string[] => [c.diamond_token ? 'diamond' : '', c.lock_token && c.lock ? c.lock : ''].filter(Boolean);

function wonderHead(table: Words, c: Column, slim: boolean, attrs?: Record<string, unknown>) {
  const left = tokensLeft(c);
  // The wonder's card back: its silhouette and name, its three gem colours
  // and its key or chest, as pictures.
  const colours = c.colours.map((k) => h('span', {class: 'ct-gem'}, gem(k), h('span', {class: 'sr-only'}, kind(table, k) + ' ')));
  return h('th', {class: 'ct-wonder', ...attrs},
    h('span', {class: 'ct-wname'}, wonderArt(c.wonder), h('span', {}, wonder(table, c.wonder))),
    h('span', {class: 'ct-colours'}, colours, c.lock ? h('span', {class: 'ct-gem'}, gem(c.lock), h('span', {class: 'sr-only'}, kind(table, c.lock))) : null),
    slim ? h('span', {class: 'muted ct-tokens'}, h('span', {'aria-hidden': 'true'}, left.length ? `+${left.map((k) => (k === 'diamond' ? '◆' : k)).join(' ')}` : '–'),
      h('span', {class: 'sr-only'}, left.length ? table.t('app.ct.tokens-list', {tokens: left.map((x) => kind(table, x)).join(', ')}) : table.t('app.ct.no-tokens')))
      : h('span', {class: 'muted ct-tokens'}, left.length ? table.t('app.ct.tokens-plus', {count: left.length, tokens: left.map((x) => kind(table, x)).join(' + ')}) : table.t('app.ct.no-tokens')));
}

function cellOf(table: GameTable, a: Acting | null, c: Column, col: number, r: number, pick: Pick | null, picked: Pos[]) {
  const cell = c.cells[r];
  const pos = {column: col, row: r};
  const what = table.t('app.ct.cell', {wonder: wonder(table, c.wonder), row: r + 1});
  if (cell === undefined) return h('td', {});
  if (cell === 'gone') return h('td', {class: 'ct-cell gone'}, h('span', {class: 'sr-only'}, table.t('app.ct.cell-taken', {what})));
  if (cell !== 'down') {
    // Narrow, a gem shows its colour's letter (as the wonders' colours do)
    // and a diamond ◆; a screen reader hears the word.
    // A card face up shows its picture: a gem of its colour, a diamond, a
    // key or a chest (a screen reader hears the word).
    return h('td', {class: 'ct-cell up'}, h('span', {class: 'ct-face face-' + cell, 'data-shows': cell}, gem(cell), h('span', {class: 'sr-only'}, kind(table, cell))),
      h('span', {class: 'sr-only'}, ` (${what})`));
  }
  // At the end everything is public: a card left face down shows what it
  // was (the view's faces, in a digital game).
  const was = c.faces && c.faces[r];
  if (was && was !== 'gone') {
    return h('td', {class: 'ct-cell'}, h('span', {class: 'ct-was', 'data-was': was}, gem(was), h('span', {class: 'sr-only'}, table.t('app.ct.cell-was', {what, kind: kind(table, was)}))));
  }
  if (a && pick && pick.cells.some((p) => samePos(p, pos)) && allowed(pick, picked, pos)) {
    const on = picked.some((p) => samePos(p, pos));
    // A card chosen for a report shows what it was said to show.
    const said = on && pick.report && (table.ui.shows || {})[key(pos)];
    return h('td', {class: 'ct-cell'}, h('button', {type: 'button', class: 'ct-back', 'data-cell': key(pos), 'aria-pressed': on ? 'true' : 'false',
      'aria-label': table.t(pick.peek ? 'app.ct.aria.peek' : pick.report ? 'app.ct.aria.turned' : 'app.ct.aria.flip', {what}) + (said ? table.t('app.ct.aria.shows', {kind: kind(table, said)}) : ''), onclick: () => tap(table, pos, pick, a)},
    said ? h('span', {class: 'ct-said'}, gem(said)) : '?'));
  }
  return h('td', {class: 'ct-cell'}, h('span', {class: 'ct-back'}, h('span', {'aria-hidden': 'true'}, '?'), h('span', {class: 'sr-only'}, table.t('app.ct.cell-down', {what}))));
}

function grid(table: GameTable, a: Acting | null) {
  const st = table.view.state;
  const pick = pickable(table, a);
  const picked = table.ui.picked || [];
  const rows = Math.max(...st.columns.map((c) => c.cells.length));
  const slim = narrow(table);
  let head;
  const body: HTMLElement[] = [];
  if (slim) {
    // A row per wonder: its name, colours and tokens, then its cards.
    const nums = [];
    for (let r = 0; r < rows; r++) nums.push(h('th', {scope: 'col'}, h('span', {class: 'sr-only'}, table.t('app.ct.row') + ' '), String(r + 1)));
    head = h('tr', {}, h('th', {scope: 'col', class: 'ct-wonder'}, table.t('app.ct.wonder')), nums);
    st.columns.forEach((c, col) => {
      const cells = [];
      for (let r = 0; r < rows; r++) cells.push(cellOf(table, a, c, col, r, pick, picked));
      body.push(h('tr', {}, wonderHead(table, c, true, {scope: 'row'}), cells));
    });
  } else {
    head = h('tr', {}, h('th', {scope: 'col'}, h('span', {class: 'sr-only'}, table.t('app.ct.row'))), st.columns.map((c) => wonderHead(table, c, false, {scope: 'col'})));
    for (let r = 0; r < rows; r++) {
      body.push(h('tr', {}, h('th', {scope: 'row'}, String(r + 1)), st.columns.map((c, col) => cellOf(table, a, c, col, r, pick, picked))));
    }
  }
  const faces = st.columns.some((c) => c.faces);
  return h('section', {'aria-labelledby': 'grid-h'}, h('h2', {id: 'grid-h'}, faces ? table.t('app.ct.grid-faces') : table.t('app.ct.grid', {count: st.cards_left})),
    h('div', {class: 'ct-scroll', tabindex: '0', role: 'region', 'aria-labelledby': 'grid-h'},
      h('table', {class: slim ? 'ct-grid ct-narrow' : 'ct-grid'}, h('thead', {}, head), h('tbody', {}, body))),
    pick && pick.report && picked.length ? reportPanel(table, a, pick) : null);
}

const take = (table: Words, t: string[]) => (t.length ? table.t('app.ct.take', {what: table.tlist(t.map((x) => (x === 'keys_chests' ? table.t('app.ct.the-keys-chests') : x === 'diamond' ? table.t('app.ct.the-diamonds') : table.t('app.ct.the-gems', {kind: kind(table, x)}))))}) : table.t('app.ct.take-nothing'));

function actions(table: GameTable, a: Acting) {
  const l = a.l;
  const seat = a.seat;
  const who = table.playerName(seat);
  const out = [];
  const btn = (k: string, text: string, move: Move, primary?: boolean) => h('li', {}, h('button', {type: 'button', class: primary ? 'primary' : '', 'data-option': k, 'data-k': k, onclick: () => table.send(move)}, text));
  const pick = pickable(table, a);
  if (a.host) out.push(h('p', {}, table.t('app.ct.they-or-you', {who})));
  if (table.ui.peek !== undefined && pick && pick.peek) {
    const peek = pick.peek;
    const n = (table.ui.picked || []).length;
    out.push(h('p', {}, table.t('app.ct.peek-how', {n: pick.min === pick.max ? pick.min : table.t('app.ct.min-max', {min: pick.min, max: pick.max}),
      which: table.t(peek.same_wonder ? 'app.ct.of-one-wonder' : peek.different_wonders ? 'app.ct.of-different-wonders' : 'app.ct.any'), chosen: n})));
    if (physical(table)) out.push(h('p', {class: 'note', 'data-testid': 'peek-note'}, table.t('app.ct.peek-physical')));
    out.push(h('div', {class: 'buttons'},
      h('button', {type: 'button', class: 'primary', 'data-k': 'peek', disabled: n < pick.min, onclick: () => table.send({type: 'use_token', seat, token: peek.token, cards: (table.ui.picked || []).map((p) => ({column: p.column, row: p.row}))})}, table.t('app.ct.peek')),
      h('button', {type: 'button', 'data-k': 'peek-cancel', onclick: () => { delete table.ui.peek; table.ui.picked = []; table.redraw(); }}, table.t('app.cancel'))));
    return out;
  }
  if (l.flip) {
    const n = (table.ui.picked || []).length;
    const c = l.flip.count;
    const more = l.collect && l.collect.length ? table.t('app.ct.or-collect') : '.';
    if (physical(table)) {
      out.push(h('p', {'data-flip': c}, table.t('app.ct.flip-physical', {count: c, chosen: n}), more));
    } else {
      out.push(h('p', {'data-flip': c}, c === 1 ? table.t('app.ct.flip-one') : table.t('app.ct.flip-n', {count: c, chosen: n}), more));
    }
  }
  const opts: HTMLElement[] = [];
  (l.collect || []).forEach((t, i) => opts.push(btn('collect-' + i, take(table, t), {type: 'collect', seat, take: t})));
  (l.rob || []).forEach((r, i) => opts.push(btn('rob-' + i, table.t('app.ct.steal', {what: r.card ? cardWords(table, r.card) : table.t('app.ct.the-diamond-token', {wonder: wonder(table, r.diamond_token || '')}), from: table.playerName(r.target)}),
    {type: 'rob', seat, target: r.target, ...(r.card ? {card: r.card} : {diamond_token: r.diamond_token})})));
  (l.use_token || []).forEach((u) => {
    if (u.cells) {
      opts.push(h('li', {}, h('button', {type: 'button', 'data-k': 'use-' + u.token, onclick: () => { table.ui.peek = u.token; table.ui.picked = []; table.redraw(); }},
        table.t('app.ct.use', {token: u.token, effect: effect(table, u.effect)}))));
    } else {
      opts.push(btn('use-' + u.token, table.t('app.ct.use', {token: u.token, effect: effect(table, u.effect)}), {type: 'use_token', seat, token: u.token}));
    }
  });
  (l.claim || []).forEach((t) => {
    const tok = table.view.state.action_tokens.find((x) => x.token === t);
    opts.push(btn('claim-' + t, tok ? table.t('app.ct.claim-effect', {token: t, effect: effect(table, tok.effect)}) : table.t('app.ct.claim', {token: t}), {type: 'ct_claim', seat, token: t}));
  });
  if (l.end) opts.push(btn('end', a.host ? table.t('app.ct.end-their', {who}) : table.t('app.ct.end-yours'), {type: 'ct_end', seat}, true));
  if (opts.length) out.push(h('ul', {class: 'options'}, opts));
  return out;
}

function render(table: GameTable) {
  const v = table.view;
  const st = v.state;
  const out: (HTMLElement | null)[] = [table.heading(table.t('app.ct.title'))];
  const phase = ['reveal', 'choose', 'rob', 'claim'].includes(st.phase) ? table.t(PHASE + st.phase) : st.phase;
  out.push(h('p', {class: 'phase'}, v.ended ? table.t('app.sg.game-over') : table.t('app.ct.round-phase', {round: st.round, who: table.playerName(st.turn), phase}),
    ` · ${table.term(VARIANT, st.variant)}${st.mode === 'physical' ? table.t('app.ct.physical') : ''}${st.last_round ? table.t('app.ct.last-round') : ''}${st.thefts_owed ? table.t('app.ct.thefts-owed', {count: st.thefts_owed}) : ''}`));
  if (v.ended && table.score) out.push(finalScore(table, table.score));
  const a = acting(table);
  tidy(table, a);
  if (hasMoves(a)) {
    out.push(h('section', {class: 'action', 'aria-labelledby': 'act-h', 'data-state': 'options', 'data-for': a.seat},
      h('h2', {id: 'act-h'}, a.host ? table.t('app.ct.move-for', {who: table.playerName(a.seat)}) : table.t('app.ct.your-move')), actions(table, a)));
  } else if (table.role === 'seat' && !v.ended) {
    out.push(h('section', {class: 'action', 'aria-labelledby': 'act-h', 'data-state': 'wait'}, h('h2', {id: 'act-h'}, table.t('app.sg.waiting')), h('p', {}, table.t('app.sg.waiting-for', {who: table.playerName(st.turn)}))));
  } else if (table.role === 'host' && !v.ended && !physical(table)) {
    out.push(h('p', {class: 'muted'}, table.t('app.ct.follows')));
  }
  if (table.memo.peek && !v.ended) out.push(peekPanel(table, table.memo.peek));
  out.push(grid(table, a));
  const aw = st.awards;
  const holder = (x: number | null | undefined) => (x === null || x === undefined ? table.t('app.ct.not-taken') : table.playerName(x));
  out.push(h('p', {}, h('strong', {}, table.t('app.ct.awards')), table.t('app.ct.award-holder', {award: table.term(AWARD, 'colorful_gems'), who: holder(aw.colorful_gems)}),
    ' · ', table.t('app.ct.award-holder', {award: table.term(AWARD, 'explorer'), who: holder(aw.explorer)})));
  if (st.action_tokens && st.action_tokens.length) {
    out.push(h('p', {}, h('strong', {}, table.t('app.ct.action-tokens')), st.action_tokens.map((x) => table.t('app.ct.token-state', {token: x.token, effect: effect(table, x.effect),
      state: x.spent ? table.t('app.ct.used') : x.holder === null || x.holder === undefined ? table.t('app.ct.on-offer') : table.playerName(x.holder)})).join(' · ')));
  }
  out.push(h('section', {'aria-labelledby': 'boards-h'}, h('h2', {id: 'boards-h'}, table.t('app.new.players')), h('div', {class: 'boards'}, st.players.map((p) => h('article', {class: 'board', 'aria-labelledby': 'ct-' + p.seat},
    h('h3', {id: 'ct-' + p.seat}, p.name, p.seat === st.turn && !v.ended ? h('span', {class: 'muted'}, table.t('app.lth.on-turn')) : null),
    h('div', {class: 'ct-have'}, h('strong', {}, table.t('app.ct.cards')), p.cards.length ? h('ul', {class: 'ct-cards'}, p.cards.map((c) => h('li', {class: 'ct-card', title: wonder(table, c.wonder)},
      gem(c.kind), wonderArt(c.wonder), h('span', {class: 'sr-only'}, cardWords(table, c))))) : table.t('app.none')),
    h('p', {}, h('strong', {}, table.t('app.ct.tokens')), [p.diamond_tokens.length ? table.t('app.ct.diamond-tokens-of', {wonders: p.diamond_tokens.map((x) => wonder(table, x)).join(', ')}) : '', p.key_tokens ? table.t('app.ct.n-key', {n: p.key_tokens}) : '',
      p.chest_tokens ? table.t('app.ct.n-chest', {n: p.chest_tokens}) : '', p.action_tokens.length ? table.t('app.ct.action-tokens-n', {count: p.action_tokens.length, tokens: p.action_tokens.join(', ')}) : ''].filter(Boolean).join(' · ') || table.t('app.none')),
    h('p', {class: 'muted'}, table.t('app.ct.turns-played', {count: p.turns})))))));
  return h('div', {class: 'ct'}, out);
}

// peekPanel shows what a peek showed the seat, until the next move: then
// the cards are face down for it too, as at the table.
function peekPanel(table: Words, cards: Shown[]) {
  return h('section', {class: 'ct-peek note', 'aria-labelledby': 'peek-h', 'data-testid': 'peeked'}, h('h2', {id: 'peek-h'}, table.t('app.ct.you-peek')),
    h('p', {}, table.t('app.ct.peeked', {cards: table.tlist(cards.map((c) => table.t('app.ct.place-shows', {place: place(table, c), kind: kind(table, c.kind)})))})));
}

// finalScore has a column per player and a row per line of the score, so
// that it fits a phone with four players as with two.
function finalScore(table: GameTable, sc: Score) {
  const lines: [string, keyof Score['players'][number]['lines']][] = [['app.ct.line.diamond-cards', 'diamond_cards'], ['app.sheet.ct.col.diamond-tokens', 'diamond_tokens'], ['app.sheet.ct.col.gems', 'gems'], ['app.sheet.ct.col.action-tokens', 'action_tokens'], ['app.sheet.ct.col.awards', 'awards']];
  return h('section', {class: 'final', 'aria-labelledby': 'final-h', 'data-testid': 'final'}, h('h2', {id: 'final-h'}, sc.final ? table.t('app.score.final') : table.t('app.score.so-far')),
    h('table', {class: 'ct-score'}, h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, table.t('app.ct.points')), sc.players.map((p) => h('th', {scope: 'col'}, p.name)))),
      h('tbody', {}, lines.map(([label, k]) => h('tr', {}, h('th', {scope: 'row'}, table.t(label)), sc.players.map((p) => h('td', {}, p.lines[k])))),
        h('tr', {}, h('th', {scope: 'row'}, table.t('app.sg.col.total')), sc.players.map((p) => h('td', {}, h('strong', {}, p.total)))))),
    h('ol', {class: 'ranking'}, sc.ranking.map((r, i) => h('li', {}, `${r.rank}. ${r.name}, ${r.total}`,
      i > 0 && r.decided_by_label ? ` (${r.decided_by_label})` : ''))));
}

// The screen, as the shell finds it (web/src/games.gen.ts).
const screen: Screen<View, Own, UI, Memo, Score> = {ruleset, events, refreshOnMove: true, history: true, hostSeats, describe, render, sheet};
export default screen;
