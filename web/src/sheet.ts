// The score-sheet check: choose the game, enter what each player wrote on
// paper, and the server scores every line, ranks the players and lists the
// mistakes. Nothing is stored. Each game's part below says what its paper
// tally holds (fields), how it becomes the sheet the API takes (sheet), and
// which lines its answer has (columns).
import {cardPicture} from '../../domain/silvergold/app/screen';
import {gem} from './cards/art';
import {h, replace, call, randomKey, errorOf} from './lib';
import {knownGroups, groupLink} from './group';
import {t, term, tlist} from './i18n';

// words are the player's language's, as a game's part of the form takes them.
const words = {t, tlist, term};

// Words for the games' ids: colours, treasures, wonders, gems, variants.
const COLOUR = 'app.colour.';
const TREASURE = 'app.lth.treasure.';
const WONDER = 'app.ct.wonder.';
const KIND = 'app.ct.kind.';
const VARIANT = 'app.option.variant.';
const cap = (w: any) => w.charAt(0).toUpperCase() + w.slice(1);

// whole reads one number written on the sheet; what is not a whole number
// is refused here, with the field it was written in, before anything is sent.
function whole(text: any, label: any) {
  if (!/^\d{1,6}$/.test(text)) throw new Error(t('app.sheet.not-whole', {label, text}));
  return Number(text);
}
// number is a field holding one number, or nothing (undefined).
const number = (s: any, label: any) => (String(s ?? '').trim() === '' ? undefined : whole(String(s).trim(), label));
// nums is a field holding numbers separated by commas or spaces.
const nums = (s: any, label: any) => String(s ?? '').split(/[\s,;]+/).filter(Boolean).map((x) => whole(x, label));

// input is a labelled text field bound to o[key].
function input(o: any, id: string, key: string, label: any, hint?: string | null, attrs: Record<string, unknown> = {}) {
  return h('div', {class: 'field'}, h('label', {for: id}, label), hint ? h('span', {class: 'hint', id: id + '-hint'}, hint) : null,
    h('input', {id, 'data-k': id, value: o[key] ?? '', 'aria-describedby': hint ? id + '-hint' : null, oninput: (e: any) => { o[key] = e.target.value; }, ...attrs}));
}

// check is a labelled checkbox bound to the membership of value in o[key].
function check(o: any, id: string, key: string, value: string, label: any, cls?: string) {
  const list = o[key] || (o[key] = []);
  return h('label', {class: 'chip' + (cls ? ' ' + cls : ''), for: id},
    h('input', {type: 'checkbox', id, 'data-k': id, checked: list.includes(value), onchange: (e: any) => {
      const at = list.indexOf(value);
      if (e.target.checked && at < 0) list.push(value);
      if (!e.target.checked && at >= 0) list.splice(at, 1);
    }}), ' ', label);
}

const total = (i: any, p: any) => input(p, `p${i}-total`, 'total', t('app.sheet.total-written'), null, {inputmode: 'numeric'});

const silverGold = {
  least: 1, // a sheet may hold some of the table
  intro: () => t('app.sheet.sg.intro'),
  fold: true,
  async prepare(rs: any) {
    const cat = await call('GET', `/v1/catalogs/standard?ruleset=${encodeURIComponent(rs.name)}`);
    return {cards: cat.cards};
  },
  fields(i: any, p: any, data: any) {
    return [
      h('fieldset', {}, h('legend', {}, t('app.sheet.sg.completed')), h('span', {class: 'hint'}, t('app.sheet.sg.completed-hint')), sgCards(i, p, data)),
      input(p, `p${i}-coins`, 'coins', t('app.sheet.sg.coins'), null, {inputmode: 'numeric'}),
      input(p, `p${i}-cups`, 'cups', t('app.sheet.sg.cups'), t('app.sheet.sg.cups-hint'), {inputmode: 'numeric'}),
      input(p, `p${i}-palms`, 'palms', t('app.sheet.sg.palms'), t('app.sheet.sg.palms-hint'), {inputmode: 'numeric'}),
    ];
  },
  summary: (p: any) => t('app.sheet.sg.summary', {count: (p.cards || []).length}),
  player: (p: any, tb: any, who: any) => ({cards: (p.cards || []).map((id: any) => ({id})), coins: number(p.coins, t('app.sheet.sg.who-coins', {who})) ?? 0,
    cups: nums(p.cups, t('app.sheet.sg.who-cups', {who})), palms: nums(p.palms, t('app.sheet.sg.who-palms', {who}))}),
  columns: [['app.sg.col.coins', (p: any) => p.lines.coins], ['app.sg.col.cups', (p: any) => p.lines.cups], ['app.sg.col.palms', (p: any) => p.lines.palms], ['app.sg.col.cards', (p: any) => p.lines.cards], ['app.sg.col.seals', (p: any) => p.lines.seals]],
  decided: (r: any, above: any) => (r.decided_by === 'total' ? t('app.score.fewer-points', {above}) : t('app.sg.fewer-colour', {colour: term(COLOUR, r.decided_by), above})),
};

