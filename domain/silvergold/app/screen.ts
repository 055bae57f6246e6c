// Silver & Gold: the seat's screen (keep, cross with the red-cross chain asked
// for step by step, take a replacement), the host's (a physical game's
// reports: expedition cards and display cards, with only the choices the
// server lists), and everyone's view of the table and the final score.
import type {Legal, Move, Schemas, Screen, Table, Words} from '../../../web/src/screen';
import {h, call, type Attrs, type Child} from '../../../web/src/lib';
import {symbol, crossedOut, seal as sealArt, coin as coinArt, palm as palmArt, cup as cupArt} from './art';
import './screen.css';
import {sheet} from './sheet';

// The game's view and listing as the server sends them (its schemas in
// openapi.yaml).
type View = Schemas['SilverGoldView'];
type Own = Schemas['SilverGoldLegal'];
type Listing = Legal<Own>;
type Player = Schemas['SilverGoldPlayer'];
type Score = Schemas['SilverGoldScore'];
type CatalogCard = Schemas['SilverGoldCatalogCard'];
// CardFace is what a card's picture shows: a catalog card, or a seat's
// card as the view sends it.
type CardFace = Pick<CatalogCard, 'id' | 'colour' | 'value' | 'seal' | 'grid'>;
// Catalog is the game's catalog, by card id and expedition code.
type Catalog = {cards: Map<string, CatalogCard>; expeditions: Map<string, Schemas['SilverGoldExpeditionCard']>};
// Picker is a card picker's choice: the host's report of a display card,
// or a seat's of the card it drew.
type Picker = 'draw' | 'display';
// UI is what the player is choosing: the cards to keep (by colour when
// many), the boxes to cross and the red crosses' extra boxes, a picked card.
type UI = {keep?: string[]; keepColour?: string; sel?: string[]; extra?: string[]; stage?: 'pick' | 'extra'; fitsOpen?: boolean} &
  {[P in Picker]?: string | null} & {[P in Picker as `${P}Colour`]?: string};
// Memo keeps the catalog.
type Memo = {catalog?: Catalog};
type GameTable = Table<View, Own, UI, Memo, Score>;
// GridOpts says how a card's boxes are drawn: which are crossed, crossed
// this turn, where the expedition fits, chosen; whether a tap chooses one.
type GridOpts = {crossed?: Set<string>; turn?: Set<string>; fits?: Set<string>; sel?: Set<string>; extra?: Set<string>; onTap?: (key: string) => void; decor?: boolean;
  small?: boolean; mini?: boolean; left?: number; card?: CardFace; verb?: string};
// EventData is what the game's events carry (each some of it).
type EventData = {seat?: number | null; round?: number; turn?: number; expedition?: string | Schemas['SilverGoldExpedition']; value?: number; cup?: number; card?: string | null; from?: string};

const ruleset = 'silver-and-gold';
const events = ['expedition_revealed', 'player_passed', 'crossed', 'crossing_closed', 'resolving', 'cup_taken',
  'card_completed', 'no_replacement', 'card_taken', 'display_card', 'cards_kept', 'turn_resolved', 'round_ended', 'game_ended'];

// The words for a box's symbol (o, c, p, x) and a card's colour.
const SYMBOL = 'app.sg.symbol.';
const COLOUR = 'app.colour.';
const colour = (table: Words, c: string | null | undefined) => (c ? table.t(COLOUR + c) : '');
// cardName is a card's colour and value, as a player names it.
const cardName = (table: Words, c: {colour: string; value: number}) => table.t('app.sg.card-name', {colour: colour(table, c.colour), value: c.value});
const catalogs = new Map<string, Catalog>();
// cards are the catalog's cards by id (none before it is read).
const cards = (table: GameTable): Map<string, CatalogCard> => (table.memo.catalog ? table.memo.catalog.cards : new Map());

// load fetches the game's catalog once: every card's grid, colour and value.
async function load(table: GameTable) {
  const st = table.view.state;
  const key = st.catalog.name + '@' + st.catalog.hash;
  if (!catalogs.has(key)) {
    const cat = await call<Schemas['SilverGoldCatalog']>('GET', `/v1/catalogs/${encodeURIComponent(st.catalog.name)}?ruleset=${ruleset}`);
    catalogs.set(key, {
      cards: new Map(cat.cards.map((c) => [c.id, c])),
      expeditions: new Map(cat.expeditions.map((e) => [e.code, e])),
    });
  }
  table.memo.catalog = catalogs.get(key);
}

function patternName(table: GameTable, code: string | Schemas['SilverGoldExpedition'] | undefined) {
  if (code && typeof code === 'object') return table.t('app.sg.pattern-name', {name: code.name, code: code.code});
  const e = code && table.memo.catalog && table.memo.catalog.expeditions.get(code);
  return e ? table.t('app.sg.pattern-name', {name: e.name, code}) : String(code);
}

