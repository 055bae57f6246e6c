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
import type {Move, Schemas, Screen, Table} from '../../../web/src/screen';
import {h} from '../../../web/src/lib';
import {gem} from '../../../web/src/cards/art';
import {wonderArt} from './art';
import {t as tr, term, tlist} from '../../../web/src/i18n';

// The game's view and listing as the server sends them (its schemas in
// openapi.yaml).
type GameTable = Table<Schemas['ColorfulTreasureView'], Schemas['ColorfulTreasureLegal']>;

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
const effect = (e: any) => term(EFFECT, e);
// What the player on turn does, by phase, and the variants' names.
const PHASE = 'app.ct.phase.';
const VARIANT = 'app.ct.variant.';
const kind = (k: any) => term(KIND, k);

const wonder = (id: any) => term(WONDER, id);
const place = (p: any) => tr('app.ct.place', {wonder: wonder(p.wonder), row: p.row + 1});
// placeAt names a place of the grid ({column, row}) by its wonder.
const placeAt = (table: GameTable, p: any) => {
  const c = table.view && table.view.state.columns[p.column];
  return c ? place({wonder: c.wonder, row: p.row}) : tr('app.ct.column-row', {column: p.column + 1, row: p.row + 1});
};
const andList = (xs: any) => tlist(xs);
// cardWords names a card taken or stolen: its kind and wonder.
const cardWords = (c: any) => tr('app.ct.card', {kind: kind(c.kind), wonder: wonder(c.wonder)});
const samePos = (a: any, b: any) => a.column === b.column && a.row === b.row;

// describe turns an event into a line of the table's log. No line says
// what a card of the grid showed: the log stays on every screen, and a card
// turned face down again must be face down there too. What cards show is
// said while they are face up (the grid), and a peek's cards to the peeking
// seat until the next move (peekPanel).
function describe(ev: any, d: any, table: GameTable) {
  if (!d) return null;
  const who = d.seat !== undefined ? table.playerName(d.seat) : '';
  switch (ev) {
    case 'move':
      // A new move: a peek's cards are face down for the peeking seat too.
      delete table.memo.peek;
      if (d.move && d.move.type === 'flip' && d.move.cards) {
        return tr('app.ct.log.turned-over', {who: table.playerName(d.move.seat), places: andList(d.move.cards.map((c: any) => placeAt(table, c)))});
      }
      return null;
    case 'cards_revealed':
      // Heard as it happens (a screen reader); the grid shows them.
      table.announce(tr('app.ct.log.turned-over', {who, places: andList(d.cards.map((c: any) => tr('app.ct.kind-at', {kind: kind(c.kind), place: place(c)})))}));
      return null;
    case 'cards_collected':
      return d.cards && d.cards.length ? tr('app.ct.log.took', {who, cards: d.cards.map(cardWords).join(', ')}) : tr('app.ct.log.took-nothing', {who});
    case 'tokens_paired':
      return tr('app.ct.log.paired', {who, count: d.pairs});
    case 'theft_skipped':
      return tr('app.ct.log.nobody', {who});
    case 'stolen':
      return tr('app.ct.log.stole', {who, what: d.card ? cardWords(d.card) : tr('app.ct.the-diamond-token', {wonder: wonder(d.diamond_token)}), from: table.playerName(d.target)});
    case 'token_used':
      return d.cards ? tr('app.ct.log.used-at', {who, token: d.token, effect: effect(d.effect), places: andList(d.cards.map((c: any) => placeAt(table, c)))}) :
        tr('app.ct.log.used', {who, token: d.token, effect: effect(d.effect)});
    case 'peeked':
      if (table.role === 'seat' && d.seat === table.seat && !(table.view && table.view.ended)) table.memo.peek = d.cards;
      return null;
    case 'token_taken':
      return tr('app.ct.log.token-taken', {who, token: d.token, effect: effect(d.effect), colour: kind(d.colour)});
    case 'award_taken':
      return tr('app.ct.log.award', {who, award: term(AWARD, d.award), points: d.points});
    case 'last_round':
      return tr('app.ct.log.last-round', {count: d.cards_left});
    case 'turn_started':
      return tr('app.ct.log.turn', {who, round: d.round});
    default:
      return null;
  }
}

