// The score-sheet check: choose the game, enter what each player wrote on
// paper, and the server scores every line, ranks the players and lists the
// mistakes. Nothing is stored. Each game's part below says what its paper
// tally holds (fields), how it becomes the sheet the API takes (sheet), and
// which lines its answer has (columns).
import {cardPicture} from './games/silvergold.js';
import {gem} from './cards/art.js';
import {h, replace, call, randomKey} from './lib.js';
import {knownGroups, groupLink} from './group.js';

const title = (id) => String(id).split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');

// whole reads one number written on the sheet; what is not a whole number
// is refused here, with the field it was written in, before anything is sent.
function whole(text, label) {
  if (!/^\d{1,6}$/.test(text)) throw new Error(`${label}: “${text}” is not a whole number.`);
  return Number(text);
}
// number is a field holding one number, or nothing (undefined).
const number = (s, label) => (String(s ?? '').trim() === '' ? undefined : whole(String(s).trim(), label));
// nums is a field holding numbers separated by commas or spaces.
const nums = (s, label) => String(s ?? '').split(/[\s,;]+/).filter(Boolean).map((x) => whole(x, label));

// input is a labelled text field bound to o[key].
function input(o, id, key, label, hint, attrs = {}) {
  return h('div', {class: 'field'}, h('label', {for: id}, label), hint ? h('span', {class: 'hint', id: id + '-hint'}, hint) : null,
    h('input', {id, 'data-k': id, value: o[key] ?? '', 'aria-describedby': hint ? id + '-hint' : null, oninput: (e) => { o[key] = e.target.value; }, ...attrs}));
}

// check is a labelled checkbox bound to the membership of value in o[key].
function check(o, id, key, value, label, cls) {
  const list = o[key] || (o[key] = []);
  return h('label', {class: 'chip' + (cls ? ' ' + cls : ''), for: id},
    h('input', {type: 'checkbox', id, 'data-k': id, checked: list.includes(value), onchange: (e) => {
      const at = list.indexOf(value);
      if (e.target.checked && at < 0) list.push(value);
      if (!e.target.checked && at >= 0) list.splice(at, 1);
    }}), ' ', label);
}

const total = (i, p) => input(p, `p${i}-total`, 'total', 'Total written (optional)', null, {inputmode: 'numeric'});

const silverGold = {
  least: 1, // a sheet may hold some of the table
  intro: 'After a game of Silver & Gold played on paper, enter what each player wrote.',
  fold: true,
  async prepare(rs) {
    const cat = await call('GET', `/v1/catalogs/standard?ruleset=${encodeURIComponent(rs.name)}`);
    return {cards: cat.cards};
  },
  fields(i, p, data) {
    return [
      h('fieldset', {}, h('legend', {}, 'Completed cards'), h('span', {class: 'hint'}, 'Tap every card in the scoring pile: its colour, then its picture.'), sgCards(i, p, data)),
      input(p, `p${i}-coins`, 'coins', 'Coins crossed', null, {inputmode: 'numeric'}),
      input(p, `p${i}-cups`, 'cups', 'Cups', 'Their values, separated by commas: 6, 2', {inputmode: 'numeric'}),
      input(p, `p${i}-palms`, 'palms', 'Palm boxes', 'The values written, separated by commas: 2, 3, 3', {inputmode: 'numeric'}),
    ];
  },
  summary: (p) => `${(p.cards || []).length} card${(p.cards || []).length === 1 ? '' : 's'}`,
  player: (p, t, who) => ({cards: (p.cards || []).map((id) => ({id})), coins: number(p.coins, `${who}, coins`) ?? 0,
    cups: nums(p.cups, `${who}, cups`), palms: nums(p.palms, `${who}, palm boxes`)}),
  columns: [['Coins', (p) => p.lines.coins], ['Cups', (p) => p.lines.cups], ['Palms', (p) => p.lines.palms], ['Cards', (p) => p.lines.cards], ['Seals', (p) => p.lines.seals]],
  decided: (r) => (r.decided_by === 'total' ? 'fewer points than' : `fewer completed ${r.decided_by} cards than`),
};