// short names a card in a line of text as it looks: colour and value.
function short(table: GameTable, id: string | null | undefined) {
  const c = id ? table.memo.catalog && table.memo.catalog.cards.get(id) : undefined;
  return c ? table.t(c.seal ? 'app.sg.short-sealed' : 'app.sg.short', {colour: colour(table, c.colour), value: c.value}) : table.t('app.sg.short-id', {id});
}

// describe turns an event into a line of the table's log.
function describe(ev: string, data: unknown, table: GameTable) {
  const d = (data || {}) as EventData;
  const who = d.seat !== undefined && d.seat !== null ? table.playerName(d.seat) : '';
  switch (ev) {
    case 'expedition_revealed':
      return table.t('app.sg.log.revealed', {round: d.round, turn: d.turn, pattern: patternName(table, d.expedition)});
    case 'player_passed':
      return table.t('app.sg.log.passed', {who});
    case 'crossed':
      return table.t('app.sg.log.crossed', {who});
    case 'crossing_closed':
      return table.t('app.sg.log.crossing-closed');
    case 'cup_taken':
      return table.t('app.sg.log.cup', {who, value: d.value ?? d.cup ?? ''});
    case 'card_completed':
      return table.t('app.sg.log.completed', {who, card: short(table, d.card)});
    case 'card_taken':
      return d.card ? table.t(d.from === 'deck' ? 'app.sg.log.taken-deck' : 'app.sg.log.taken-display', {who, card: short(table, d.card)}) :
        table.t(d.from === 'deck' ? 'app.sg.log.taken-deck-hidden' : 'app.sg.log.taken-display-hidden', {who});
    case 'display_card':
      return table.t('app.sg.log.display', {card: short(table, d.card)});
    case 'cards_kept':
      return table.t('app.sg.log.kept');
    case 'no_replacement':
      return table.t('app.sg.log.no-replacement');
    case 'turn_resolved':
      return table.t('app.sg.log.turn-over', {turn: d.turn});
    case 'round_ended':
      return table.t('app.sg.log.round-over', {round: d.round});
    case 'game_ended':
      return table.t('app.sg.log.ended');
    default:
      return null;
  }
}

const k = (card: string, r: number, c: number) => `${card}:${r}:${c}`;
const parse = (key: string) => {
  const [card, r, c] = key.split(':');
  return {card, r: Number(r), c: Number(c)};
};

// grid draws a card's boxes. Free boxes are buttons when onTap is given.
function grid(table: Words, card: CardFace, opts: GridOpts = {}) {
  const onTap = opts.onTap;
  const rows = card.grid.map((row, r) => h('div', {class: 'row'}, Array.from(row, (ch, c) => {
    if (ch === '.') return h('span', {class: 'cell none', 'aria-hidden': 'true'});
    const key = k(card.id, r, c);
    const crossed = opts.crossed && opts.crossed.has(key);
    const mine = opts.turn && opts.turn.has(key);
    const cls = ['cell', 'sym-' + ch];
    if (crossed) cls.push('crossed');
    if (mine) cls.push('this-turn');
    if (opts.fits && opts.fits.has(key)) cls.push('fits');
    const sel = opts.sel && opts.sel.has(key);
    const extra = opts.extra && opts.extra.has(key);
    if (sel) cls.push('sel');
    if (extra) cls.push('extra');
    let label = table.t('app.sg.box', {row: r + 1, column: c + 1, symbol: table.t(SYMBOL + ch)});
    if (crossed) label += table.t('app.sg.box-crossed');
    else if (mine) label += table.t('app.sg.box-this-turn');
    if (opts.fits && opts.fits.has(key)) label += table.t('app.sg.box-fits');
    if (onTap && !crossed) {
      return h('button', {type: 'button', class: cls.join(' '), 'aria-label': label, 'aria-pressed': sel || extra ? 'true' : 'false',
        'data-k': 'box-' + key, 'data-box': key, onclick: () => onTap(key)}, symbol(ch));
    }
    // Inside a card that is itself a button (a picture to tap), the boxes
    // are the picture: the button's name says the card.
    if (opts.decor) return h('span', {class: cls.join(' ')}, symbol(ch), crossed ? crossedOut() : null);
    return h('span', {class: cls.join(' '), role: 'img', 'aria-label': label}, symbol(ch), crossed ? crossedOut() : null);
  })));
  return h('div', {class: 'grid'}, rows);
}

// cardWords says a card as a player sees it: its colour and value, what its
// boxes show and its seal (the catalog's id is printed on no real card; it
// comes last, to tell two alike cards apart).
export function cardWords(table: Words, card: CardFace) {
  const n = (ch: string) => card.grid.join('').split(ch).length - 1;
  const parts = [cardName(table, card)];
  const c = n('c');
  const p = n('p');
  const x = n('x');
  if (c) parts.push(table.t('app.sg.coins', {count: c}));
  if (p) parts.push(table.t('app.sg.palms', {count: p}));
  if (x) parts.push(table.t('app.sg.red-crosses', {count: x}));
  if (card.seal) parts.push(sealWords(table, card.seal));
  return `${parts.join(', ')} (${card.id})`;
}

