// Colorful Treasure, digital: the memory grid as the server shows it to
// everyone (a face-down card is only its column's wonder and colours; a
// card revealed this turn shows its kind), each player's cards and tokens,
// and for the seat on turn the moves the server lists: tap face-down cards
// to flip them, then collect, rob, use or claim a token, end the turn. What
// a peek shows reaches the peeking seat only, in its log.
import {h} from '../lib.js';

export const ruleset = 'colorful-treasure';
// Listed for the log; the screen reads the game again after every move.
export const events = ['cards_revealed', 'cards_collected', 'tokens_paired', 'theft_skipped', 'stolen', 'token_used',
  'peeked', 'token_taken', 'award_taken', 'last_round', 'turn_started'];
export const refreshOnMove = true;

const EFFECT = {
  peek_two: 'peek at 2 cards of different wonders', peek_three: 'peek at up to 3 cards of one wonder',
  fourth_card: 'reveal a fourth card', instead: 'take gems or diamonds instead of keys and chests',
  two_types: 'take 2 types', sixth_colour: 'a sixth gem colour', no_stealing: 'no stealing from or by you',
  protected: 'your wonder cards cannot be stolen', four_points: '4 points', wild_pair: 'a wild key or chest token',
};
const AWARD = {colorful_gems: 'Colorful Gems', explorer: 'Explorer', chest: 'Chest'};

const wonder = (id) => String(id).split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
const place = (p) => `${wonder(p.wonder)} row ${p.row + 1}`;
const samePos = (a, b) => a.column === b.column && a.row === b.row;

export function seatName(ctx) {
  const p = ctx.view.state.players[ctx.seat];
  return p ? p.name : undefined;
}

function name(ctx, seat) {
  const p = ctx.view && ctx.view.state.players[seat];
  return p ? p.name : `Seat ${seat + 1}`;
}

// describe turns an event into a line of the table's log.
export function describe(ev, d, ctx) {
  if (!d) return null;
  const who = d.seat !== undefined ? name(ctx, d.seat) : '';
  switch (ev) {
    case 'cards_revealed':
      return `${who} revealed ${d.cards.map((c) => `${c.kind} (${place(c)})`).join(', ')}`;
    case 'cards_collected':
      return `${who} took ${d.cards && d.cards.length ? d.cards.map((c) => `${c.kind} (${wonder(c.wonder)})`).join(', ') : 'nothing'}`;
    case 'tokens_paired':
      return `${who} paired a key and a chest token: ${d.pairs} theft${d.pairs === 1 ? '' : 's'}`;
    case 'theft_skipped':
      return `${who} had nobody to rob`;
    case 'stolen':
      return `${who} stole ${d.card ? `${d.card.kind} (${wonder(d.card.wonder)})` : `the ${wonder(d.diamond_token)} diamond token`} from ${name(ctx, d.target)}`;
    case 'token_used':
      return `${who} used action token ${d.token}: ${EFFECT[d.effect] || d.effect}`;
    case 'peeked':
      return `You peeked: ${d.cards.map((c) => `${place(c)} shows ${c.kind}`).join(', ')}`;
    case 'token_taken':
      return `${who} took action token ${d.token} (${EFFECT[d.effect] || d.effect}) with 3 ${d.colour}`;
    case 'award_taken':
      return `${who} took ${AWARD[d.award] || d.award} (${d.points} points)`;
    case 'last_round':
      return `${d.cards_left} cards left: this round is the last`;
    case 'turn_started':
      return `${who}’s turn (round ${d.round})`;
    default:
      return null;
  }
}

// mine says whether this page acts for the seat its legal moves are for.
const mine = (ctx) => ctx.legal && ctx.legal.seat >= 0 && ctx.view.state.mode === 'digital' && !ctx.view.ended;

// pickable lists the face-down cards a tap may choose now: a peek's, or the
// flip's.
function pickable(ctx) {
  const l = ctx.legal;
  if (!mine(ctx)) return null;
  if (ctx.ui.peek !== undefined) {
    const t = (l.use_token || []).find((u) => u.token === ctx.ui.peek);
    return t && t.cells ? {cells: t.cells, min: t.min, max: t.max, peek: t} : null;
  }
  return l.flip ? {cells: l.flip.cells, min: l.flip.count, max: l.flip.count} : null;
}