// sgCards picks a player's completed Silver & Gold cards by tapping their
// pictures, a colour at a time; it draws itself again when tapped.
const COLOURS = ['grey', 'green', 'orange', 'purple'];
function sgCards(i: any, p: any, data: any) {
  const box = h('div', {class: 'sheet-cards'});
  const chosen = p.cards || (p.cards = []);
  const draw = () => {
    const colour = p.colour || 'grey';
    const of = (col: any) => (data.cards || []).filter((c: any) => c.colour === col);
    const picked = (data.cards || []).filter((c: any) => chosen.includes(c.id));
    replace(box,
      h('div', {class: 'filters', role: 'group', 'aria-label': t('app.sg.colour')}, COLOURS.map((col) => {
        const n = of(col).filter((c: any) => chosen.includes(c.id)).length;
        return h('button', {type: 'button', 'aria-pressed': col === colour ? 'true' : 'false', 'data-k': `p${i}-col-${col}`, 'data-colour': col,
          onclick: () => { p.colour = col; draw(); }}, term(COLOUR, col), n ? t('app.sheet.sg.n-chosen', {n}) : '');
      })),
      h('div', {class: 'tiles'}, of(colour).map((c: any) => cardPicture(words, c, {'aria-pressed': chosen.includes(c.id) ? 'true' : 'false', 'data-k': `p${i}-card-${c.id}`, 'data-sheet-card': `p${i}:${c.id}`,
        onclick: () => {
          const at = chosen.indexOf(c.id);
          if (at >= 0) chosen.splice(at, 1);
          else chosen.push(c.id);
          draw();
        }}, {small: true}))),
      h('p', {class: 'muted', 'aria-live': 'polite'}, picked.length ? t('app.sheet.sg.chosen', {n: picked.length, cards: picked.map((c: any) => t('app.sg.card-name', {colour: term(COLOUR, c.colour), value: c.value})).join(', ')}) : t('app.sheet.sg.none-chosen')));
  };
  draw();
  return box;
}

const TREASURES = ['silver', 'gold', 'pearl', 'ruby', 'jade'];

const luckyTreasureHunter = {
  least: 1,
  intro: () => t('app.sheet.lth.intro'),
  table: (tb: any) => [input(tb, 'players-at-table', 'players_at_table', t('app.sheet.lth.at-table'), t('app.sheet.lth.at-table-hint'), {inputmode: 'numeric'})],
  fields(i: any, p: any) {
    return [
      h('fieldset', {}, h('legend', {}, t('app.sheet.lth.sets')), h('span', {class: 'hint'}, t('app.sheet.lth.sets-hint')),
        TREASURES.map((x) => input(p, `p${i}-${x}`, x, cap(term(TREASURE, x)), null, {inputmode: 'numeric', class: 'short'}))),
      h('div', {class: 'field'}, check(p, `p${i}-captain`, 'captain', 'used', t('app.sheet.lth.captain'))),
    ];
  },
  sheet: (tb: any) => {
    const n = number(tb.players_at_table, t('app.sheet.lth.at-table-label'));
    return n === undefined ? {} : {players_at_table: n};
  },
  player: (p: any, tb: any, who: any) => ({sets: TREASURES.flatMap((k) => nums(p[k], t('app.sheet.lth.who-sets', {who, treasure: term(TREASURE, k)})).map((size) => ({treasure: k, size}))),
    captain_used: (p.captain || []).includes('used')}),
  columns: [['app.sheet.lth.col.cards', (p: any) => p.cards], ['app.sheet.lth.col.captain', (p: any) => p.captain], ['app.sheet.lth.col.sets', (p: any) => p.set_sizes.join(', ') || t('app.none')]],
  decided: (r: any, above: any) => (r.decided_by === 'total' ? t('app.score.fewer-points', {above}) : t('app.sheet.lth.smaller-set', {set: r.deciding_set, above})),
};