function sealWords(table: Words, seal: Schemas['SilverGoldSeal']) {
  return table.t('app.sg.seal', {points: seal.points, colour: colour(table, seal.colour)});
}

// cardTitle is the card's top edge as printed: the value top left, the
// seal (if any) top right.
function cardTitle(table: Words, card: CardFace, extra?: string) {
  return h('p', {class: 'card-title'}, h('span', {class: 'card-value', 'aria-hidden': 'true'}, String(card.value)),
    extra ? h('span', {class: 'card-left'}, extra) : null,
    card.seal ? h('span', {class: 'card-seal'}, sealArt(card.seal.colour, card.seal.points, sealWords(table, card.seal))) : null);
}

function cardTile(table: GameTable, id: string, opts: GridOpts = {}) {
  const card = cards(table).get(id) || opts.card;
  if (!card) return h('div', {class: 'tile'}, id);
  return h('div', {class: `tile colour-${card.colour}${opts.small ? ' small' : ''}`, role: 'group', 'aria-label': `${cardWords(table, card)}${opts.left !== undefined ? table.t('app.sg.boxes-left', {count: opts.left}) : ''}`},
    cardTitle(table, card, opts.left !== undefined ? table.t('app.sg.left', {count: opts.left}) : ''), grid(table, card, opts));
}

// cardButton is a card drawn as a button: tapping the picture chooses it.
function cardButton(table: GameTable, id: string, attrs: Attrs, opts: GridOpts = {}) {
  const card = cards(table).get(id);
  if (!card) return h('button', {type: 'button', ...attrs}, id);
  return cardPicture(table, card, attrs, opts);
}

// cardPicture draws a catalog card as a button to tap (the score sheet
// uses it too).
export function cardPicture(table: Words, card: CardFace, attrs: Attrs, opts: GridOpts = {}) {
  return h('button', {type: 'button', class: `tile pick-card colour-${card.colour}${opts.small ? ' small' : ''}`, 'aria-label': opts.verb ? table.t('app.sg.verb-card', {verb: opts.verb, card: cardWords(table, card)}) : cardWords(table, card), ...attrs},
    // The picture is the button's content; its name (the label) says it
    // in words.
    h('span', {class: 'pick-face', 'aria-hidden': 'true'}, cardTitle(table, card), grid(table, card, {decor: true})));
}

function pattern(table: GameTable, code: string) {
  const e = table.memo.catalog && table.memo.catalog.expeditions.get(code);
  if (!e) return h('span', {}, code);
  const rows = Math.max(...e.boxes.map((b) => b[0])) + 1;
  const cols = Math.max(...e.boxes.map((b) => b[1])) + 1;
  const set = new Set(e.boxes.map((b) => b[0] + ',' + b[1]));
  const out: HTMLElement[] = [];
  for (let r = 0; r < rows; r++) {
    const cells: HTMLElement[] = [];
    for (let c = 0; c < cols; c++) cells.push(h('span', {class: set.has(r + ',' + c) ? 'pcell on' : 'pcell'}));
    out.push(h('div', {class: 'row'}, cells));
  }
  return h('span', {class: 'pattern', role: 'img', 'aria-label': table.t('app.sg.pattern-name', {name: e.name, code})}, out);
}

// The words for what the table waits for, by action.
const AWAIT = 'app.sg.await.';

function awaitingText(table: GameTable) {
  const st = table.view.state;
  const known = ['keep', 'cross', 'take', 'reveal', 'display'];
  return table.tlist((st.awaiting || []).map((a) => {
    const who = a.actor === 'seat' ? table.playerName(a.seat ?? null) : table.t('app.sg.the-host');
    return known.includes(a.action) ? table.t(AWAIT + a.action, {who}) : table.t('app.sg.await-other', {who, action: a.action});
  }));
}

function render(table: GameTable) {
  const v = table.view;
  const st = v.state;
  const out: (HTMLElement | null)[] = [];
  out.push(table.heading(table.t('app.sg.title')));
  out.push(tableInfo(table));
  if (v.ended && table.score) out.push(finalScore(table, table.score));
  if (table.role === 'seat' && table.legal) out.push(seatPanel(table, table.legal));
  if (table.role === 'host' && st.mode === 'physical' && table.legal) out.push(reportPanel(table, table.legal));
  out.push(boards(table));
  return h('div', {class: 'sg'}, out);
}

