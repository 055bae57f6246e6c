// The score-sheet check: choose the game, enter what each player wrote on
// paper, and the server scores every line, ranks the players and lists the
// mistakes. Nothing is stored. Each game's part is its screen's sheet
// (a SheetForm, src/screen.ts): what its paper tally holds (fields), how it
// becomes the sheet the API takes (sheet), and which lines its answer has
// (columns).
import type {Bag, Schemas, SheetForm, SheetKit, Typed} from './screen';
import {screens} from './games.gen';
import {h, type Child, replace, call, randomKey, errorOf, onThisRoute} from './lib';
import {knownGroups, groupLink} from './group';
import {t, term, tlist} from './i18n';
import {number, nums, ticked, text} from './fields';


// input is a labelled text field bound to o[key].
function input(o: Typed, id: string, key: string, label: string, hint?: string | null, attrs: Record<string, unknown> = {}) {
  return h('div', {class: 'field'}, h('label', {for: id}, label), hint ? h('span', {class: 'hint', id: id + '-hint'}, hint) : null,
    h('input', {id, 'data-k': id, value: o[key] ?? '', 'aria-describedby': hint ? id + '-hint' : null, oninput: (e: Event) => { o[key] = (e.target as HTMLInputElement).value; }, ...attrs}));
}

// check is a labelled checkbox bound to the membership of value in o[key].
function check(o: Typed, id: string, key: string, value: string, label: unknown, cls?: string) {
  const list = ticked(o, key);
  o[key] = list;
  return h('label', {class: 'chip' + (cls ? ' ' + cls : ''), for: id},
    h('input', {type: 'checkbox', id, 'data-k': id, checked: list.includes(value), onchange: (e: Event) => {
      const on = (e.target as HTMLInputElement).checked;
      const at = list.indexOf(value);
      if (on && at < 0) list.push(value);
      if (!on && at >= 0) list.splice(at, 1);
    }}), ' ', label as Child);
}

// Ruleset is a game this page can check a sheet of.
type Ruleset = Schemas['RulesetInfo'];
// SheetAnswer is what every game's answer to a sheet has (SheetResult is
// the games' schemas; the page reads the parts they share, the game's form
// its own lines).
type SheetAnswer = {
  ruleset: string;
  valid: boolean;
  players: ({name: string; total: number} & Record<string, unknown>)[];
  ranking: ({rank: number; name: string; total: number; decided_by?: string; decided_by_label?: string} & Record<string, unknown>)[];
  findings: {player?: number | null; line?: string; reason: string}[];
};

const total = (i: number, p: Typed) => input(p, `p${i}-total`, 'total', t('app.sheet.total-written'), null, {inputmode: 'numeric'});

// kit is what a game's part of the form is lent.
const kit: SheetKit = {t, tlist, term, input, check, number, nums, ticked};

const GAMES: Record<string, SheetForm> = Object.fromEntries(screens.flatMap((s) => (s.sheet ? [[s.ruleset, s.sheet]] : [])));