// sgCards picks a player's completed Silver & Gold cards by tapping their
// pictures, a colour at a time; it draws itself again when tapped.
const COLOURS = ['grey', 'green', 'orange', 'purple'];
function sgCards(i, p, data) {
  const box = h('div', {class: 'sheet-cards'});
  const chosen = p.cards || (p.cards = []);
  const draw = () => {
    const colour = p.colour || 'grey';
    const of = (col) => (data.cards || []).filter((c) => c.colour === col);
    const picked = (data.cards || []).filter((c) => chosen.includes(c.id));
    replace(box,
      h('div', {class: 'filters', role: 'group', 'aria-label': 'Colour'}, COLOURS.map((col) => {
        const n = of(col).filter((c) => chosen.includes(c.id)).length;
        return h('button', {type: 'button', 'aria-pressed': col === colour ? 'true' : 'false', 'data-k': `p${i}-col-${col}`, 'data-colour': col,
          onclick: () => { p.colour = col; draw(); }}, col, n ? ` (${n} chosen)` : '');
      })),
      h('div', {class: 'tiles'}, of(colour).map((c) => cardPicture(c, {'aria-pressed': chosen.includes(c.id) ? 'true' : 'false', 'data-k': `p${i}-card-${c.id}`, 'data-sheet-card': `p${i}:${c.id}`,
        onclick: () => {
          const at = chosen.indexOf(c.id);
          if (at >= 0) chosen.splice(at, 1);
          else chosen.push(c.id);
          draw();
        }}, {small: true}))),
      h('p', {class: 'muted', 'aria-live': 'polite'}, picked.length ? `${picked.length} chosen: ${picked.map((c) => `${c.colour} ${c.value}`).join(', ')}` : 'None chosen yet.'));
  };
  draw();
  return box;
}

const TREASURES = ['silver', 'gold', 'pearl', 'ruby', 'jade'];

const luckyTreasureHunter = {
  least: 1,
  intro: 'After a game of Lucky Treasure Hunter played with the real cards, enter the sets in front of each player.',
  table: (t) => [input(t, 'players-at-table', 'players_at_table', 'Players at the table (optional)', 'Needed when the sheet leaves some of them out: 5 or 6 players add the extra pack.', {inputmode: 'numeric'})],
  fields(i, p) {
    return [
      h('fieldset', {}, h('legend', {}, 'Sets in front of the player'), h('span', {class: 'hint'}, 'For each treasure, the size of each set, separated by commas: 5, 2'),
        TREASURES.map((t) => input(p, `p${i}-${t}`, t, title(t), null, {inputmode: 'numeric', class: 'short'}))),
      h('div', {class: 'field'}, check(p, `p${i}-captain`, 'captain', 'used', 'The captain is turned over (used)')),
    ];
  },
  sheet: (t) => {
    const n = number(t.players_at_table, 'Players at the table');
    return n === undefined ? {} : {players_at_table: n};
  },
  player: (p, t, who) => ({sets: TREASURES.flatMap((k) => nums(p[k], `${who}, ${k} sets`).map((size) => ({treasure: k, size}))),
    captain_used: (p.captain || []).includes('used')}),
  columns: [['Cards', (p) => p.cards], ['Captain', (p) => p.captain], ['Set sizes', (p) => p.set_sizes.join(', ') || 'none']],
  decided: (r) => (r.decided_by === 'total' ? 'fewer points than' : `set ${r.deciding_set} smaller than`),
};

const EFFECTS = {peek_two: '1a: peek at 2', peek_three: '1b: peek at 3', fourth_card: '2a: fourth card', instead: '2b: instead',
  two_types: '3a: two types', sixth_colour: '3b: sixth colour', no_stealing: '4a: no stealing', protected: '4b: protected',
  four_points: '5a: 4 points', wild_pair: '5b: wild pair'};
const AWARDS = {colorful_gems: 'Colorful Gems', explorer: 'Explorer', chest: 'Chest'};