function tableInfo(table: GameTable) {
  const st = table.view.state;
  const parts: HTMLElement[] = [];
  const phase = table.view.ended ? table.t('app.sg.game-over') : st.phase === 'setup' ? table.t('app.sg.setting-up') : table.t('app.sg.round-turn', {round: st.round, turn: st.turn});
  parts.push(h('p', {class: 'phase'}, phase, table.t('app.sg.phase-rest', {mode: st.mode === 'physical' ? table.t('app.mode.physical') : table.t('app.mode.digital'), start: table.playerName(st.start_player)})));
  if (st.expedition) {
    parts.push(h('div', {class: 'expedition'}, h('span', {}, table.t('app.sg.expedition-card')), pattern(table, st.expedition.code), h('strong', {}, ' ', table.t('app.sg.pattern-name', {name: st.expedition.name, code: st.expedition.code}))));
  }
  const waiting = awaitingText(table);
  if (waiting && !table.view.ended) parts.push(h('p', {class: 'awaiting'}, table.t('app.sg.waiting-for', {who: waiting})));
  if (st.display && st.display.length) {
    parts.push(h('h3', {}, table.t('app.sg.display-deck', {count: st.deck_size})));
    parts.push(h('div', {class: 'tiles'}, st.display.map((id) => cardTile(table, id, {small: true}))));
  }
  parts.push(h('p', {class: 'muted'}, st.cups_left.length ? table.t('app.sg.cups-left', {cups: st.cups_left.join(', ')}) : table.t('app.sg.cups-none')));
  return h('section', {'aria-label': table.t('app.sg.the-table'), class: 'table-info'}, parts);
}

// ---- the seat's action ----

function seatPanel(table: GameTable, l: Listing) {
  const me = table.view.state.players[table.seat ?? -1];
  const state = l.action === 'cross' && me.crossed_this_turn ? 'crossed' : l.action === 'keep' && me.kept ? 'kept' : l.action;
  const sec = (title: string, ...body: Child[]) => h('section', {class: 'action', 'aria-labelledby': 'act-h', 'data-state': state}, h('h2', {id: 'act-h'}, title), body);
  if (l.action === 'keep') return sec(table.t('app.sg.keep-title'), keepPanel(table, me, l));
  if (l.action === 'cross') return sec(me.crossed_this_turn ? table.t('app.sg.crossed-change') : l.expedition ? table.t('app.sg.cross-the', {pattern: l.expedition.name}) : table.t('app.sg.cross-pattern'), crossPanel(table, me, l));
  if (l.action === 'take') return sec(table.t('app.sg.take-title'), takePanel(table, me, l));
  if (table.view.ended) return null;
  let msg = table.t('app.sg.nothing');
  if (table.view.state.phase === 'setup' && me.kept) msg = table.t('app.sg.kept-waiting');
  if (me.passed) msg = table.t('app.sg.passing');
  return sec(table.t('app.sg.waiting'), h('p', {}, msg));
}

function keepPanel(table: GameTable, me: Player, l: Listing) {
  const ui = table.ui;
  const keep = ui.keep || (ui.keep = []);
  const from = l.keep_from;
  const physical = table.view.state.mode === 'physical';
  const parts: HTMLElement[] = [];
  if (me.kept && me.cards.length) parts.push(h('p', {}, table.t('app.sg.you-kept', {cards: me.cards.map((c) => c.card)})));
  parts.push(h('p', {}, physical ? table.t('app.sg.keep-physical') : table.t('app.sg.keep-digital')));
  let shown = from;
  if (from.length > 8) {
    ui.keepColour = ui.keepColour || 'grey';
    parts.push(h('div', {class: 'filters', role: 'group', 'aria-label': table.t('app.sg.colour')}, ['grey', 'green', 'orange', 'purple'].map((col) =>
      h('button', {type: 'button', 'aria-pressed': ui.keepColour === col ? 'true' : 'false', 'data-k': 'col-' + col, onclick: () => { ui.keepColour = col; table.redraw(); }}, colour(table, col)))));
    shown = from.filter((id) => keep.includes(id) || cards(table).get(id)?.colour === ui.keepColour);
  }
  parts.push(h('div', {class: 'tiles'}, shown.map((id) => {
    const on = keep.includes(id);
    return cardButton(table, id, {'aria-pressed': on ? 'true' : 'false', 'data-k': 'keep-' + id, 'data-keep': id,
      // The choice is read when the card is tapped, not when it was drawn:
      // two taps before a redraw both count.
      onclick: () => {
        const now = ui.keep || [];
        ui.keep = now.includes(id) ? now.filter((x) => x !== id) : [...now, id].slice(-2);
        table.redraw();
      }}, {small: from.length > 8, verb: table.t('app.sg.verb-keep')});
  })));
  // The confirmation stays in view at the foot of the screen while the
  // cards are chosen.
  const chosen = keep.flatMap((id) => cards(table).get(id) || []);
  parts.push(h('div', {class: 'confirm-bar'},
    h('span', {class: 'confirm-what'}, chosen.length ? table.t('app.sg.keeping', {cards: chosen.map((c) => cardName(table, c))}) : table.t('app.sg.tap-two')),
    h('button', {type: 'button', class: 'primary', 'data-k': 'keep-go', 'data-action': 'keep', disabled: keep.length !== 2,
      onclick: () => table.send({type: 'keep', seat: table.seat, cards: ui.keep || []})}, keep.length === 2 ? table.t('app.sg.keep-these') : table.t('app.sg.choose-more', {count: 2 - keep.length}))));
  return parts;
}