// allowed keeps a peek to what its listing says: one wonder, or different
// wonders (a chosen card can always be tapped again to unchoose it).
function allowed(pick, picked, pos) {
  if (!pick.peek || picked.some((p) => samePos(p, pos))) return true;
  if (picked.length >= pick.max) return false;
  if (pick.peek.same_wonder && picked.length) return picked[0].column === pos.column;
  if (pick.peek.different_wonders) return !picked.some((p) => p.column === pos.column);
  return true;
}

function tap(ctx, pos, pick) {
  const picked = ctx.ui.picked || (ctx.ui.picked = []);
  const i = picked.findIndex((p) => samePos(p, pos));
  if (i >= 0) picked.splice(i, 1); else if (picked.length < pick.max) picked.push(pos);
  if (!pick.peek && picked.length === pick.max) {
    const cards = picked.map((p) => ({column: p.column, row: p.row}));
    ctx.ui.picked = [];
    ctx.play({type: 'flip', seat: ctx.legal.seat, cards});
    return;
  }
  ctx.rerender();
  const el = document.querySelector(`button[data-cell="${pos.column}-${pos.row}"]`);
  if (el) el.focus();
}

function grid(ctx) {
  const st = ctx.view.state;
  const pick = pickable(ctx);
  const picked = ctx.ui.picked || [];
  const rows = Math.max(...st.columns.map((c) => c.cells.length));
  const head = h('tr', {}, h('th', {scope: 'col'}, h('span', {class: 'sr-only'}, 'Row')), st.columns.map((c) => h('th', {scope: 'col', class: 'ct-wonder'},
    h('span', {class: 'ct-wname'}, wonder(c.wonder)),
    h('span', {class: 'ct-colours'}, c.colours.map((k) => h('span', {class: 'gem gem-' + k}, k)).concat(c.lock ? [h('span', {class: 'muted'}, c.lock)] : [])),
    h('span', {class: 'muted ct-tokens'}, [c.diamond_token ? 'diamond token' : '', c.lock_token && c.lock ? `${c.lock} token` : ''].filter(Boolean).join(' · ') || 'no tokens'))));
  const body = [];
  for (let r = 0; r < rows; r++) {
    body.push(h('tr', {}, h('th', {scope: 'row'}, String(r + 1)), st.columns.map((c, col) => {
      const cell = c.cells[r];
      const pos = {column: col, row: r};
      const what = `${wonder(c.wonder)}, row ${r + 1}`;
      if (cell === undefined) return h('td', {});
      if (cell === 'gone') return h('td', {class: 'ct-cell gone'}, h('span', {class: 'sr-only'}, `${what}: taken`));
      if (cell !== 'down') return h('td', {class: 'ct-cell up'}, h('span', {class: 'ct-face gem-' + cell, 'data-shows': cell}, cell), h('span', {class: 'sr-only'}, ` (${what})`));
      if (pick && pick.cells.some((p) => samePos(p, pos)) && allowed(pick, picked, pos)) {
        const on = picked.some((p) => samePos(p, pos));
        return h('td', {class: 'ct-cell'}, h('button', {type: 'button', class: 'ct-back', 'data-cell': `${col}-${r}`, 'aria-pressed': on ? 'true' : 'false',
          'aria-label': `${pick.peek ? 'Peek at' : 'Flip'} ${what}`, onclick: () => tap(ctx, pos, pick)}, '?'));
      }
      return h('td', {class: 'ct-cell'}, h('span', {class: 'ct-back'}, h('span', {'aria-hidden': 'true'}, '?'), h('span', {class: 'sr-only'}, `${what}: face down`)));
    })));
  }
  return h('section', {'aria-labelledby': 'grid-h'}, h('h2', {id: 'grid-h'}, `The grid · ${st.cards_left} cards left`),
    h('div', {class: 'ct-scroll', tabindex: '0', role: 'region', 'aria-labelledby': 'grid-h'},
      h('table', {class: 'ct-grid'}, h('thead', {}, head), h('tbody', {}, body))));
}

const take = (t) => (t.length ? 'Take ' + t.map((x) => (x === 'keys_chests' ? 'the keys and chests' : x === 'diamond' ? 'the diamonds' : 'the ' + x)).join(' and ') : 'Take nothing');

