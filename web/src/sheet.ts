// The score-sheet check: choose the game, enter what each player wrote on
// paper, and the server scores every line, ranks the players and lists the
// mistakes. Nothing is stored. Each game's part is its screen's sheet
// (a SheetForm, src/screen.ts): what its paper tally holds (fields), how it
// becomes the sheet the API takes (sheet), and which lines its answer has
// (columns).
import type {SheetForm, SheetKit} from './screen';
import {screens} from './games.gen';
import {h, replace, call, randomKey, errorOf, onThisRoute} from './lib';
import {knownGroups, groupLink} from './group';
import {t, term, tlist} from './i18n';


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

// kit is what a game's part of the form is lent.
const kit: SheetKit = {t, tlist, term, input, check, number, nums};

const GAMES: Record<string, SheetForm> = Object.fromEntries(screens.flatMap((s) => (s.sheet ? [[s.ruleset, s.sheet]] : [])));


// sheetPage draws the check; asked names the game to start with (#/sheet/<ruleset>).
export async function sheetPage(root: any, asked: any) {
  document.title = t('app.sheet.doc-title');
  const shown = onThisRoute();
  const result = h('div', {'aria-live': 'polite'});
  const problem = h('div', {role: 'alert', class: 'problem'});
  let rulesets: any = [];
  try {
    rulesets = (await call('GET', '/v1/rulesets')).rulesets.filter((r: any) => r.score_sheets && GAMES[r.name]);
  } catch (caught) {
    const e = errorOf(caught);
    problem.textContent = e.message;
  }
  if (!shown()) return; // another screen was opened meanwhile
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
    intro.textContent = t('app.sheet.intro', {game: game.intro(kit)});
    // A long sheet is folded per player: the first open, the others
    // folded and summed up in their headings (a player added opens).
    const panel = (p: any, i: any) => h('fieldset', {class: 'card-panel'}, h('legend', {}, t('app.new.player', {n: i + 1})),
      input(p, `p${i}-name`, 'name', t('app.sheet.name'), null, {autocomplete: 'off', maxlength: 32}),
      game.fields(i, p, data, table, kit),
      total(i, p),
      players.length > game.least ? h('button', {type: 'button', 'data-k': `remove-${i}`, onclick: () => { players.splice(i, 1); draw(); }}, t('app.sheet.remove', {n: i + 1})) : null);
    replace(list, game.table ? game.table(table, draw, kit) : null, players.map((p, i) => {
      if (!game.fold) return panel(p, i);
      if (p.open === undefined) p.open = i === 0;
      return h('details', {class: 'player-fold', id: `p${i}-fold`, open: p.open, ontoggle: (e: any) => { p.open = e.target.open; }},
        h('summary', {'data-k': `p${i}-fold`}, (p.name || '').trim() ? t('app.sheet.player-named', {n: i + 1, name: p.name.trim()}) : t('app.new.player', {n: i + 1}), h('span', {class: 'muted'}, ` · ${game.summary!(p, kit)}`)),
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
        try {
      const body = {ruleset: rs.name, ...(game.sheet ? game.sheet(table, kit) : {}), players: players.map((p, i) => {
        const name = (p.name || '').trim() || t('app.new.player', {n: i + 1});
        const out = {name, ...game.player(p, table, name, kit)} as Record<string, unknown>;
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
        h('table', {}, h('thead', {}, h('tr', {}, ['app.sg.col.player', ...game.columns.map((c) => c[0]), 'app.sg.col.total'].map((k) => h('th', {scope: 'col'}, t(k))))),
          h('tbody', {}, res.players.map((p: any) => h('tr', {}, h('th', {scope: 'row'}, p.name),
            game.columns.map((c) => h('td', {}, c[1](p, kit))), h('td', {}, h('strong', {}, p.total))))))),
      h('ol', {class: 'ranking'}, res.ranking.map((r: any, i: any) => h('li', {}, `${r.rank}. ${r.name}, ${r.total}`,
        r.decided_by && i > 0 ? ` (${r.decided_by_label || (r.decided_by === 'shared' ? t('app.score.shares', {above: res.ranking[i - 1].name}) : game.decided(r, res.ranking[i - 1].name, kit))})` : ''))),
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