// boxesOf returns the boxes of the seat's cards as the crossing is checked
// against them: before this turn's crossing, which a new one replaces.
function crossState(me: Player) {
  const crossed = new Set<string>();
  const turn = new Set<string>();
  for (const c of me.cards) for (const [r, col] of c.crossed) crossed.add(k(c.card, r, col));
  const m = me.crossed_this_turn ? me.crossing : null;
  if (m) {
    for (const [r, col] of m.boxes || []) turn.add(k(m.card, r, col));
    for (const x of m.extra || []) turn.add(k(x.card, x.box[0], x.box[1]));
    for (const key of turn) crossed.delete(key);
  }
  return {crossed, turn};
}

function symbolAt(table: GameTable, key: string) {
  const {card, r, c} = parse(key);
  const cd = cards(table).get(card);
  return cd ? cd.grid[r][c] : 'o';
}

function crossPanel(table: GameTable, me: Player, l: Listing) {
  const ui = table.ui;
  const sel = ui.sel || (ui.sel = []);
  const extra = ui.extra || (ui.extra = []);
  ui.stage = ui.stage || 'pick';
  const {crossed, turn} = crossState(me);
  const free: string[] = [];
  for (const c of me.cards) {
    c.grid.forEach((row, r) => Array.from(row).forEach((ch, col) => {
      if (ch !== '.' && !crossed.has(k(c.card, r, col))) free.push(k(c.card, r, col));
    }));
  }
  const fits = new Set<string>();
  for (const p of l.placements) for (const [r, c] of p.boxes) fits.add(k(p.card, r, c));
  const owed = [...sel, ...extra].filter((key) => symbolAt(table, key) === 'x').length;
  const left = free.filter((key) => !sel.includes(key) && !extra.includes(key));
  // Taps and the send read the choice as it is then, not as it was drawn:
  // two taps before a redraw both count.
  const tap = (key: string) => {
    const sel = ui.sel || [], extra = ui.extra || [];
    if (ui.stage === 'pick') {
      ui.sel = sel.includes(key) ? sel.filter((x) => x !== key) : [...sel, key];
    } else if (!sel.includes(key)) {
      ui.extra = extra.includes(key) ? extra.filter((x) => x !== key) : [...extra, key];
    }
    table.redraw();
  };
  const submit = () => {
    const main = (ui.sel || []).map(parse);
    if (!main.length) return;
    const move: Move = {type: 'cross', seat: table.seat, card: main[0].card, boxes: main.map((b) => [b.r, b.c])};
    if (ui.extra?.length) move.extra = ui.extra.map(parse).map((b) => ({card: b.card, box: [b.r, b.c]}));
    table.send(move);
  };
  const parts: HTMLElement[] = [];
  const n = l.placements.length;
  parts.push(h('p', {}, n ? table.t('app.sg.fits-in', {pattern: l.expedition?.name ?? '', count: n}) : table.t('app.sg.fits-nowhere', {pattern: l.expedition?.name ?? ''})));
  if (me.crossed_this_turn) parts.push(h('p', {}, table.t('app.sg.crossing-marked')));
  if (ui.stage === 'extra') {
    const need = owed - extra.length;
    parts.push(h('p', {class: 'chain', role: 'status'}, need > 0 && left.length
      ? table.t('app.sg.red-cross-more', {count: need})
      : table.t('app.sg.red-cross-paid')));
  }
  const cardsOpts = {crossed, turn, fits, sel: new Set(sel), extra: new Set(extra), onTap: tap};
  parts.push(h('div', {class: 'tiles mine'}, me.cards.map((c) => cardTile(table, c.card, {...cardsOpts, left: c.boxes_left, card: {id: c.card, ...c}}))));
  if (n && ui.stage === 'pick') {
    // The same places as a list: quicker than tapping, and what a screen
    // reader user chooses from.
    parts.push(h('details', {class: 'fits-list', open: ui.fitsOpen, ontoggle: (e: Event) => { ui.fitsOpen = (e.target as HTMLDetailsElement).open; }},
      h('summary', {'data-k': 'fits'}, table.t('app.sg.where-fits', {pattern: l.expedition?.name ?? '', n})),
      h('ul', {}, l.placements.map((p, i) => h('li', {}, h('button', {type: 'button', class: 'link', 'data-k': 'fit-' + i, 'data-placement': i,
        onclick: () => { ui.sel = p.boxes.map(([r, c]: number[]) => k(p.card, r, c)); ui.extra = []; table.redraw(); }},
        `${short(table, p.card)}: ${p.boxes.map(([r, c]: number[]) => table.t('app.sg.row-column', {row: r + 1, column: c + 1})).join(', ')}${gains(table, p)}`))))));
  }
  const buttons: HTMLElement[] = [];
  if (ui.stage === 'pick') {
    buttons.push(h('button', {type: 'button', class: 'primary', 'data-k': 'cross-go', 'data-action': 'cross', disabled: !sel.length, onclick: () => {
      if (owed > 0 && left.length) {
        ui.stage = 'extra';
        table.announce(table.t('app.sg.red-cross-announce'));
        table.redraw();
      } else submit();
    }}, sel.length ? table.t('app.sg.cross-n', {count: sel.length}) : table.t('app.sg.tap-boxes')));
  } else {
    const ready = extra.length >= owed || !left.length;
    buttons.push(h('button', {type: 'button', class: 'primary', 'data-k': 'cross-go', 'data-action': 'cross', disabled: !ready, onclick: submit},
      table.t('app.sg.cross-n', {count: sel.length + extra.length})));
    buttons.push(h('button', {type: 'button', 'data-k': 'cross-back', onclick: () => { ui.stage = 'pick'; ui.extra = []; table.redraw(); }}, table.t('app.back')));
  }
  if (sel.length || extra.length) buttons.push(h('button', {type: 'button', 'data-k': 'cross-clear', onclick: () => { ui.sel = []; ui.extra = []; ui.stage = 'pick'; table.redraw(); }}, table.t('app.clear')));
  parts.push(h('div', {class: 'buttons'}, buttons));
  return parts;
}