function actions(ctx) {
  const l = ctx.legal;
  const seat = l.seat;
  const out = [];
  const btn = (k, text, move, primary) => h('li', {}, h('button', {type: 'button', class: primary ? 'primary' : '', 'data-option': k, 'data-k': k, onclick: () => ctx.play(move)}, text));
  const pick = pickable(ctx);
  if (ctx.ui.peek !== undefined && pick) {
    const n = (ctx.ui.picked || []).length;
    out.push(h('p', {}, `Tap ${pick.min === pick.max ? pick.min : `${pick.min} to ${pick.max}`} face-down cards to peek at (${pick.peek.same_wonder ? 'of one wonder' : pick.peek.different_wonders ? 'of different wonders' : 'any'}): ${n} chosen.`));
    out.push(h('div', {class: 'buttons'},
      h('button', {type: 'button', class: 'primary', 'data-k': 'peek', disabled: n < pick.min, onclick: () => ctx.play({type: 'use_token', seat, token: pick.peek.token, cards: ctx.ui.picked.map((p) => ({column: p.column, row: p.row}))})}, 'Peek'),
      h('button', {type: 'button', 'data-k': 'peek-cancel', onclick: () => { delete ctx.ui.peek; ctx.ui.picked = []; ctx.rerender(); }}, 'Cancel')));
    return out;
  }
  if (l.flip) {
    const n = (ctx.ui.picked || []).length;
    out.push(h('p', {'data-flip': l.flip.count}, l.flip.count === 1 ? 'Tap a face-down card in the grid to reveal it' : `Tap ${l.flip.count} face-down cards in the grid to reveal them (${n} chosen)`,
      l.collect && l.collect.length ? ', or collect:' : '.'));
  }
  const opts = [];
  (l.collect || []).forEach((t, i) => opts.push(btn('collect-' + i, take(t), {type: 'collect', seat, take: t})));
  (l.rob || []).forEach((r, i) => opts.push(btn('rob-' + i, `Steal ${r.card ? `${r.card.kind} (${wonder(r.card.wonder)})` : `the ${wonder(r.diamond_token)} diamond token`} from ${name(ctx, r.target)}`,
    {type: 'rob', seat, target: r.target, ...(r.card ? {card: r.card} : {diamond_token: r.diamond_token})})));
  (l.use_token || []).forEach((u) => {
    if (u.cells) {
      opts.push(h('li', {}, h('button', {type: 'button', 'data-k': 'use-' + u.token, onclick: () => { ctx.ui.peek = u.token; ctx.ui.picked = []; ctx.rerender(); }},
        `Use action token ${u.token}: ${EFFECT[u.effect] || u.effect}`)));
    } else {
      opts.push(btn('use-' + u.token, `Use action token ${u.token}: ${EFFECT[u.effect] || u.effect}`, {type: 'use_token', seat, token: u.token}));
    }
  });
  (l.claim || []).forEach((t) => {
    const tok = ctx.view.state.action_tokens.find((a) => a.token === t);
    opts.push(btn('claim-' + t, `Take action token ${t}${tok ? `: ${EFFECT[tok.effect] || tok.effect}` : ''}`, {type: 'ct_claim', seat, token: t}));
  });
  if (l.end) opts.push(btn('end', 'End your turn', {type: 'ct_end', seat}, true));
  if (opts.length) out.push(h('ul', {class: 'options'}, opts));
  return out;
}

