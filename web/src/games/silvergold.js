// Silver & Gold: the seat's screen (keep, cross with the red-cross chain asked
// for step by step, take a replacement), the host's (a physical game's
// reports: expedition cards and display cards, with only the choices the
// server lists), and everyone's view of the table and the final score.
import {h, call} from '../lib.js';
import {symbol, crossedOut, seal as sealArt, coin as coinArt, palm as palmArt, cup as cupArt} from '../cards/art.js';

export const ruleset = 'silver-and-gold';
export const events = ['expedition_revealed', 'player_passed', 'crossed', 'crossing_closed', 'resolving', 'cup_taken',
  'card_completed', 'no_replacement', 'card_taken', 'display_card', 'cards_kept', 'turn_resolved', 'round_ended', 'game_ended'];

const SYMBOL = {o: 'blank', c: 'coin', p: 'palm tree', x: 'red cross'};
const catalogs = new Map();

// load fetches the game's catalog once: every card's grid, colour and value.
export async function load(ctx) {
  const st = ctx.view.state;
  const key = st.catalog.name + '@' + st.catalog.hash;
  if (!catalogs.has(key)) {
    const cat = await call('GET', `/v1/catalogs/${encodeURIComponent(st.catalog.name)}?ruleset=${ruleset}`);
    catalogs.set(key, {
      cards: new Map(cat.cards.map((c) => [c.id, c])),
      expeditions: new Map(cat.expeditions.map((e) => [e.code, e])),
    });
  }
  ctx.s.catalog = catalogs.get(key);
}

// seatName is the name of the seat the screen belongs to.
export function seatName(ctx) {
  const p = ctx.view.state.players[ctx.seat];
  return p ? p.name : undefined;
}

function name(ctx, seat) {
  const p = ctx.view && ctx.view.state.players[seat];
  return p ? p.name : `Seat ${seat + 1}`;
}

function patternName(ctx, code) {
  if (code && typeof code === 'object') return `${code.name} (${code.code})`;
  const e = ctx.s.catalog && ctx.s.catalog.expeditions.get(code);
  return e ? `${e.name} (${code})` : String(code);
}

// short names a card in a line of text as it looks: colour and value.
function short(ctx, id) {
  const c = ctx.s.catalog && ctx.s.catalog.cards.get(id);
  return c ? `${c.colour} ${c.value}${c.seal ? ' with a seal' : ''} card` : `card ${id}`;
}

// describe turns an event into a line of the table's log.
export function describe(ev, d, ctx) {
  d = d || {};
  const who = d.seat !== undefined && d.seat !== null ? name(ctx, d.seat) : '';
  switch (ev) {
    case 'expedition_revealed':
      return `Round ${d.round}, turn ${d.turn}: the ${patternName(ctx, d.expedition)} is turned up.`;
    case 'player_passed':
      return `${who} has no box left and passes.`;
    case 'crossed':
      return `${who} has crossed.`;
    case 'crossing_closed':
      return 'Everyone has crossed: the turn resolves.';
    case 'cup_taken':
      return `${who} takes the cup of ${d.value ?? d.cup ?? ''}.`;
    case 'card_completed':
      return `${who} completes the ${short(ctx, d.card)}.`;
    case 'card_taken':
      return `${who} takes ${d.card ? 'the ' + short(ctx, d.card) : 'a card'} from the ${d.from || 'display'}.`;
    case 'display_card':
      return `The ${short(ctx, d.card)} is turned up into the display.`;
    case 'cards_kept':
      return 'Everyone has kept their two cards.';
    case 'no_replacement':
      return 'The deck and the display are empty: no replacement card.';
    case 'turn_resolved':
      return `Turn ${d.turn} is over.`;
    case 'round_ended':
      return `Round ${d.round} is over.`;
    case 'game_ended':
      return 'The game has ended: see the final score.';
    default:
      return null;
  }
}

const k = (card, r, c) => `${card}:${r}:${c}`;
const parse = (key) => {
  const [card, r, c] = key.split(':');
  return {card, r: Number(r), c: Number(c)};
};