function gains(table: Words, p: Schemas['SilverGoldPlacement']) {
  const g: string[] = [];
  if (p.coins) g.push(table.t('app.sg.coins', {count: p.coins}));
  if (p.palms) g.push(table.t('app.sg.palms', {count: p.palms}));
  if (p.red_crosses) g.push(table.t('app.sg.red-crosses', {count: p.red_crosses}));
  return g.length ? ` (${g.join(', ')})` : '';
}

// takePanel offers a seat's replacement cards: its own screen's, or the
// host's for that seat (l is the seat's legal moves).
function takePanel(table: GameTable, me: Player, l: Listing, seat = table.seat) {
  const ui = table.ui;
  const owed = me.takes_owed || l.count || 1;
  const you = seat === table.seat;
  const parts: HTMLElement[] = [h('p', {}, you ? table.t('app.sg.you-completed', {count: owed}) : table.t('app.sg.they-completed', {name: me.name, count: owed}))];
  if (l.take_from.length) parts.push(h('p', {class: 'muted'}, table.t('app.sg.tap-display')));
  parts.push(h('div', {class: 'tiles'}, l.take_from.map((id) => cardButton(table, id, {'data-k': 'take-' + id, 'data-take': id,
    onclick: () => table.send({type: 'take', seat, from: 'display', card: id})}, {small: true, verb: table.t('app.sg.verb-take')}))));
  if (l.deck) {
    if (table.view.state.mode === 'digital') {
      parts.push(h('button', {type: 'button', 'data-k': 'take-deck', 'data-take': 'deck', onclick: () => table.send({type: 'take', seat, from: 'deck'})}, table.t('app.sg.draw-top')));
    } else {
      const from = l.deck_cards;
      parts.push(cardPicker(table, 'draw', you ? table.t('app.sg.you-drew') : table.t('app.sg.they-drew', {name: me.name}), from, ui, (id) => table.send({type: 'take', seat, from: 'deck', card: id}), table.t('app.sg.take-from-deck')));
    }
  }
  return parts;
}

// hostSeats are the seats whose legal moves the host's screen reads: in a
// physical game, those that owe a replacement card, which the host may
// report for them.
function hostSeats(view: GameTable['view']) {
  if (view.state.mode !== 'physical' || view.ended) return [];
  return (view.state.awaiting || []).flatMap((a) => (a.actor === 'seat' && a.action === 'take' && a.seat !== undefined ? [a.seat] : []));
}