// The action tokens' effects (app.ct.effect.<id>) and the awards
// (app.ct.award.<id>).
const EFFECTS = ['peek_two', 'peek_three', 'fourth_card', 'instead', 'two_types', 'sixth_colour', 'no_stealing', 'protected', 'four_points', 'wild_pair'];
const AWARDS = ['colorful_gems', 'explorer', 'chest'];
const EFFECT = 'app.ct.effect.';
const AWARD = 'app.ct.award.';

const colorfulTreasure = {
  fold: true,
  summary: (p: any) => t('app.sheet.ct.summary', {count: (p.cards || []).length}),
  least: 2, // the whole table: who holds which card is checked across it
  intro: () => t('app.sheet.ct.intro'),
  async prepare(rs: any) {
    const cat = await call('GET', `/v1/catalogs/standard?ruleset=${encodeURIComponent(rs.name)}`);
    return {wonders: cat.wonders};
  },
  table: (tb: any, redraw: any) => [h('div', {class: 'field'}, h('label', {for: 'variant'}, t('app.option.variant.label')),
    h('select', {id: 'variant', 'data-k': 'variant', onchange: (e: any) => { tb.variant = e.target.value; redraw(); }},
      ['standard', 'junior', 'advanced'].map((v) => h('option', {value: v, selected: (tb.variant || 'standard') === v}, t(VARIANT + v + '.short')))))],
  fields(i: any, p: any, data: any, tb: any) {
    const junior = tb.variant === 'junior';
    return [
      h('fieldset', {}, h('legend', {}, t('app.sheet.ct.cards')),
        h('div', {class: 'sheet-wonders'}, data.wonders.map((w: any) => h('fieldset', {class: 'sheet-wonder'}, h('legend', {}, term(WONDER, w.id)),
          ['diamond', ...(junior ? [] : [w.lock]), ...w.colours].map((k) => check(p, `p${i}-${w.id}-${k}`, 'cards', `${w.id}/${k}`, [gem(k), ' ', term(KIND, k)], 'gem-chip')),
          junior ? null : check(p, `p${i}-${w.id}-token`, 'tokens', w.id, t('app.sheet.ct.diamond-token')))))),
      tb.variant === 'advanced' ? h('fieldset', {}, h('legend', {}, t('app.sheet.ct.action-tokens')),
        EFFECTS.map((e) => check(p, `p${i}-action-${e}`, 'actions', e, t(EFFECT + e)))) : null,
      junior ? null : h('fieldset', {}, h('legend', {}, t('app.sheet.ct.awards')),
        AWARDS.map((a) => check(p, `p${i}-award-${a}`, 'awards', a, t(AWARD + a)))),
    ];
  },
  sheet: (tb: any) => ({variant: tb.variant || 'standard'}),
  player(p: any, tb: any) {
    const out: Record<string, unknown> = {cards: (p.cards || []).map((c: any) => ({wonder: c.split('/')[0], kind: c.split('/')[1]})), diamond_tokens: tb.variant === 'junior' ? [] : [...(p.tokens || [])]};
    if (tb.variant === 'advanced') out.action_tokens = [...(p.actions || [])];
    if (tb.variant !== 'junior') out.awards = [...(p.awards || [])];
    return out;
  },
  columns: [['app.sheet.ct.col.diamonds', (p: any) => p.lines.diamond_cards], ['app.sheet.ct.col.diamond-tokens', (p: any) => p.lines.diamond_tokens], ['app.sheet.ct.col.gems', (p: any) => p.lines.gems],
    ['app.sheet.ct.col.action-tokens', (p: any) => p.lines.action_tokens], ['app.sheet.ct.col.awards', (p: any) => p.lines.awards]],
  decided: (r: any, above: any) => t('app.score.fewer-points', {above}),
};