// grid draws a card's boxes. Free boxes are buttons when onTap is given.
function grid(card, opts = {}) {
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
    let label = `row ${r + 1}, column ${c + 1}: ${SYMBOL[ch]}`;
    if (crossed) label += ', crossed';
    else if (mine) label += ', crossed this turn';
    if (opts.fits && opts.fits.has(key)) label += ', the pattern fits here';
    if (opts.onTap && !crossed) {
      return h('button', {type: 'button', class: cls.join(' '), 'aria-label': label, 'aria-pressed': sel || extra ? 'true' : 'false',
        'data-k': 'box-' + key, 'data-box': key, onclick: () => opts.onTap(key)}, symbol(ch));
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
export function cardWords(card) {
  const n = (ch) => card.grid.join('').split(ch).length - 1;
  const parts = [`${card.colour} ${card.value}`];
  const c = n('c');
  const p = n('p');
  const x = n('x');
  if (c) parts.push(`${c} coin${c > 1 ? 's' : ''}`);
  if (p) parts.push(`${p} palm tree${p > 1 ? 's' : ''}`);
  if (x) parts.push(`${x} red cross${x > 1 ? 'es' : ''}`);
  if (card.seal) parts.push(`seal: ${card.seal.points} per ${card.seal.colour} card`);
  return `${parts.join(', ')} (${card.id})`;
}

// cardTitle is the card's top edge as printed: the value top left, the
// seal (if any) top right.
function cardTitle(card, extra) {
  return h('p', {class: 'card-title'}, h('span', {class: 'card-value', 'aria-hidden': 'true'}, String(card.value)),
    extra ? h('span', {class: 'card-left'}, extra) : null,
    card.seal ? h('span', {class: 'card-seal'}, sealArt(card.seal.colour, card.seal.points, `seal: ${card.seal.points} per ${card.seal.colour} card`)) : null);
}

function cardTile(ctx, id, opts = {}, ...after) {
  const card = ctx.s.catalog.cards.get(id) || opts.card;
  if (!card) return h('div', {class: 'tile'}, id);
  return h('div', {class: `tile colour-${card.colour}${opts.small ? ' small' : ''}`, role: 'group', 'aria-label': `${cardWords(card)}${opts.left !== undefined ? `, ${opts.left} boxes left` : ''}`},
    cardTitle(card, opts.left !== undefined ? `${opts.left} left` : ''), grid(card, opts), after);
}

// cardButton is a card drawn as a button: tapping the picture chooses it.
function cardButton(ctx, id, attrs, opts = {}) {
  const card = ctx.s.catalog.cards.get(id);
  if (!card) return h('button', {type: 'button', ...attrs}, id);
  return cardPicture(card, attrs, opts);
}

// cardPicture draws a catalog card as a button to tap (the score sheet
// uses it too).
export function cardPicture(card, attrs, opts = {}) {
  return h('button', {type: 'button', class: `tile pick-card colour-${card.colour}${opts.small ? ' small' : ''}`, 'aria-label': `${opts.verb ? opts.verb + ' ' : ''}${cardWords(card)}`, ...attrs},
    // The picture is the button's content; its name (the label) says it
    // in words.
    h('span', {class: 'pick-face', 'aria-hidden': 'true'}, cardTitle(card), grid(card, {decor: true})));
}

function pattern(ctx, code) {
  const e = ctx.s.catalog.expeditions.get(code);
  if (!e) return h('span', {}, code);
  const rows = Math.max(...e.boxes.map((b) => b[0])) + 1;
  const cols = Math.max(...e.boxes.map((b) => b[1])) + 1;
  const set = new Set(e.boxes.map((b) => b[0] + ',' + b[1]));
  const out = [];
  for (let r = 0; r < rows; r++) {
    const cells = [];
    for (let c = 0; c < cols; c++) cells.push(h('span', {class: set.has(r + ',' + c) ? 'pcell on' : 'pcell'}));
    out.push(h('div', {class: 'row'}, cells));
  }
  return h('span', {class: 'pattern', role: 'img', 'aria-label': `${e.name} (${code})`}, out);
}

function awaitingText(ctx) {
  const st = ctx.view.state;
  const words = {keep: 'to keep 2 cards', cross: 'to cross', take: 'to take a replacement card', reveal: 'to report the expedition card turned up', display: 'to report the card turned up into the display'};
  return (st.awaiting || []).map((a) => `${a.actor === 'seat' ? name(ctx, a.seat) : 'the host'} ${words[a.action] || 'to ' + a.action}`).join(', ');
}

export function render(ctx) {
  const v = ctx.view;
  const st = v.state;
  const out = [];
  const who = ctx.role === 'host' ? 'Host' : ctx.role === 'seat' ? name(ctx, ctx.seat) : 'Spectator';
  document.title = `Silver & Gold: ${who}`;
  out.push(h('h1', {}, `Silver & Gold · ${who}`));
  out.push(tableInfo(ctx));
  if (v.ended && ctx.score) out.push(finalScore(ctx));
  if (ctx.role === 'seat' && ctx.legal) out.push(seatPanel(ctx));
  if (ctx.role === 'host' && st.mode === 'physical' && ctx.legal) out.push(reportPanel(ctx));
  out.push(boards(ctx));
  return h('div', {class: 'sg'}, out);
}

function tableInfo(ctx) {
  const st = ctx.view.state;
  const parts = [];
  const phase = ctx.view.ended ? 'Game over' : st.phase === 'setup' ? 'Setting up' : `Round ${st.round} of 4 · turn ${st.turn} of 7`;
  parts.push(h('p', {class: 'phase'}, phase, ` · ${st.mode === 'physical' ? 'real cards' : 'digital'} · start player: ${name(ctx, st.start_player)}`));
  if (st.expedition) {
    parts.push(h('div', {class: 'expedition'}, h('span', {}, 'Expedition card: '), pattern(ctx, st.expedition.code), h('strong', {}, ` ${st.expedition.name} (${st.expedition.code})`)));
  }
  const waiting = awaitingText(ctx);
  if (waiting && !ctx.view.ended) parts.push(h('p', {class: 'awaiting'}, 'Waiting for ', waiting, '.'));
  if (st.display && st.display.length) {
    parts.push(h('h3', {}, `Display (deck: ${st.deck_size} cards)`));
    parts.push(h('div', {class: 'tiles'}, st.display.map((id) => cardTile(ctx, id, {small: true}))));
  }
  parts.push(h('p', {class: 'muted'}, `Cups left: ${st.cups_left.length ? st.cups_left.join(', ') : 'none'}`));
  return h('section', {'aria-label': 'The table', class: 'table-info'}, parts);
}

// ---- the seat's action ----

function seatPanel(ctx) {
  const l = ctx.legal;
  const me = ctx.view.state.players[ctx.seat];
  const state = l.action === 'cross' && me.crossed_this_turn ? 'crossed' : l.action === 'keep' && me.kept ? 'kept' : l.action;
  const sec = (title, ...body) => h('section', {class: 'action', 'aria-labelledby': 'act-h', 'data-state': state}, h('h2', {id: 'act-h'}, title), body);
  if (l.action === 'keep') return sec('Keep 2 cards', keepPanel(ctx, me));
  if (l.action === 'cross') return sec(me.crossed_this_turn ? 'You have crossed: change it?' : `Cross the ${l.expedition ? l.expedition.name : 'pattern'}`, crossPanel(ctx, me));
  if (l.action === 'take') return sec('Take a replacement card', takePanel(ctx, me));
  if (ctx.view.ended) return null;
  let msg = 'Nothing to do right now: waiting for the others.';
  if (ctx.view.state.phase === 'setup' && me.kept) msg = 'You have kept your cards: waiting for the others.';
  if (me.passed) msg = 'You have no box left: you pass this turn.';
  return sec('Waiting', h('p', {}, msg));
}

function keepPanel(ctx, me) {
  const ui = ctx.ui;
  ui.keep = ui.keep || [];
  const from = ctx.legal.keep_from;
  const physical = ctx.view.state.mode === 'physical';
  const parts = [];
  if (me.kept && me.cards.length) parts.push(h('p', {}, `You kept ${me.cards.map((c) => c.card).join(' and ')}. You may change your choice until everyone has kept.`));
  parts.push(h('p', {}, physical ? 'Find the two cards you kept in front of you and tap them.' : 'You were dealt these cards: tap the two you keep.'));
  let shown = from;
  if (from.length > 8) {
    ui.keepColour = ui.keepColour || 'grey';
    parts.push(h('div', {class: 'filters', role: 'group', 'aria-label': 'Colour'}, ['grey', 'green', 'orange', 'purple'].map((col) =>
      h('button', {type: 'button', 'aria-pressed': ui.keepColour === col ? 'true' : 'false', 'data-k': 'col-' + col, onclick: () => { ui.keepColour = col; ctx.rerender(); }}, col))));
    shown = from.filter((id) => ui.keep.includes(id) || (ctx.s.catalog.cards.get(id) || {}).colour === ui.keepColour);
  }
  parts.push(h('div', {class: 'tiles'}, shown.map((id) => {
    const on = ui.keep.includes(id);
    return cardButton(ctx, id, {'aria-pressed': on ? 'true' : 'false', 'data-k': 'keep-' + id, 'data-keep': id,
      onclick: () => {
        if (on) ui.keep = ui.keep.filter((x) => x !== id);
        else ui.keep = [...ui.keep, id].slice(-2);
        ctx.rerender();
      }}, {small: from.length > 8, verb: 'Keep'});
  })));
  // The confirmation stays in view at the foot of the screen while the
  // cards are chosen.
  const chosen = ui.keep.map((id) => ctx.s.catalog.cards.get(id)).filter(Boolean);
  parts.push(h('div', {class: 'confirm-bar'},
    h('span', {class: 'confirm-what'}, chosen.length ? `Keeping: ${chosen.map((c) => `${c.colour} ${c.value}`).join(' and ')}` : 'Tap 2 cards to keep'),
    h('button', {type: 'button', class: 'primary', 'data-k': 'keep-go', 'data-action': 'keep', disabled: ui.keep.length !== 2,
      onclick: () => ctx.play({type: 'keep', seat: ctx.seat, cards: ui.keep})}, ui.keep.length === 2 ? 'Keep these 2' : `Choose ${2 - ui.keep.length} more`)));
  return parts;
}

// boxesOf returns the boxes of the seat's cards as the crossing is checked
// against them: before this turn's crossing, which a new one replaces.
function crossState(me) {
  const crossed = new Set();
  const turn = new Set();
  for (const c of me.cards) for (const [r, col] of c.crossed) crossed.add(k(c.card, r, col));
  const m = me.crossed_this_turn ? me.crossing : null;
  if (m) {
    for (const [r, col] of m.boxes || []) turn.add(k(m.card, r, col));
    for (const x of m.extra || []) turn.add(k(x.card, x.box[0], x.box[1]));
    for (const key of turn) crossed.delete(key);
  }
  return {crossed, turn};
}

function symbolAt(ctx, key) {
  const {card, r, c} = parse(key);
  const cd = ctx.s.catalog.cards.get(card);
  return cd ? cd.grid[r][c] : 'o';
}

function crossPanel(ctx, me) {
  const ui = ctx.ui;
  ui.sel = ui.sel || [];
  ui.extra = ui.extra || [];
  ui.stage = ui.stage || 'pick';
  const l = ctx.legal;
  const {crossed, turn} = crossState(me);
  const free = [];
  for (const c of me.cards) {
    c.grid.forEach((row, r) => Array.from(row).forEach((ch, col) => {
      if (ch !== '.' && !crossed.has(k(c.card, r, col))) free.push(k(c.card, r, col));
    }));
  }
  const fits = new Set();
  for (const p of l.placements) for (const [r, c] of p.boxes) fits.add(k(p.card, r, c));
  const owed = [...ui.sel, ...ui.extra].filter((key) => symbolAt(ctx, key) === 'x').length;
  const left = free.filter((key) => !ui.sel.includes(key) && !ui.extra.includes(key));
  const tap = (key) => {
    if (ui.stage === 'pick') {
      ui.sel = ui.sel.includes(key) ? ui.sel.filter((x) => x !== key) : [...ui.sel, key];
    } else if (!ui.sel.includes(key)) {
      ui.extra = ui.extra.includes(key) ? ui.extra.filter((x) => x !== key) : [...ui.extra, key];
    }
    ctx.rerender();
  };
  const submit = () => {
    const main = ui.sel.map(parse);
    const move = {type: 'cross', seat: ctx.seat, card: main[0].card, boxes: main.map((b) => [b.r, b.c])};
    if (ui.extra.length) move.extra = ui.extra.map(parse).map((b) => ({card: b.card, box: [b.r, b.c]}));
    ctx.play(move);
  };
  const parts = [];
  const n = l.placements.length;
  parts.push(h('p', {}, n ? `The ${l.expedition.name} fits in ${n} place${n > 1 ? 's' : ''} on your cards (outlined). Tap its boxes, or tap a single box anywhere.` : `The ${l.expedition.name} fits nowhere: tap a single box to cross.`));
  if (me.crossed_this_turn) parts.push(h('p', {}, 'Your crossing this turn is marked; a new one replaces it until the last player crosses.'));
  if (ui.stage === 'extra') {
    const need = owed - ui.extra.length;
    parts.push(h('p', {class: 'chain', role: 'status'}, need > 0 && left.length
      ? `Red cross! Tap ${need} more box${need > 1 ? 'es' : ''} anywhere on your cards (a red cross among them asks for one more).`
      : 'The red crosses are paid for: cross now.'));
  }
  const cardsOpts = {crossed, turn, fits, sel: new Set(ui.sel), extra: new Set(ui.extra), onTap: tap};
  parts.push(h('div', {class: 'tiles mine'}, me.cards.map((c) => cardTile(ctx, c.card, {...cardsOpts, left: c.boxes_left, card: {id: c.card, ...c}}))));
  if (n && ui.stage === 'pick') {
    // The same places as a list: quicker than tapping, and what a screen
    // reader user chooses from.
    parts.push(h('details', {class: 'fits-list', open: ui.fitsOpen, ontoggle: (e) => { ui.fitsOpen = e.target.open; }},
      h('summary', {'data-k': 'fits'}, `Where the ${l.expedition.name} fits (${n})`),
      h('ul', {}, l.placements.map((p, i) => h('li', {}, h('button', {type: 'button', class: 'link', 'data-k': 'fit-' + i, 'data-placement': i,
        onclick: () => { ui.sel = p.boxes.map(([r, c]) => k(p.card, r, c)); ui.extra = []; ctx.rerender(); }},
        `${short(ctx, p.card)}: ${p.boxes.map(([r, c]) => `row ${r + 1} column ${c + 1}`).join(', ')}${gains(p)}`))))));
  }
  const buttons = [];
  if (ui.stage === 'pick') {
    buttons.push(h('button', {type: 'button', class: 'primary', 'data-k': 'cross-go', 'data-action': 'cross', disabled: !ui.sel.length, onclick: () => {
      if (owed > 0 && left.length) {
        ui.stage = 'extra';
        ctx.announce('Red cross: choose more boxes');
        ctx.rerender();
      } else submit();
    }}, ui.sel.length ? `Cross ${ui.sel.length} box${ui.sel.length > 1 ? 'es' : ''}` : 'Tap boxes to cross'));
  } else {
    const ready = ui.extra.length >= owed || !left.length;
    buttons.push(h('button', {type: 'button', class: 'primary', 'data-k': 'cross-go', 'data-action': 'cross', disabled: !ready, onclick: submit},
      `Cross ${ui.sel.length + ui.extra.length} boxes`));
    buttons.push(h('button', {type: 'button', 'data-k': 'cross-back', onclick: () => { ui.stage = 'pick'; ui.extra = []; ctx.rerender(); }}, 'Back'));
  }
  if (ui.sel.length || ui.extra.length) buttons.push(h('button', {type: 'button', 'data-k': 'cross-clear', onclick: () => { ui.sel = []; ui.extra = []; ui.stage = 'pick'; ctx.rerender(); }}, 'Clear'));
  parts.push(h('div', {class: 'buttons'}, buttons));
  return parts;
}

function gains(p) {
  const g = [];
  if (p.coins) g.push(`${p.coins} coin${p.coins > 1 ? 's' : ''}`);
  if (p.palms) g.push(`${p.palms} palm tree${p.palms > 1 ? 's' : ''}`);
  if (p.red_crosses) g.push(`${p.red_crosses} red cross${p.red_crosses > 1 ? 'es' : ''}`);
  return g.length ? ` (${g.join(', ')})` : '';
}

// takePanel offers a seat's replacement cards: its own screen's, or the
// host's for that seat (l is the seat's legal moves).
function takePanel(ctx, me, l = ctx.legal, seat = ctx.seat) {
  const ui = ctx.ui;
  const owed = me.takes_owed || l.count || 1;
  const you = seat === ctx.seat;
  const parts = [h('p', {}, `${you ? 'You' : me.name} completed a card: ${you ? 'take' : 'report'} ${owed} replacement${owed > 1 ? 's' : ''}, from the display or the deck.`)];
  if (l.take_from.length) parts.push(h('p', {class: 'muted'}, 'Tap a card of the display to take it.'));
  parts.push(h('div', {class: 'tiles'}, l.take_from.map((id) => cardButton(ctx, id, {'data-k': 'take-' + id, 'data-take': id,
    onclick: () => ctx.play({type: 'take', seat, from: 'display', card: id})}, {small: true, verb: 'Take'}))));
  if (l.deck) {
    if (ctx.view.state.mode === 'digital') {
      parts.push(h('button', {type: 'button', 'data-k': 'take-deck', 'data-take': 'deck', onclick: () => ctx.play({type: 'take', seat, from: 'deck'})}, 'Draw the top card of the deck'));
    } else {
      const from = l.draw_from || l.deck_cards || [];
      parts.push(cardPicker(ctx, 'draw', `The card ${you ? 'you' : me.name} drew from the deck`, from, ui, (id) => ctx.play({type: 'take', seat, from: 'deck', card: id}), 'Take it from the deck'));
    }
  }
  return parts;
}

// hostSeats are the seats whose legal moves the host's screen reads: in a
// physical game, those that owe a replacement card, which the host may
// report for them.
export function hostSeats(view) {
  if (view.state.mode !== 'physical' || view.ended) return [];
  return (view.state.awaiting || []).filter((a) => a.actor === 'seat' && a.action === 'take').map((a) => a.seat);
}

// cardPicker chooses one card of many by tapping its picture: the cards
// still possible, a colour at a time (the colour is what a player sees
// first on a card turned up), then a confirmation kept in view.
const COLOURS = ['grey', 'green', 'orange', 'purple'];
function cardPicker(ctx, id, label, from, ui, done, verb) {
  const cards = ctx.s.catalog.cards;
  const colours = COLOURS.filter((col) => from.some((c) => (cards.get(c) || {}).colour === col));
  const chosen = from.includes(ui[id]) ? ui[id] : null;
  const colKey = id + 'Colour';
  if (!colours.includes(ui[colKey])) ui[colKey] = chosen ? cards.get(chosen).colour : colours[0];
  const shown = from.filter((c) => (cards.get(c) || {}).colour === ui[colKey]);
  const card = chosen && cards.get(chosen);
  return h('div', {class: 'picker', role: 'group', 'aria-labelledby': 'pick-h-' + id},
    h('p', {id: 'pick-h-' + id}, label, ': ', h('span', {class: 'muted'}, 'its colour, then its picture')),
    colours.length > 1 ? h('div', {class: 'filters', role: 'group', 'aria-label': 'Colour'}, colours.map((col) => {
      const n = from.filter((c) => (cards.get(c) || {}).colour === col).length;
      return h('button', {type: 'button', class: 'filter colour-' + col, 'aria-pressed': ui[colKey] === col ? 'true' : 'false', 'data-k': `col-${id}-${col}`, 'data-colour': col,
        onclick: () => { ui[colKey] = col; ctx.rerender(); }}, `${col} (${n})`);
    })) : null,
    h('div', {class: 'tiles'}, shown.map((c) => cardButton(ctx, c, {'aria-pressed': c === chosen ? 'true' : 'false', 'data-k': `pick-${id}-${c}`, 'data-pick': id, 'data-card': c,
      onclick: () => { ui[id] = c === chosen ? null : c; ctx.rerender(); }}, {small: true}))),
    h('div', {class: 'confirm-bar'},
      h('span', {class: 'confirm-what'}, card ? `Chosen: ${card.colour} ${card.value}${card.seal ? ', sealed' : ''}` : 'Tap the card turned up'),
      h('button', {type: 'button', class: 'primary', 'data-k': 'pick-go-' + id, 'data-action': id, disabled: !chosen, onclick: () => done(chosen)}, verb)));
}

// ---- the host's reports in a physical game ----

function reportPanel(ctx) {
  const l = ctx.legal;
  const ui = ctx.ui;
  const sec = (title, ...body) => h('section', {class: 'action', 'aria-labelledby': 'act-h', 'data-state': l.action}, h('h2', {id: 'act-h'}, title), body);
  if (l.action === 'reveal') {
    return sec('Report the expedition card', h('p', {}, 'Turn up the top expedition card and tap the pattern it shows.'),
      h('div', {class: 'reveal'}, l.reveal_from.map((code) => h('button', {type: 'button', 'data-k': 'reveal-' + code, 'data-reveal': code,
        onclick: () => ctx.play({type: 'reveal', expedition: code})}, pattern(ctx, code), ` ${patternName(ctx, code)}`))));
  }
  if (l.action === 'display') {
    const from = l.display_from || l.deck_cards || [];
    const n = l.count || 1;
    return sec('Report the display', h('p', {}, `Turn up the top card of the deck into the display and choose it (${n} to report).`),
      cardPicker(ctx, 'display', 'The card turned up', from, ui, (id) => ctx.play({type: 'display', card: id}), 'Report'));
  }
  if (ctx.view.ended) return null;
  for (const [seat, sl] of Object.entries(ctx.s.seatLegal || {})) {
    if (sl.action === 'take') {
      const p = ctx.view.state.players[seat];
      return h('section', {class: 'action', 'aria-labelledby': 'act-h', 'data-state': 'take'}, h('h2', {id: 'act-h'}, `${p.name}'s replacement card`),
        h('p', {}, `${p.name} may report it on their phone, or you here.`), takePanel(ctx, p, sl, Number(seat)));
    }
  }
  return sec('Nothing to report', h('p', {}, 'The players are playing. Reports appear here when the table turns a card up.'));
}

// ---- boards and scores ----

function boards(ctx) {
  const st = ctx.view.state;
  const order = st.players.map((p, i) => i).sort((a, b) => (a === ctx.seat ? -1 : b === ctx.seat ? 1 : a - b));
  return h('section', {'aria-labelledby': 'boards-h'}, h('h2', {id: 'boards-h'}, 'Score cards'),
    h('div', {class: 'boards'}, order.map((i) => board(ctx, st.players[i], i === ctx.seat && ctx.legal && ctx.legal.action === 'cross'))));
}

function board(ctx, p, cardsShownAbove) {
  const st = ctx.view.state;
  const status = [];
  if (st.phase === 'setup') status.push(p.kept ? 'has kept' : 'is choosing');
  if (st.phase === 'crossing') status.push(p.passed ? 'passes' : p.crossed_this_turn ? 'has crossed' : 'is crossing');
  if (p.takes_owed) status.push(`owes ${p.takes_owed} take${p.takes_owed > 1 ? 's' : ''}`);
  const coins = [];
  for (let row = 0; row < 3; row++) {
    const cells = [];
    for (let i = 0; i < 4; i++) {
      const on = row * 4 + i < p.coins;
      cells.push(h('span', {class: on ? 'coin on' : 'coin'}, coinArt(), on ? crossedOut() : null));
    }
    const cup = p.cups[row];
    cells.push(h('span', {class: cup ? 'cup on' : 'cup'}, cupArt(cup)));
    coins.push(h('div', {class: 'row'}, cells));
  }
  const palms = [];
  for (let i = 0; i < 4; i++) palms.push(h('span', {class: p.palms[i] ? 'palm on' : 'palm'}, palmArt(), p.palms[i] ? h('span', {class: 'palm-n'}, String(p.palms[i])) : null));
  const pile = p.scoring_pile.map((id) => ctx.s.catalog.cards.get(id) || {id, value: 0, colour: ''});
  const pileValue = pile.reduce((a, c) => a + c.value, 0);
  const cupSum = p.cups.reduce((a, b) => a + b, 0);
  const palmSum = p.palms.reduce((a, b) => a + b, 0);
  const summary = `${p.coins} coin${p.coins === 1 ? '' : 's'}, cups ${cupSum}, palms ${palmSum}, ${pile.length} completed card${pile.length === 1 ? '' : 's'} (${pileValue} points)`;
  const cards = [];
  if (!cardsShownAbove && p.cards.length) {
    const crossed = new Set();
    for (const c of p.cards) for (const [r, col] of c.crossed) crossed.add(k(c.card, r, col));
    cards.push(h('div', {class: 'tiles'}, p.cards.map((c) => cardTile(ctx, c.card, {small: true, crossed, left: c.boxes_left, card: {id: c.card, ...c}}))));
  }
  return h('article', {class: 'board', 'aria-labelledby': 'board-' + p.seat, 'data-seat': p.seat},
    h('h3', {id: 'board-' + p.seat}, p.name, status.length ? h('span', {class: 'muted'}, ` · ${status.join(', ')}`) : null),
    h('p', {class: 'summary'}, summary),
    h('div', {class: 'scorecard', role: 'img', 'aria-label': `${p.name}'s score card: ${summary}`},
      h('div', {class: 'coins'}, coins), h('div', {class: 'palms'}, palms)),
    cards,
    pile.length ? h('div', {class: 'pile'}, h('p', {}, 'Completed:'), h('div', {class: 'tiles'}, pile.map((c) => (c.grid ? cardTile(ctx, c.id, {small: true, mini: true}) : h('span', {}, c.id))))) : null);
}

const DECIDED = {
  total: (above) => `fewer points than ${above}`,
  shared: (above) => `shares the place with ${above}`,
};

function finalScore(ctx) {
  const sc = ctx.score;
  const rows = sc.players.map((p) => h('tr', {},
    h('th', {scope: 'row'}, p.name), h('td', {}, p.lines.coins), h('td', {}, p.lines.cups), h('td', {}, p.lines.palms),
    h('td', {}, p.lines.cards), h('td', {}, p.lines.seals), h('td', {}, h('strong', {}, p.total))));
  const ranking = sc.ranking.map((r, i) => {
    const above = i > 0 ? sc.ranking[i - 1].name : '';
    const why = r.decided_by ? (DECIDED[r.decided_by] ? DECIDED[r.decided_by](above) : `fewer completed ${r.decided_by} cards than ${above}`) : '';
    return h('li', {}, `${r.rank}. ${r.name}, ${r.total}`, why ? ` (${why})` : '');
  });
  return h('section', {class: 'final', 'aria-labelledby': 'final-h', 'data-testid': 'final'}, h('h2', {id: 'final-h'}, sc.final ? 'Final score' : 'Score so far'),
    h('table', {}, h('thead', {}, h('tr', {}, ['Player', 'Coins', 'Cups', 'Palms', 'Cards', 'Seals', 'Total'].map((t) => h('th', {scope: 'col'}, t)))), h('tbody', {}, rows)),
    h('ol', {class: 'ranking'}, ranking));
}