// cardPicker chooses one card of many by tapping its picture: the cards
// still possible, a colour at a time (the colour is what a player sees
// first on a card turned up), then a confirmation kept in view.
const COLOURS = ['grey', 'green', 'orange', 'purple'];
function cardPicker(table: GameTable, id: Picker, label: string, from: string[], ui: UI, done: (card: string) => void, verb: string) {
  const all = cards(table);
  const colourOf = (c: string) => all.get(c)?.colour;
  const colours = COLOURS.filter((col) => from.some((c) => colourOf(c) === col));
  const asked = ui[id];
  const chosen = asked && from.includes(asked) ? asked : null;
  const colKey = `${id}Colour` as const;
  const now = ui[colKey];
  if (!now || !colours.includes(now)) ui[colKey] = (chosen && colourOf(chosen)) || colours[0];
  const shown = from.filter((c) => colourOf(c) === ui[colKey]);
  const card = chosen ? all.get(chosen) : undefined;
  return h('div', {class: 'picker', role: 'group', 'aria-labelledby': 'pick-h-' + id},
    h('p', {id: 'pick-h-' + id}, label, ': ', h('span', {class: 'muted'}, table.t('app.sg.colour-then-picture'))),
    colours.length > 1 ? h('div', {class: 'filters', role: 'group', 'aria-label': table.t('app.sg.colour')}, colours.map((col) => {
      const n = from.filter((c) => colourOf(c) === col).length;
      return h('button', {type: 'button', class: 'filter colour-' + col, 'aria-pressed': ui[colKey] === col ? 'true' : 'false', 'data-k': `col-${id}-${col}`, 'data-colour': col,
        onclick: () => { ui[colKey] = col; table.redraw(); }}, `${colour(table, col)} (${n})`);
    })) : null,
    h('div', {class: 'tiles'}, shown.map((c) => cardButton(table, c, {'aria-pressed': c === chosen ? 'true' : 'false', 'data-k': `pick-${id}-${c}`, 'data-pick': id, 'data-card': c,
      onclick: () => { ui[id] = c === chosen ? null : c; table.redraw(); }}, {small: true}))),
    h('div', {class: 'confirm-bar'},
      h('span', {class: 'confirm-what'}, card ? table.t(card.seal ? 'app.sg.chosen-sealed' : 'app.sg.chosen', {card: cardName(table, card)}) : table.t('app.sg.tap-turned-up')),
      h('button', {type: 'button', class: 'primary', 'data-k': 'pick-go-' + id, 'data-action': id, disabled: !chosen, onclick: () => chosen && done(chosen)}, verb)));
}

// ---- the host's reports in a physical game ----

function reportPanel(table: GameTable, l: Listing) {
  const ui = table.ui;
  const sec = (title: string, ...body: Child[]) => h('section', {class: 'action', 'aria-labelledby': 'act-h', 'data-state': l.action}, h('h2', {id: 'act-h'}, title), body);
  if (l.action === 'reveal') {
    return sec(table.t('app.sg.report-expedition'), h('p', {}, table.t('app.sg.report-expedition-how')),
      h('div', {class: 'reveal'}, l.reveal_from.map((code) => h('button', {type: 'button', 'data-k': 'reveal-' + code, 'data-reveal': code,
        onclick: () => table.send({type: 'reveal', expedition: code})}, pattern(table, code), ` ${patternName(table, code)}`))));
  }
  if (l.action === 'display') {
    const from = l.deck_cards;
    const n = l.count || 1;
    return sec(table.t('app.sg.report-display'), h('p', {}, table.t('app.sg.report-display-how', {count: n})),
      cardPicker(table, 'display', table.t('app.sg.turned-up'), from, ui, (id) => table.send({type: 'display', card: id}), table.t('app.sg.report')));
  }
  if (table.view.ended) return null;
  for (const [seat, sl] of Object.entries(table.seatLegal || {})) {
    if (sl.action === 'take') {
      const p = table.view.state.players[Number(seat)];
      return h('section', {class: 'action', 'aria-labelledby': 'act-h', 'data-state': 'take'}, h('h2', {id: 'act-h'}, table.t('app.sg.their-replacement', {name: p.name})),
        h('p', {}, table.t('app.sg.they-or-you', {name: p.name})), takePanel(table, p, sl, Number(seat)));
    }
  }
  return sec(table.t('app.sg.nothing-to-report'), h('p', {}, table.t('app.sg.players-playing')));
}

// ---- boards and scores ----

function boards(table: GameTable) {
  const st = table.view.state;
  const order = st.players.map((_p, i) => i).sort((a, b) => (a === table.seat ? -1 : b === table.seat ? 1 : a - b));
  return h('section', {'aria-labelledby': 'boards-h'}, h('h2', {id: 'boards-h'}, table.t('app.sg.score-cards')),
    h('div', {class: 'boards'}, order.map((i) => board(table, st.players[i], i === table.seat && !!table.legal && table.legal.action === 'cross'))));
}