const physical = (table: GameTable) => table.view.state.mode === 'physical';
const key = (p: any) => `${p.column}-${p.row}`;

// acting is the listing this page plays from, and the seat it plays for: a
// seat's own; on the host's device in a physical game, the seat on turn's
// (the shared device acts for it). In a digital game the host only watches.
function acting(table: GameTable) {
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
function hostSeats(view: any) {
  return view.state.mode === 'physical' && !view.ended ? [view.state.turn] : [];
}

// pickable lists the face-down cards a tap may choose now: a peek's, or the
// flip's (in a physical game, to report what they show).
function pickable(table: GameTable, a: any) {
  if (!a) return null;
  const l = a.l;
  if (table.ui.peek !== undefined) {
    const t = (l.use_token || []).find((u: any) => u.token === table.ui.peek);
    return t && t.cells ? {cells: t.cells, min: t.min, max: t.max, peek: t} : null;
  }
  return l.flip ? {cells: l.flip.cells, min: l.flip.count, max: l.flip.count, report: physical(table)} : null;
}

// allowed keeps a choice to what its listing says: as many cards as it
// names; a peek's of one wonder, or of different wonders (a chosen card can
// always be tapped again to unchoose it).
function allowed(pick: any, picked: any, pos: any) {
  if (picked.some((p: any) => samePos(p, pos))) return true;
  if (picked.length >= pick.max) return false;
  if (pick.peek && pick.peek.same_wonder && picked.length) return picked[0].column === pos.column;
  if (pick.peek && pick.peek.different_wonders) return !picked.some((p: any) => p.column === pos.column);
  return true;
}

// offered lists what a card chosen for a physical report may show: what the
// listing allows there, less what another chosen card of its wonder was
// said to show (a wonder has one card of each kind).
function offered(table: GameTable, pick: any, pos: any) {
  const cell = pick.cells.find((c: any) => samePos(c, pos));
  const shows = table.ui.shows || {};
  const others = (table.ui.picked || []).filter((q: any) => q.column === pos.column && !samePos(q, pos)).map((q: any) => shows[key(q)]);
  return ((cell && cell.shows) || []).filter((k: any) => !others.includes(k));
}

// tidy keeps the cards chosen to what the listing, read again after
// another device's move, still offers.
function tidy(table: GameTable, a: any) {
  const ui = table.ui;
  if (ui.peek !== undefined && !(a && (a.l.use_token || []).some((u: any) => u.token === ui.peek && u.cells))) delete ui.peek;
  const pick = pickable(table, a);
  if (!pick) {
    ui.picked = [];
    ui.shows = {};
    return;
  }
  ui.picked = (ui.picked || []).filter((q: any) => pick.cells.some((c: any) => samePos(c, q))).slice(0, pick.max);
  const shows = ui.shows || {};
  ui.shows = {};
  for (const q of ui.picked) {
    const k = shows[key(q)];
    if (k && offered(table, pick, q).includes(k)) ui.shows[key(q)] = k;
  }
}

function tap(table: GameTable, pos: any, pick: any, a: any) {
  const picked = table.ui.picked || (table.ui.picked = []);
  const shows = table.ui.shows || (table.ui.shows = {});
  const i = picked.findIndex((p: any) => samePos(p, pos));
  if (i >= 0) {
    picked.splice(i, 1);
    delete shows[key(pos)];
  } else if (picked.length < pick.max) {
    picked.push(pos);
    const can = pick.report ? offered(table, pick, pos) : [];
    if (can.length === 1) shows[key(pos)] = can[0];
  }
  if (!pick.peek && !pick.report && picked.length === pick.max) {
    const cards = picked.map((p: any) => ({column: p.column, row: p.row}));
    table.ui.picked = [];
    table.send({type: 'flip', seat: a.seat, cards});
    return;
  }
  if (pick.report) table.announce(tr(i >= 0 ? 'app.ct.unchosen' : 'app.ct.chosen-say', {place: place({wonder: table.view.state.columns[pos.column].wonder, row: pos.row})}));
  table.redraw();
  const el = document.querySelector<HTMLElement>(`button[data-cell="${key(pos)}"]`);
  if (el) el.focus();
}

// reportPanel asks what each card chosen in a physical flip shows, among
// the kinds offered, then reports them.
function reportPanel(table: GameTable, a: any, pick: any) {
  const st = table.view.state;
  const picked = table.ui.picked || [];
  const shows = table.ui.shows || (table.ui.shows = {});
  const left = pick.max - picked.length;
  const ready = left === 0 && picked.every((p: any) => shows[key(p)]);
  const groups = picked.map((p: any) => {
    const k = key(p);
    const id = 'shows-' + k;
    return h('div', {class: 'ct-shows', role: 'group', 'aria-labelledby': id}, h('p', {id}, tr('app.ct.shows', {place: place({wonder: st.columns[p.column].wonder, row: p.row})})),
      h('div', {class: 'buttons'}, offered(table, pick, p).map((kind: any) => h('button', {type: 'button', class: 'ct-kind', 'data-kind': kind, 'data-for': k, 'data-k': `kind-${k}-${kind}`,
        'aria-pressed': shows[k] === kind ? 'true' : 'false', onclick: () => { shows[k] = kind; table.redraw(); }}, gem(kind), term(KIND, kind)))));
  });
  const who = a.host ? table.playerName(a.seat) : '';
  return h('section', {class: 'ct-report', 'aria-labelledby': 'report-h', 'data-state': 'report'},
    h('h2', {id: 'report-h'}, who ? tr('app.ct.what-show-for', {count: pick.max, who}) : tr('app.ct.what-show', {count: pick.max})),
    left > 0 ? h('p', {}, left === 1 ? (pick.max === 1 ? tr('app.ct.tap-the') : tr('app.ct.tap-one-more')) : tr('app.ct.tap-n', {n: left})) : null,
    groups,
    h('div', {class: 'buttons'},
      h('button', {type: 'button', class: 'primary', 'data-k': 'report', disabled: !ready,
        onclick: () => table.send({type: 'flip', seat: a.seat, cards: picked.map((p: any) => ({column: p.column, row: p.row})), shows: picked.map((p: any) => shows[key(p)])})}, who ? tr('app.ct.report-for', {who}) : tr('app.sg.report')),
      h('button', {type: 'button', 'data-k': 'report-clear', onclick: () => {
        table.ui.picked = [];
        table.ui.shows = {};
        table.redraw();
        const g = document.querySelector<HTMLElement>('.ct-scroll');
        if (g) g.focus();
      }}, tr('app.clear'))));
}

// narrow says whether the screen is too narrow for ten wonders side by
// side: the grid then has a row per wonder (5 cards across, not 10), and is
// drawn again when the width crosses over (a tablet turned).
const NARROW = '(max-width: 56rem)';
function narrow(table: GameTable) {
  if (typeof matchMedia !== 'function') return false;
  if (!table.memo.narrow) {
    table.memo.narrow = matchMedia(NARROW);
    table.memo.narrow.addEventListener('change', () => { if (!table.closed) table.redraw(); });
  }
  return table.memo.narrow.matches;
}

const tokensLeft = (c: any) => [c.diamond_token ? 'diamond' : '', c.lock_token && c.lock ? c.lock : ''].filter(Boolean);

function wonderHead(c: any, slim: any, attrs?: Record<string, unknown>) {
  const left = tokensLeft(c);
  // The wonder's card back: its silhouette and name, its three gem colours
  // and its key or chest, as pictures.
  const colours = c.colours.map((k: any) => h('span', {class: 'ct-gem'}, gem(k), h('span', {class: 'sr-only'}, kind(k) + ' ')));
  return h('th', {class: 'ct-wonder', ...attrs},
    h('span', {class: 'ct-wname'}, wonderArt(c.wonder), h('span', {}, wonder(c.wonder))),
    h('span', {class: 'ct-colours'}, colours, c.lock ? h('span', {class: 'ct-gem'}, gem(c.lock), h('span', {class: 'sr-only'}, kind(c.lock))) : null),
    slim ? h('span', {class: 'muted ct-tokens'}, h('span', {'aria-hidden': 'true'}, left.length ? `+${left.map((k) => (k === 'diamond' ? '◆' : k)).join(' ')}` : '–'),
      h('span', {class: 'sr-only'}, left.length ? tr('app.ct.tokens-list', {tokens: left.map(kind).join(', ')}) : tr('app.ct.no-tokens')))
      : h('span', {class: 'muted ct-tokens'}, left.length ? tr('app.ct.tokens-plus', {count: left.length, tokens: left.map(kind).join(' + ')}) : tr('app.ct.no-tokens')));
}

function cellOf(table: GameTable, a: any, c: any, col: any, r: any, pick: any, picked: any, slim?: boolean) {
  const cell = c.cells[r];
  const pos = {column: col, row: r};
  const what = tr('app.ct.cell', {wonder: wonder(c.wonder), row: r + 1});
  if (cell === undefined) return h('td', {});
  if (cell === 'gone') return h('td', {class: 'ct-cell gone'}, h('span', {class: 'sr-only'}, tr('app.ct.cell-taken', {what})));
  if (cell !== 'down') {
    // Narrow, a gem shows its colour's letter (as the wonders' colours do)
    // and a diamond ◆; a screen reader hears the word.
    // A card face up shows its picture: a gem of its colour, a diamond, a
    // key or a chest (a screen reader hears the word).
    return h('td', {class: 'ct-cell up'}, h('span', {class: 'ct-face face-' + cell, 'data-shows': cell}, gem(cell), h('span', {class: 'sr-only'}, kind(cell))),
      h('span', {class: 'sr-only'}, ` (${what})`));
  }
  // At the end everything is public: a card left face down shows what it
  // was (the view's faces, in a digital game).
  const was = c.faces && c.faces[r];
  if (was && was !== 'gone') {
    return h('td', {class: 'ct-cell'}, h('span', {class: 'ct-was', 'data-was': was}, gem(was), h('span', {class: 'sr-only'}, tr('app.ct.cell-was', {what, kind: kind(was)}))));
  }
  if (pick && pick.cells.some((p: any) => samePos(p, pos)) && allowed(pick, picked, pos)) {
    const on = picked.some((p: any) => samePos(p, pos));
    // A card chosen for a report shows what it was said to show.
    const said = on && pick.report && (table.ui.shows || {})[key(pos)];
    return h('td', {class: 'ct-cell'}, h('button', {type: 'button', class: 'ct-back', 'data-cell': key(pos), 'aria-pressed': on ? 'true' : 'false',
      'aria-label': tr(pick.peek ? 'app.ct.aria.peek' : pick.report ? 'app.ct.aria.turned' : 'app.ct.aria.flip', {what}) + (said ? tr('app.ct.aria.shows', {kind: kind(said)}) : ''), onclick: () => tap(table, pos, pick, a)},
    said ? h('span', {class: 'ct-said'}, gem(said)) : '?'));
  }
  return h('td', {class: 'ct-cell'}, h('span', {class: 'ct-back'}, h('span', {'aria-hidden': 'true'}, '?'), h('span', {class: 'sr-only'}, tr('app.ct.cell-down', {what}))));
}

function grid(table: GameTable, a: any) {
  const st = table.view.state;
  const pick = pickable(table, a);
  const picked = table.ui.picked || [];
  const rows = Math.max(...st.columns.map((c: any) => c.cells.length));
  const slim = narrow(table);
  let head;
  const body = [];
  if (slim) {
    // A row per wonder: its name, colours and tokens, then its cards.
    const nums = [];
    for (let r = 0; r < rows; r++) nums.push(h('th', {scope: 'col'}, h('span', {class: 'sr-only'}, tr('app.ct.row') + ' '), String(r + 1)));
    head = h('tr', {}, h('th', {scope: 'col', class: 'ct-wonder'}, tr('app.ct.wonder')), nums);
    st.columns.forEach((c: any, col: any) => {
      const cells = [];
      for (let r = 0; r < rows; r++) cells.push(cellOf(table, a, c, col, r, pick, picked, true));
      body.push(h('tr', {}, wonderHead(c, true, {scope: 'row'}), cells));
    });
  } else {
    head = h('tr', {}, h('th', {scope: 'col'}, h('span', {class: 'sr-only'}, tr('app.ct.row'))), st.columns.map((c: any) => wonderHead(c, false, {scope: 'col'})));
    for (let r = 0; r < rows; r++) {
      body.push(h('tr', {}, h('th', {scope: 'row'}, String(r + 1)), st.columns.map((c: any, col: any) => cellOf(table, a, c, col, r, pick, picked))));
    }
  }
  const faces = st.columns.some((c: any) => c.faces);
  return h('section', {'aria-labelledby': 'grid-h'}, h('h2', {id: 'grid-h'}, faces ? tr('app.ct.grid-faces') : tr('app.ct.grid', {count: st.cards_left})),
    h('div', {class: 'ct-scroll', tabindex: '0', role: 'region', 'aria-labelledby': 'grid-h'},
      h('table', {class: slim ? 'ct-grid ct-narrow' : 'ct-grid'}, h('thead', {}, head), h('tbody', {}, body))),
    pick && pick.report && picked.length ? reportPanel(table, a, pick) : null);
}

const take = (t: any) => (t.length ? tr('app.ct.take', {what: tlist(t.map((x: any) => (x === 'keys_chests' ? tr('app.ct.the-keys-chests') : x === 'diamond' ? tr('app.ct.the-diamonds') : tr('app.ct.the-gems', {kind: kind(x)}))))}) : tr('app.ct.take-nothing'));

function actions(table: GameTable, a: any) {
  const l = a.l;
  const seat = a.seat;
  const who = table.playerName(seat);
  const out = [];
  const btn = (k: string, text: any, move: Move, primary?: boolean) => h('li', {}, h('button', {type: 'button', class: primary ? 'primary' : '', 'data-option': k, 'data-k': k, onclick: () => table.send(move)}, text));
  const pick = pickable(table, a);
  if (a.host) out.push(h('p', {}, tr('app.ct.they-or-you', {who})));
  if (table.ui.peek !== undefined && pick) {
    const n = (table.ui.picked || []).length;
    out.push(h('p', {}, tr('app.ct.peek-how', {n: pick.min === pick.max ? pick.min : tr('app.ct.min-max', {min: pick.min, max: pick.max}),
      which: tr(pick.peek.same_wonder ? 'app.ct.of-one-wonder' : pick.peek.different_wonders ? 'app.ct.of-different-wonders' : 'app.ct.any'), chosen: n})));
    if (physical(table)) out.push(h('p', {class: 'note', 'data-testid': 'peek-note'}, tr('app.ct.peek-physical')));
    out.push(h('div', {class: 'buttons'},
      h('button', {type: 'button', class: 'primary', 'data-k': 'peek', disabled: n < pick.min, onclick: () => table.send({type: 'use_token', seat, token: pick.peek.token, cards: table.ui.picked.map((p: any) => ({column: p.column, row: p.row}))})}, tr('app.ct.peek')),
      h('button', {type: 'button', 'data-k': 'peek-cancel', onclick: () => { delete table.ui.peek; table.ui.picked = []; table.redraw(); }}, tr('app.cancel'))));
    return out;
  }
  if (l.flip) {
    const n = (table.ui.picked || []).length;
    const c = l.flip.count;
    const more = l.collect && l.collect.length ? tr('app.ct.or-collect') : '.';
    if (physical(table)) {
      out.push(h('p', {'data-flip': c}, tr('app.ct.flip-physical', {count: c, chosen: n}), more));
    } else {
      out.push(h('p', {'data-flip': c}, c === 1 ? tr('app.ct.flip-one') : tr('app.ct.flip-n', {count: c, chosen: n}), more));
    }
  }
  const opts = [];
  (l.collect || []).forEach((t: any, i: any) => opts.push(btn('collect-' + i, take(t), {type: 'collect', seat, take: t})));
  (l.rob || []).forEach((r: any, i: any) => opts.push(btn('rob-' + i, tr('app.ct.steal', {what: r.card ? cardWords(r.card) : tr('app.ct.the-diamond-token', {wonder: wonder(r.diamond_token)}), from: table.playerName(r.target)}),
    {type: 'rob', seat, target: r.target, ...(r.card ? {card: r.card} : {diamond_token: r.diamond_token})})));
  (l.use_token || []).forEach((u: any) => {
    if (u.cells) {
      opts.push(h('li', {}, h('button', {type: 'button', 'data-k': 'use-' + u.token, onclick: () => { table.ui.peek = u.token; table.ui.picked = []; table.redraw(); }},
        tr('app.ct.use', {token: u.token, effect: effect(u.effect)}))));
    } else {
      opts.push(btn('use-' + u.token, tr('app.ct.use', {token: u.token, effect: effect(u.effect)}), {type: 'use_token', seat, token: u.token}));
    }
  });
  (l.claim || []).forEach((t: any) => {
    const tok = table.view.state.action_tokens.find((x: any) => x.token === t);
    opts.push(btn('claim-' + t, tok ? tr('app.ct.claim-effect', {token: t, effect: effect(tok.effect)}) : tr('app.ct.claim', {token: t}), {type: 'ct_claim', seat, token: t}));
  });
  if (l.end) opts.push(btn('end', a.host ? tr('app.ct.end-their', {who}) : tr('app.ct.end-yours'), {type: 'ct_end', seat}, true));
  if (opts.length) out.push(h('ul', {class: 'options'}, opts));
  return out;
}

function render(table: GameTable) {
  const v = table.view;
  const st = v.state;
  const out: (HTMLElement | null)[] = [table.heading(tr('app.ct.title'))];
  const phase = ['reveal', 'choose', 'rob', 'claim'].includes(st.phase) ? tr(PHASE + st.phase) : st.phase;
  out.push(h('p', {class: 'phase'}, v.ended ? tr('app.sg.game-over') : tr('app.ct.round-phase', {round: st.round, who: table.playerName(st.turn), phase}),
    ` · ${term(VARIANT, st.variant)}${st.mode === 'physical' ? tr('app.ct.physical') : ''}${st.last_round ? tr('app.ct.last-round') : ''}${st.thefts_owed ? tr('app.ct.thefts-owed', {count: st.thefts_owed}) : ''}`));
  if (v.ended && table.score) out.push(finalScore(table));
  const a = acting(table);
  tidy(table, a);
  if (hasMoves(a)) {
    out.push(h('section', {class: 'action', 'aria-labelledby': 'act-h', 'data-state': 'options', 'data-for': a.seat},
      h('h2', {id: 'act-h'}, a.host ? tr('app.ct.move-for', {who: table.playerName(a.seat)}) : tr('app.ct.your-move')), actions(table, a)));
  } else if (table.role === 'seat' && !v.ended) {
    out.push(h('section', {class: 'action', 'aria-labelledby': 'act-h', 'data-state': 'wait'}, h('h2', {id: 'act-h'}, tr('app.sg.waiting')), h('p', {}, tr('app.sg.waiting-for', {who: table.playerName(st.turn)}))));
  } else if (table.role === 'host' && !v.ended && !physical(table)) {
    out.push(h('p', {class: 'muted'}, tr('app.ct.follows')));
  }
  if (table.memo.peek && !v.ended) out.push(peekPanel(table.memo.peek));
  out.push(grid(table, a));
  const aw = st.awards;
  const holder = (x: any) => (x === null || x === undefined ? tr('app.ct.not-taken') : table.playerName(x));
  out.push(h('p', {}, h('strong', {}, tr('app.ct.awards')), tr('app.ct.award-holder', {award: term(AWARD, 'colorful_gems'), who: holder(aw.colorful_gems)}),
    ' · ', tr('app.ct.award-holder', {award: term(AWARD, 'explorer'), who: holder(aw.explorer)})));
  if (st.action_tokens && st.action_tokens.length) {
    out.push(h('p', {}, h('strong', {}, tr('app.ct.action-tokens')), st.action_tokens.map((x: any) => tr('app.ct.token-state', {token: x.token, effect: effect(x.effect),
      state: x.spent ? tr('app.ct.used') : x.holder === null || x.holder === undefined ? tr('app.ct.on-offer') : table.playerName(x.holder)})).join(' · ')));
  }
  out.push(h('section', {'aria-labelledby': 'boards-h'}, h('h2', {id: 'boards-h'}, tr('app.new.players')), h('div', {class: 'boards'}, st.players.map((p: any) => h('article', {class: 'board', 'aria-labelledby': 'ct-' + p.seat},
    h('h3', {id: 'ct-' + p.seat}, p.name, p.seat === st.turn && !v.ended ? h('span', {class: 'muted'}, tr('app.lth.on-turn')) : null),
    h('div', {class: 'ct-have'}, h('strong', {}, tr('app.ct.cards')), p.cards.length ? h('ul', {class: 'ct-cards'}, p.cards.map((c: any) => h('li', {class: 'ct-card', title: wonder(c.wonder)},
      gem(c.kind), wonderArt(c.wonder), h('span', {class: 'sr-only'}, cardWords(c))))) : tr('app.none')),
    h('p', {}, h('strong', {}, tr('app.ct.tokens')), [p.diamond_tokens.length ? tr('app.ct.diamond-tokens-of', {wonders: p.diamond_tokens.map(wonder).join(', ')}) : '', p.key_tokens ? tr('app.ct.n-key', {n: p.key_tokens}) : '',
      p.chest_tokens ? tr('app.ct.n-chest', {n: p.chest_tokens}) : '', p.action_tokens.length ? tr('app.ct.action-tokens-n', {count: p.action_tokens.length, tokens: p.action_tokens.join(', ')}) : ''].filter(Boolean).join(' · ') || tr('app.none')),
    h('p', {class: 'muted'}, tr('app.ct.turns-played', {count: p.turns})))))));
  return h('div', {class: 'ct'}, out);
}

// peekPanel shows what a peek showed the seat, until the next move: then
// the cards are face down for it too, as at the table.
function peekPanel(cards: any) {
  return h('section', {class: 'ct-peek note', 'aria-labelledby': 'peek-h', 'data-testid': 'peeked'}, h('h2', {id: 'peek-h'}, tr('app.ct.you-peek')),
    h('p', {}, tr('app.ct.peeked', {cards: andList(cards.map((c: any) => tr('app.ct.place-shows', {place: place(c), kind: kind(c.kind)})))})));
}

// finalScore has a column per player and a row per line of the score, so
// that it fits a phone with four players as with two.
function finalScore(table: GameTable) {
  const sc = table.score;
  const lines = [['app.ct.line.diamond-cards', 'diamond_cards'], ['app.sheet.ct.col.diamond-tokens', 'diamond_tokens'], ['app.sheet.ct.col.gems', 'gems'], ['app.sheet.ct.col.action-tokens', 'action_tokens'], ['app.sheet.ct.col.awards', 'awards']];
  return h('section', {class: 'final', 'aria-labelledby': 'final-h', 'data-testid': 'final'}, h('h2', {id: 'final-h'}, sc.final ? tr('app.score.final') : tr('app.score.so-far')),
    h('table', {class: 'ct-score'}, h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, tr('app.ct.points')), sc.players.map((p: any) => h('th', {scope: 'col'}, p.name)))),
      h('tbody', {}, lines.map(([label, k]) => h('tr', {}, h('th', {scope: 'row'}, tr(label)), sc.players.map((p: any) => h('td', {}, p.lines[k])))),
        h('tr', {}, h('th', {scope: 'row'}, tr('app.sg.col.total')), sc.players.map((p: any) => h('td', {}, h('strong', {}, p.total)))))),
    h('ol', {class: 'ranking'}, sc.ranking.map((r: any, i: any) => h('li', {}, `${r.rank}. ${r.name}, ${r.total}`,
      i > 0 && r.decided_by_label ? ` (${r.decided_by_label})` : ''))));
}

// The screen, as the shell finds it (web/src/games.gen.ts).
const screen: Screen<Schemas['ColorfulTreasureView'], Schemas['ColorfulTreasureLegal']> = {ruleset, events, refreshOnMove: true, history: true, hostSeats, describe, render};
export default screen;