export function render(ctx) {
  const v = ctx.view;
  const st = v.state;
  const who = ctx.role === 'host' ? 'Host' : ctx.role === 'seat' ? name(ctx, ctx.seat) : 'Spectator';
  document.title = `Colorful Treasure: ${who}`;
  const out = [h('h1', {}, `Colorful Treasure · ${who}`)];
  const phase = {reveal: 'reveals', choose: 'chooses', rob: 'steals', claim: 'may take an action token'}[st.phase] || st.phase;
  out.push(h('p', {class: 'phase'}, v.ended ? 'Game over' : `Round ${st.round}: ${name(ctx, st.turn)} ${phase}`,
    ` · ${st.variant}${st.last_round ? ' · last round' : ''}${st.thefts_owed ? ` · ${st.thefts_owed} theft${st.thefts_owed === 1 ? '' : 's'} owed` : ''}`));
  if (v.ended && ctx.score) out.push(finalScore(ctx));
  if (st.mode === 'physical' && !v.ended) {
    out.push(h('p', {class: 'note'}, 'This app draws a digital game of Colorful Treasure; in a physical game, report the cards through the API (see /docs).'));
  }
  if (mine(ctx) && (ctx.legal.flip || ['collect', 'rob', 'use_token', 'claim'].some((k) => (ctx.legal[k] || []).length) || ctx.legal.end)) {
    out.push(h('section', {class: 'action', 'aria-labelledby': 'act-h', 'data-state': 'options'}, h('h2', {id: 'act-h'}, 'Your move'), actions(ctx)));
  } else if (ctx.role === 'seat' && !v.ended) {
    out.push(h('section', {class: 'action', 'aria-labelledby': 'act-h', 'data-state': 'wait'}, h('h2', {id: 'act-h'}, 'Waiting'), h('p', {}, `Waiting for ${name(ctx, st.turn)}.`)));
  }
  out.push(grid(ctx));
  const aw = st.awards;
  out.push(h('p', {}, h('strong', {}, 'Awards: '), `Colorful Gems ${aw.colorful_gems === null || aw.colorful_gems === undefined ? 'not taken' : name(ctx, aw.colorful_gems)}`,
    ` · Explorer ${aw.explorer === null || aw.explorer === undefined ? 'not taken' : name(ctx, aw.explorer)}`));
  if (st.action_tokens && st.action_tokens.length) {
    out.push(h('p', {}, h('strong', {}, 'Action tokens: '), st.action_tokens.map((a) => `${a.token} (${EFFECT[a.effect] || a.effect}): ${a.spent ? 'used' : a.holder === null || a.holder === undefined ? 'on offer' : name(ctx, a.holder)}`).join(' · ')));
  }
  out.push(h('section', {'aria-labelledby': 'boards-h'}, h('h2', {id: 'boards-h'}, 'Players'), h('div', {class: 'boards'}, st.players.map((p) => h('article', {class: 'board', 'aria-labelledby': 'ct-' + p.seat},
    h('h3', {id: 'ct-' + p.seat}, p.name, p.seat === st.turn && !v.ended ? h('span', {class: 'muted'}, ' · on turn') : null),
    h('p', {}, h('strong', {}, 'Cards: '), p.cards.length ? p.cards.map((c) => `${c.kind} (${wonder(c.wonder)})`).join(', ') : 'none'),
    h('p', {}, h('strong', {}, 'Tokens: '), [p.diamond_tokens.length ? `diamond tokens of ${p.diamond_tokens.map(wonder).join(', ')}` : '', p.key_tokens ? `${p.key_tokens} key` : '',
      p.chest_tokens ? `${p.chest_tokens} chest` : '', p.action_tokens.length ? `action token${p.action_tokens.length === 1 ? '' : 's'} ${p.action_tokens.join(', ')}` : ''].filter(Boolean).join(' · ') || 'none'),
    h('p', {class: 'muted'}, `${p.turns} turn${p.turns === 1 ? '' : 's'} played`))))));
  return h('div', {class: 'ct'}, out);
}

function finalScore(ctx) {
  const sc = ctx.score;
  return h('section', {class: 'final', 'aria-labelledby': 'final-h', 'data-testid': 'final'}, h('h2', {id: 'final-h'}, sc.final ? 'Final score' : 'Score so far'),
    h('table', {}, h('thead', {}, h('tr', {}, ['Player', 'Diamonds', 'Tokens', 'Gems', 'Actions', 'Awards', 'Total'].map((t) => h('th', {scope: 'col'}, t)))),
      h('tbody', {}, sc.players.map((p) => h('tr', {}, h('th', {scope: 'row'}, p.name), h('td', {}, p.lines.diamond_cards), h('td', {}, p.lines.diamond_tokens),
        h('td', {}, p.lines.gems), h('td', {}, p.lines.action_tokens), h('td', {}, p.lines.awards), h('td', {}, h('strong', {}, p.total)))))),
    h('ol', {class: 'ranking'}, sc.ranking.map((r) => h('li', {}, `${r.rank}. ${r.name}, ${r.total}`))));
}