function board(table: GameTable, p: Player, cardsShownAbove: boolean) {
  const st = table.view.state;
  const status: string[] = [];
  if (st.phase === 'setup') status.push(p.kept ? table.t('app.sg.status.kept') : table.t('app.sg.status.choosing'));
  if (st.phase === 'crossing') status.push(p.passed ? table.t('app.sg.status.passes') : p.crossed_this_turn ? table.t('app.sg.status.crossed') : table.t('app.sg.status.crossing'));
  if (p.takes_owed) status.push(table.t('app.sg.status.owes', {count: p.takes_owed}));
  const coins: HTMLElement[] = [];
  for (let row = 0; row < 3; row++) {
    const cells: HTMLElement[] = [];
    for (let i = 0; i < 4; i++) {
      const on = row * 4 + i < p.coins;
      cells.push(h('span', {class: on ? 'coin on' : 'coin'}, coinArt(), on ? crossedOut() : null));
    }
    const cup = p.cups[row];
    cells.push(h('span', {class: cup ? 'cup on' : 'cup'}, cupArt(cup)));
    coins.push(h('div', {class: 'row'}, cells));
  }
  const palms: HTMLElement[] = [];
  for (let i = 0; i < 4; i++) palms.push(h('span', {class: p.palms[i] ? 'palm on' : 'palm'}, palmArt(), p.palms[i] ? h('span', {class: 'palm-n'}, String(p.palms[i])) : null));
  const pile = p.scoring_pile.map((id) => cards(table).get(id) || {id, value: 0, colour: '', grid: undefined});
  const pileValue = pile.reduce((a, c) => a + c.value, 0);
  const cupSum = p.cups.reduce((a, b) => a + b, 0);
  const palmSum = p.palms.reduce((a, b) => a + b, 0);
  const summary = table.t('app.sg.summary', {coins: table.t('app.sg.coins', {count: p.coins}), cups: cupSum, palms: palmSum, cards: table.t('app.sg.completed-cards', {count: pile.length}), points: pileValue});
  const seatCards: HTMLElement[] = [];
  if (!cardsShownAbove && p.cards.length) {
    const crossed = new Set<string>();
    for (const c of p.cards) for (const [r, col] of c.crossed) crossed.add(k(c.card, r, col));
    seatCards.push(h('div', {class: 'tiles'}, p.cards.map((c) => cardTile(table, c.card, {small: true, crossed, left: c.boxes_left, card: {id: c.card, ...c}}))));
  }
  return h('article', {class: 'board', 'aria-labelledby': 'board-' + p.seat, 'data-seat': p.seat},
    h('h3', {id: 'board-' + p.seat}, p.name, status.length ? h('span', {class: 'muted'}, ` · ${status.join(', ')}`) : null),
    h('p', {class: 'summary'}, summary),
    h('div', {class: 'scorecard', role: 'img', 'aria-label': table.t('app.sg.their-score-card', {name: p.name, summary})},
      h('div', {class: 'coins'}, coins), h('div', {class: 'palms'}, palms)),
    seatCards,
    pile.length ? h('div', {class: 'pile'}, h('p', {}, table.t('app.sg.completed')), h('div', {class: 'tiles'}, pile.map((c) => (c.grid ? cardTile(table, c.id, {small: true, mini: true}) : h('span', {}, c.id))))) : null);
}


// The score table's column headings.
const COLUMN = 'app.sg.col.';

// decided says what put a player below the one above in the ranking (the
// score's decided_by).
function decided(table: Words, by: string, above: string) {
  if (by === 'total') return table.t('app.score.fewer-points', {above});
  if (by === 'shared') return table.t('app.score.shares', {above});
  if (['grey', 'green', 'orange', 'purple'].includes(by)) return table.t('app.sg.fewer-colour', {colour: colour(table, by), above});
  return table.t('app.sg.fewer-other', {what: by, above});
}

function finalScore(table: GameTable, sc: Score) {
  const rows = sc.players.map((p) => h('tr', {},
    h('th', {scope: 'row'}, p.name), h('td', {}, p.lines.coins), h('td', {}, p.lines.cups), h('td', {}, p.lines.palms),
    h('td', {}, p.lines.cards), h('td', {}, p.lines.seals), h('td', {}, h('strong', {}, p.total))));
  const ranking = sc.ranking.map((r, i) => {
    const above = i > 0 ? sc.ranking[i - 1].name : '';
    const why = r.decided_by_label || (r.decided_by ? decided(table, r.decided_by, above) : '');
    return h('li', {}, `${r.rank}. ${r.name}, ${r.total}`, why ? ` (${why})` : '');
  });
  return h('section', {class: 'final', 'aria-labelledby': 'final-h', 'data-testid': 'final'}, h('h2', {id: 'final-h'}, sc.final ? table.t('app.score.final') : table.t('app.score.so-far')),
    h('table', {}, h('thead', {}, h('tr', {}, ['player', 'coins', 'cups', 'palms', 'cards', 'seals', 'total'].map((c) => h('th', {scope: 'col'}, table.t(COLUMN + c))))), h('tbody', {}, rows)),
    h('ol', {class: 'ranking'}, ranking));
}

// The screen, as the shell finds it (web/src/games.gen.ts).
const screen: Screen<View, Own, UI, Memo, Score> = {ruleset, events, load, hostSeats, describe, render, sheet};
export default screen;