const colorfulTreasure = {
  fold: true,
  summary: (p) => `${(p.cards || []).length} card${(p.cards || []).length === 1 ? '' : 's'} ticked`,
  least: 2, // the whole table: who holds which card is checked across it
  intro: 'After a game of Colorful Treasure played with the real cards, tick what each player has in front of them.',
  async prepare(rs) {
    const cat = await call('GET', `/v1/catalogs/standard?ruleset=${encodeURIComponent(rs.name)}`);
    return {wonders: cat.wonders};
  },
  table: (t, redraw) => [h('div', {class: 'field'}, h('label', {for: 'variant'}, 'Variant'),
    h('select', {id: 'variant', 'data-k': 'variant', onchange: (e) => { t.variant = e.target.value; redraw(); }},
      ['standard', 'junior', 'advanced'].map((v) => h('option', {value: v, selected: (t.variant || 'standard') === v}, title(v)))))],
  fields(i, p, data, t) {
    const junior = t.variant === 'junior';
    return [
      h('fieldset', {}, h('legend', {}, 'Cards and diamond tokens, by wonder'),
        h('div', {class: 'sheet-wonders'}, data.wonders.map((w) => h('fieldset', {class: 'sheet-wonder'}, h('legend', {}, title(w.id)),
          ['diamond', ...(junior ? [] : [w.lock]), ...w.colours].map((k) => check(p, `p${i}-${w.id}-${k}`, 'cards', `${w.id}/${k}`, [gem(k), ' ', k], 'gem-chip')),
          junior ? null : check(p, `p${i}-${w.id}-token`, 'tokens', w.id, 'diamond token'))))),
      t.variant === 'advanced' ? h('fieldset', {}, h('legend', {}, 'Action tokens'),
        Object.entries(EFFECTS).map(([e, label]) => check(p, `p${i}-action-${e}`, 'actions', e, label))) : null,
      junior ? null : h('fieldset', {}, h('legend', {}, 'Awards claimed'),
        Object.entries(AWARDS).map(([a, label]) => check(p, `p${i}-award-${a}`, 'awards', a, label))),
    ];
  },
  sheet: (t) => ({variant: t.variant || 'standard'}),
  player(p, t) {
    const out = {cards: (p.cards || []).map((c) => ({wonder: c.split('/')[0], kind: c.split('/')[1]})), diamond_tokens: t.variant === 'junior' ? [] : [...(p.tokens || [])]};
    if (t.variant === 'advanced') out.action_tokens = [...(p.actions || [])];
    if (t.variant !== 'junior') out.awards = [...(p.awards || [])];
    return out;
  },
  columns: [['Diamonds', (p) => p.lines.diamond_cards], ['Diamond tokens', (p) => p.lines.diamond_tokens], ['Gems', (p) => p.lines.gems],
    ['Action tokens', (p) => p.lines.action_tokens], ['Awards', (p) => p.lines.awards]],
  decided: () => 'fewer points than',
};

const GAMES = {'silver-and-gold': silverGold, 'lucky-treasure-hunter': luckyTreasureHunter, 'colorful-treasure': colorfulTreasure};