// sheetPage draws the check; asked names the game to start with (#/sheet/<ruleset>).
export async function sheetPage(root: HTMLElement, asked: string | undefined) {
  document.title = t('app.sheet.doc-title');
  const shown = onThisRoute();
  const result = h('div', {'aria-live': 'polite'});
  const problem = h('div', {role: 'alert', class: 'problem'});
  let rulesets: Ruleset[] = [];
  try {
    rulesets = (await call<Schemas['RulesetList']>('GET', '/v1/rulesets')).rulesets.filter((r) => r.score_sheets && GAMES[r.name]);
  } catch (caught) {
    const e = errorOf(caught);
    problem.textContent = e.message;
  }
  if (!shown()) return; // another screen was opened meanwhile
  let rs: Ruleset | undefined = rulesets.find((r) => r.name === asked) || rulesets.find((r) => r.name === 'silver-and-gold') || rulesets[0];
  // What is typed per player (name, total, the game's fields) and for the table.
  let players: Typed[] = [{}, {}];
  let table: Typed = {};
  let data: Bag = {};
  const intro = h('p', {});
  const list = h('div');

  async function choose(name: string) {
    rs = rulesets.find((r) => r.name === name);
    if (!rs) return;
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
    if (!rs) return;
    const game = GAMES[rs.name];
    intro.textContent = t('app.sheet.intro', {game: game.intro(kit)});
    // A long sheet is folded per player: the first open, the others
    // folded and summed up in their headings (a player added opens).
    const panel = (p: Typed, i: number) => h('fieldset', {class: 'card-panel'}, h('legend', {}, t('app.new.player', {n: i + 1})),
      input(p, `p${i}-name`, 'name', t('app.sheet.name'), null, {autocomplete: 'off', maxlength: 32}),
      game.fields(i, p, data, table, kit),
      total(i, p),
      players.length > game.least ? h('button', {type: 'button', 'data-k': `remove-${i}`, onclick: () => { players.splice(i, 1); draw(); }}, t('app.sheet.remove', {n: i + 1})) : null);
    replace(list, game.table ? game.table(table, draw, kit) : null, players.map((p, i) => {
      if (!game.fold) return panel(p, i);
      if (p.open === undefined) p.open = i === 0;
      return h('details', {class: 'player-fold', id: `p${i}-fold`, open: p.open, ontoggle: (e: Event) => { p.open = (e.target as HTMLDetailsElement).open; }},
        h('summary', {'data-k': `p${i}-fold`}, text(p.name).trim() ? t('app.sheet.player-named', {n: i + 1, name: text(p.name).trim()}) : t('app.new.player', {n: i + 1}), h('span', {class: 'muted'}, ` · ${game.summary!(p, kit)}`)),
        panel(p, i));
    }));
  }

  const picker = h('div', {class: 'field'}, h('label', {for: 'sheet-ruleset'}, t('app.new.game')),
    h('select', {id: 'sheet-ruleset', 'data-k': 'sheet-ruleset', onchange: (e: Event) => choose((e.target as HTMLSelectElement).value)},
      rulesets.map((r) => h('option', {value: r.name, selected: rs && r.name === rs.name}, r.title || r.name))));

  const form = h('form', {novalidate: true, onsubmit: async (e: Event) => {
    e.preventDefault();
    problem.textContent = '';
    if (!rs) return;
    const game = GAMES[rs.name];
        try {
      const body: Record<string, unknown> = {ruleset: rs.name, ...(game.sheet ? game.sheet(table, kit) : {}), players: players.map((p, i) => {
        const name = text(p.name).trim() || t('app.new.player', {n: i + 1});
        const out = {name, ...game.player(p, table, name, kit)} as Record<string, unknown>;
        const written = number(p.total, t('app.sheet.who-total', {who: name}));
        if (written !== undefined) out.total = written;
        return out;
      })};
      show(await call<SheetAnswer>('POST', `/v1/score-sheets/verify?ruleset=${encodeURIComponent(rs.name)}`, {body}), body);
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
  function keep(body: Record<string, unknown>) {
    const groups = knownGroups();
    if (!groups.length) return h('p', {class: 'muted'}, t('app.sheet.group-before'), h('a', {href: '#/group'}, t('app.sheet.group-link')), t('app.sheet.group-after'));
    const key = randomKey();
    const out = h('div', {role: 'status'});
    const sel = h('select', {id: 'keep-group', 'data-k': 'keep-group'}, groups.map((g) => h('option', {value: g.id}, g.name)));
    return h('div', {class: 'buttons', 'data-testid': 'keep-sheet'}, h('label', {for: 'keep-group'}, t('app.sheet.group')), sel,
      h('button', {type: 'button', class: 'primary', 'data-action': 'keep-sheet', onclick: async () => {
        const g = groups.find((x) => x.id === sel.value);
        out.textContent = '';
        if (!g) return;
        try {
          await call('POST', `/v1/groups/${encodeURIComponent(g.id)}/plays`, {cred: g.cred, body: {sheet: body}, idempotent: key});
          replace(out, t('app.sheet.saved-before'), h('a', {href: groupLink(g.id, g.cred)}, g.name), t('app.sheet.saved-after'));
        } catch (caught) {
          const err = errorOf(caught);
          out.textContent = err.message;
        }
      }}, t('app.sheet.save')), out);
  }

  function show(res: SheetAnswer, body: Record<string, unknown> | null) {
    const game = GAMES[res.ruleset] || (rs && GAMES[rs.name]);
    if (!game) return;
    const names = res.players.map((p) => p.name);
    replace(result, h('section', {'aria-labelledby': 'res-h', 'data-testid': 'sheet-result'},
      h('h2', {id: 'res-h'}, res.valid ? t('app.sheet.right') : t('app.sheet.mistakes', {count: res.findings.length})),
      h('div', {class: 'table-scroll', tabindex: '0', role: 'region', 'aria-labelledby': 'res-h'},
        h('table', {}, h('thead', {}, h('tr', {}, ['app.sg.col.player', ...game.columns.map((c) => c[0]), 'app.sg.col.total'].map((k) => h('th', {scope: 'col'}, t(k))))),
          h('tbody', {}, res.players.map((p) => h('tr', {}, h('th', {scope: 'row'}, p.name),
            game.columns.map((c) => h('td', {}, c[1](p, kit))), h('td', {}, h('strong', {}, p.total))))))),
      h('ol', {class: 'ranking'}, res.ranking.map((r, i) => h('li', {}, `${r.rank}. ${r.name}, ${r.total}`,
        r.decided_by && i > 0 ? ` (${r.decided_by_label || (r.decided_by === 'shared' ? t('app.score.shares', {above: res.ranking[i - 1].name}) : game.decided(r, res.ranking[i - 1].name, kit))})` : ''))),
      res.findings.length ? h('ul', {class: 'findings'}, res.findings.map((f) => {
        // Lead with who and which line, unless the reason starts with them.
        const who = (typeof f.player === 'number' ? names[f.player] : undefined) ?? t('app.sheet.the-table');
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