const GAMES: Record<string, any> = {'silver-and-gold': silverGold, 'lucky-treasure-hunter': luckyTreasureHunter, 'colorful-treasure': colorfulTreasure};

// sheetPage draws the check; asked names the game to start with (#/sheet/<ruleset>).
export async function sheetPage(root: any, asked: any) {
  document.title = t('app.sheet.doc-title');
  const result = h('div', {'aria-live': 'polite'});
  const problem = h('div', {role: 'alert', class: 'problem'});
  let rulesets: any = [];
  try {
    rulesets = (await call('GET', '/v1/rulesets')).rulesets.filter((r: any) => r.score_sheets && GAMES[r.name]);
  } catch (caught) {
    const e = errorOf(caught);
    problem.textContent = e.message;
  }
  let rs = rulesets.find((r: any) => r.name === asked) || rulesets.find((r: any) => r.name === 'silver-and-gold') || rulesets[0];
  // What is typed per player (name, total, the game's fields) and for the table.
  let players: Record<string, any>[] = [{}, {}];
  let table: Record<string, any> = {};
  let data = {};
  const intro = h('p', {});
  const list = h('div');

  async function choose(name: any) {
    rs = rulesets.find((r: any) => r.name === name);
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
      } catch (caught) {
        const e = errorOf(caught);
        problem.textContent = e.message;
      }
    }
    draw();
  }

  function draw() {
    const game = GAMES[rs.name];
    intro.textContent = t('app.sheet.intro', {game: game.intro()});
    // A long sheet is folded per player: the first open, the others
    // folded and summed up in their headings (a player added opens).
    const panel = (p: any, i: any) => h('fieldset', {class: 'card-panel'}, h('legend', {}, t('app.new.player', {n: i + 1})),
      input(p, `p${i}-name`, 'name', t('app.sheet.name'), null, {autocomplete: 'off', maxlength: 32}),
      game.fields(i, p, data, table),
      total(i, p),
      players.length > game.least ? h('button', {type: 'button', 'data-k': `remove-${i}`, onclick: () => { players.splice(i, 1); draw(); }}, t('app.sheet.remove', {n: i + 1})) : null);
    replace(list, game.table ? game.table(table, draw) : null, players.map((p, i) => {
      if (!game.fold) return panel(p, i);
      if (p.open === undefined) p.open = i === 0;
      return h('details', {class: 'player-fold', id: `p${i}-fold`, open: p.open, ontoggle: (e: any) => { p.open = e.target.open; }},
        h('summary', {'data-k': `p${i}-fold`}, (p.name || '').trim() ? t('app.sheet.player-named', {n: i + 1, name: p.name.trim()}) : t('app.new.player', {n: i + 1}), h('span', {class: 'muted'}, ` · ${game.summary(p)}`)),
        panel(p, i));
    }));
  }

  const picker = h('div', {class: 'field'}, h('label', {for: 'sheet-ruleset'}, t('app.new.game')),
    h('select', {id: 'sheet-ruleset', 'data-k': 'sheet-ruleset', onchange: (e: any) => choose(e.target.value)},
      rulesets.map((r: any) => h('option', {value: r.name, selected: rs && r.name === rs.name}, r.title || r.name))));

  const form = h('form', {novalidate: true, onsubmit: async (e: any) => {
    e.preventDefault();
    problem.textContent = '';
    const game = GAMES[rs.name];
    players.forEach((p, i) => game.sync && game.sync(i, p, list));
    try {
      const body = {ruleset: rs.name, ...(game.sheet ? game.sheet(table) : {}), players: players.map((p, i) => {
        const name = (p.name || '').trim() || t('app.new.player', {n: i + 1});
        const out = {name, ...game.player(p, table, name)};
        const written = number(p.total, t('app.sheet.who-total', {who: name}));
        if (written !== undefined) out.total = written;
        return out;
      })};
      show(await call('POST', `/v1/score-sheets/verify?ruleset=${encodeURIComponent(rs.name)}`, {body}), body);
    } catch (caught) {
      const err = errorOf(caught);
      problem.textContent = err.message;
      replace(result);
    }
  }}, picker, list,
  h('div', {class: 'buttons'},
    h('button', {type: 'button', 'data-k': 'add-player', onclick: () => { if (players.length < (rs ? rs.max_players : 4)) { players.push({open: true}); draw(); } }}, t('app.sheet.add')),
    h('button', {type: 'submit', class: 'primary', 'data-action': 'check'}, t('app.sheet.check'))));

  // keep offers a right sheet to one of this device's groups, as a play;
  // one key per sheet shown, so that a second tap keeps nothing more.
  function keep(body: any) {
    const groups = knownGroups();
    if (!groups.length) return h('p', {class: 'muted'}, t('app.sheet.group-before'), h('a', {href: '#/group'}, t('app.sheet.group-link')), t('app.sheet.group-after'));
    const key = randomKey();
    const out = h('div', {role: 'status'});
    const sel = h('select', {id: 'keep-group', 'data-k': 'keep-group'}, groups.map((g) => h('option', {value: g.id}, g.name)));
    return h('div', {class: 'buttons', 'data-testid': 'keep-sheet'}, h('label', {for: 'keep-group'}, t('app.sheet.group')), sel,
      h('button', {type: 'button', class: 'primary', 'data-action': 'keep-sheet', onclick: async () => {
        const g = groups.find((x) => x.id === sel.value);
        out.textContent = '';
        try {
          await call('POST', `/v1/groups/${encodeURIComponent(g.id)}/plays`, {cred: g.cred, body: {sheet: body}, idempotent: key});
          replace(out, t('app.sheet.saved-before'), h('a', {href: groupLink(g.id, g.cred)}, g.name), t('app.sheet.saved-after'));
        } catch (caught) {
          const err = errorOf(caught);
          out.textContent = err.message;
        }
      }}, t('app.sheet.save')), out);
  }

  function show(res: any, body: any) {
    const game = GAMES[res.ruleset] || GAMES[rs.name];
    const names = res.players.map((p: any) => p.name);
    replace(result, h('section', {'aria-labelledby': 'res-h', 'data-testid': 'sheet-result'},
      h('h2', {id: 'res-h'}, res.valid ? t('app.sheet.right') : t('app.sheet.mistakes', {count: res.findings.length})),
      h('div', {class: 'table-scroll', tabindex: '0', role: 'region', 'aria-labelledby': 'res-h'},
        h('table', {}, h('thead', {}, h('tr', {}, ['app.sg.col.player', ...game.columns.map((c: any) => c[0]), 'app.sg.col.total'].map((k) => h('th', {scope: 'col'}, t(k))))),
          h('tbody', {}, res.players.map((p: any) => h('tr', {}, h('th', {scope: 'row'}, p.name),
            game.columns.map((c: any) => h('td', {}, c[1](p))), h('td', {}, h('strong', {}, p.total))))))),
      h('ol', {class: 'ranking'}, res.ranking.map((r: any, i: any) => h('li', {}, `${r.rank}. ${r.name}, ${r.total}`,
        r.decided_by && i > 0 ? ` (${r.decided_by_label || (r.decided_by === 'shared' ? t('app.score.shares', {above: res.ranking[i - 1].name}) : game.decided(r, res.ranking[i - 1].name))})` : ''))),
      res.findings.length ? h('ul', {class: 'findings'}, res.findings.map((f: any) => {
        // Lead with who and which line, unless the reason starts with them.
        const who = names[f.player] ?? t('app.sheet.the-table');
        const lead = [f.reason.startsWith(who) ? '' : who, f.line || ''].filter(Boolean).join(', ');
        return h('li', {}, lead ? h('strong', {}, lead + ': ') : null, f.reason);
      })) : null,
      res.valid && body ? keep(body) : null));
    const heading = result.querySelector('h2')!;
    heading.setAttribute('tabindex', '-1');
    heading.focus();
  }

  replace(root, h('p', {class: 'crumbs'}, h('a', {href: '#/'}, 'Treasury')), h('h1', {}, t('app.sheet.title')), intro, form, problem, result);
  if (rs) await choose(rs.name);
}