// sheetPage draws the check; asked names the game to start with (#/sheet/<ruleset>).
export async function sheetPage(root, asked) {
  document.title = 'Treasury: check a score sheet';
  const result = h('div', {'aria-live': 'polite'});
  const problem = h('div', {role: 'alert', class: 'problem'});
  let rulesets = [];
  try {
    rulesets = (await call('GET', '/v1/rulesets')).rulesets.filter((r) => r.score_sheets && GAMES[r.name]);
  } catch (e) {
    problem.textContent = e.message;
  }
  let rs = rulesets.find((r) => r.name === asked) || rulesets.find((r) => r.name === 'silver-and-gold') || rulesets[0];
  let players = [{}, {}];
  let table = {};
  let data = {};
  const intro = h('p', {});
  const list = h('div');

  async function choose(name) {
    rs = rulesets.find((r) => r.name === name);
    // The address names the game, so that a reload or a shared link keeps it.
    history.replaceState(null, '', `#/sheet/${encodeURIComponent(rs.name)}`);
    // Names carry over to another game; what was ticked does not.
    players = players.map((p) => ({name: p.name}));
    table = {};
    data = {};
    replace(result);
    problem.textContent = '';
    const game = GAMES[rs.name];
    if (game.prepare) {
      try {
        data = await game.prepare(rs);
      } catch (e) {
        problem.textContent = e.message;
      }
    }
    draw();
  }

  function draw() {
    const game = GAMES[rs.name];
    intro.textContent = `${game.intro} The server scores every line, ranks the players and lists every mistake. Nothing is stored unless you save a right sheet to a group.`;
    // A long sheet is folded per player: the first open, the others
    // folded and summed up in their headings (a player added opens).
    const panel = (p, i) => h('fieldset', {class: 'card-panel'}, h('legend', {}, `Player ${i + 1}`),
      input(p, `p${i}-name`, 'name', 'Name', null, {autocomplete: 'off', maxlength: 32}),
      game.fields(i, p, data, table),
      total(i, p),
      players.length > game.least ? h('button', {type: 'button', 'data-k': `remove-${i}`, onclick: () => { players.splice(i, 1); draw(); }}, `Remove player ${i + 1}`) : null);
    replace(list, game.table ? game.table(table, draw) : null, players.map((p, i) => {
      if (!game.fold) return panel(p, i);
      if (p.open === undefined) p.open = i === 0;
      return h('details', {class: 'player-fold', id: `p${i}-fold`, open: p.open, ontoggle: (e) => { p.open = e.target.open; }},
        h('summary', {'data-k': `p${i}-fold`}, `Player ${i + 1}${(p.name || '').trim() ? ': ' + p.name.trim() : ''}`, h('span', {class: 'muted'}, ` · ${game.summary(p)}`)),
        panel(p, i));
    }));
  }

  const picker = h('div', {class: 'field'}, h('label', {for: 'sheet-ruleset'}, 'Game'),
    h('select', {id: 'sheet-ruleset', 'data-k': 'sheet-ruleset', onchange: (e) => choose(e.target.value)},
      rulesets.map((r) => h('option', {value: r.name, selected: rs && r.name === rs.name}, r.title || r.name))));

  const form = h('form', {novalidate: true, onsubmit: async (e) => {
    e.preventDefault();
    problem.textContent = '';
    const game = GAMES[rs.name];
    players.forEach((p, i) => game.sync && game.sync(i, p, list));
    try {
      const body = {ruleset: rs.name, ...(game.sheet ? game.sheet(table) : {}), players: players.map((p, i) => {
        const name = (p.name || '').trim() || `Player ${i + 1}`;
        const out = {name, ...game.player(p, table, name)};
        const written = number(p.total, `${name}, total`);
        if (written !== undefined) out.total = written;
        return out;
      })};
      show(await call('POST', `/v1/score-sheets/verify?ruleset=${encodeURIComponent(rs.name)}`, {body}), body);
    } catch (err) {
      problem.textContent = err.message;
      replace(result);
    }
  }}, picker, list,
  h('div', {class: 'buttons'},
    h('button', {type: 'button', 'data-k': 'add-player', onclick: () => { if (players.length < (rs ? rs.max_players : 4)) { players.push({open: true}); draw(); } }}, 'Add a player'),
    h('button', {type: 'submit', class: 'primary', 'data-action': 'check'}, 'Check the sheet')));

  // keep offers a right sheet to one of this device's groups, as a play;
  // one key per sheet shown, so that a second tap keeps nothing more.
  function keep(body) {
    const groups = knownGroups();
    if (!groups.length) return h('p', {class: 'muted'}, 'Playing as a group? ', h('a', {href: '#/group'}, 'Create one'), ' to keep sheets as plays.');
    const key = randomKey();
    const out = h('div', {role: 'status'});
    const sel = h('select', {id: 'keep-group', 'data-k': 'keep-group'}, groups.map((g) => h('option', {value: g.id}, g.name)));
    return h('div', {class: 'buttons', 'data-testid': 'keep-sheet'}, h('label', {for: 'keep-group'}, 'Group'), sel,
      h('button', {type: 'button', class: 'primary', 'data-action': 'keep-sheet', onclick: async () => {
        const g = groups.find((x) => x.id === sel.value);
        out.textContent = '';
        try {
          await call('POST', `/v1/groups/${encodeURIComponent(g.id)}/plays`, {cred: g.cred, body: {sheet: body}, idempotent: key});
          replace(out, 'Saved as a play of ', h('a', {href: groupLink(g.id, g.cred)}, g.name), '.');
        } catch (err) {
          out.textContent = err.message;
        }
      }}, 'Save this sheet as a play'), out);
  }

  function show(res, body) {
    const game = GAMES[res.ruleset] || GAMES[rs.name];
    const names = res.players.map((p) => p.name);
    replace(result, h('section', {'aria-labelledby': 'res-h', 'data-testid': 'sheet-result'},
      h('h2', {id: 'res-h'}, res.valid ? 'The sheet is right' : `The sheet has ${res.findings.length} mistake${res.findings.length === 1 ? '' : 's'}`),
      h('div', {class: 'table-scroll', tabindex: '0', role: 'region', 'aria-labelledby': 'res-h'},
        h('table', {}, h('thead', {}, h('tr', {}, ['Player', ...game.columns.map((c) => c[0]), 'Total'].map((t) => h('th', {scope: 'col'}, t)))),
          h('tbody', {}, res.players.map((p) => h('tr', {}, h('th', {scope: 'row'}, p.name),
            game.columns.map((c) => h('td', {}, c[1](p))), h('td', {}, h('strong', {}, p.total))))))),
      h('ol', {class: 'ranking'}, res.ranking.map((r, i) => h('li', {}, `${r.rank}. ${r.name}, ${r.total}`,
        r.decided_by && i > 0 ? ` (${r.decided_by === 'shared' ? 'shares the place with' : game.decided(r)} ${res.ranking[i - 1].name})` : ''))),
      res.findings.length ? h('ul', {class: 'findings'}, res.findings.map((f) => {
        // Lead with who and which line, unless the reason starts with them.
        const who = names[f.player] ?? 'The table';
        const lead = [f.reason.startsWith(who) ? '' : who, f.line || ''].filter(Boolean).join(', ');
        return h('li', {}, lead ? h('strong', {}, lead + ': ') : null, f.reason);
      })) : null,
      res.valid && body ? keep(body) : null));
    result.querySelector('h2').setAttribute('tabindex', '-1');
    result.querySelector('h2').focus();
  }

  replace(root, h('p', {class: 'crumbs'}, h('a', {href: '#/'}, 'Treasury')), h('h1', {}, 'Check a score sheet'), intro, form, problem, result);
  if (rs) await choose(rs.name);
}
