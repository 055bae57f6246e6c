// The score-sheet check: enter what each player wrote on paper, and the
// server scores every line and lists the mistakes. Nothing is stored.
import {h, replace, call} from './lib.js';

const nums = (s) => s.split(/[\s,;]+/).filter(Boolean).map(Number);

export async function sheetPage(root) {
  document.title = 'Treasury: check a score sheet';
  const result = h('div', {'aria-live': 'polite'});
  const problem = h('div', {role: 'alert', class: 'problem'});
  let rulesets = [];
  try {
    rulesets = (await call('GET', '/v1/rulesets')).rulesets.filter((r) => r.score_sheets);
  } catch (e) {
    problem.textContent = e.message;
  }
  const rs = rulesets.find((r) => r.name === 'silver-and-gold') || rulesets[0];
  let ids = [];
  if (rs) {
    try {
      ids = (await call('GET', `/v1/catalogs/standard?ruleset=${encodeURIComponent(rs.name)}`)).cards.map((c) => c.id);
    } catch (e) {
      problem.textContent = e.message;
    }
  }
  const players = [{}, {}];
  const list = h('div');

  function field(i, key, label, hint, attrs = {}) {
    const id = `p${i}-${key}`;
    return h('div', {class: 'field'}, h('label', {for: id}, label), hint ? h('span', {class: 'hint', id: id + '-hint'}, hint) : null,
      h('input', {id, 'data-k': id, value: players[i][key] || '', 'aria-describedby': hint ? id + '-hint' : null, oninput: (e) => { players[i][key] = e.target.value; }, ...attrs}));
  }

  function draw() {
    replace(list, players.map((p, i) => h('fieldset', {class: 'card-panel'}, h('legend', {}, `Player ${i + 1}`),
      field(i, 'name', 'Name', null, {autocomplete: 'off', maxlength: 32}),
      h('div', {class: 'field'}, h('label', {for: `p${i}-cards`}, 'Completed cards'), h('span', {class: 'hint', id: `p${i}-cards-hint`}, 'Select every card in the scoring pile (Ctrl or long press for several).'),
        h('select', {id: `p${i}-cards`, multiple: true, size: 6, 'aria-describedby': `p${i}-cards-hint`, onchange: (e) => { p.cards = Array.from(e.target.selectedOptions, (o) => o.value); }},
          ids.map((c) => h('option', {value: c, selected: (p.cards || []).includes(c)}, c)))),
      field(i, 'coins', 'Coins crossed', null, {inputmode: 'numeric'}),
      field(i, 'cups', 'Cups', 'Their values, separated by commas: 6, 2', {inputmode: 'numeric'}),
      field(i, 'palms', 'Palm boxes', 'The values written, separated by commas: 2, 3, 3', {inputmode: 'numeric'}),
      field(i, 'total', 'Total written (optional)', null, {inputmode: 'numeric'}),
      players.length > 1 ? h('button', {type: 'button', onclick: () => { players.splice(i, 1); draw(); }}, `Remove player ${i + 1}`) : null)));
  }

  const form = h('form', {novalidate: true, onsubmit: async (e) => {
    e.preventDefault();
    problem.textContent = '';
    players.forEach((p, i) => {
      const sel = list.querySelector(`#p${i}-cards`);
      if (sel) p.cards = Array.from(sel.selectedOptions, (o) => o.value);
    });
    const body = {ruleset: rs ? rs.name : 'silver-and-gold', players: players.map((p, i) => {
      const out = {name: (p.name || '').trim() || `Player ${i + 1}`, cards: (p.cards || []).map((id) => ({id})), coins: Number(p.coins || 0), cups: nums(p.cups || ''), palms: nums(p.palms || '')};
      if ((p.total || '').trim()) out.total = Number(p.total);
      return out;
    })};
    try {
      show(await call('POST', '/v1/score-sheets/verify', {body}));
    } catch (err) {
      problem.textContent = err.message;
      replace(result);
    }
  }}, list,
  h('div', {class: 'buttons'},
    h('button', {type: 'button', onclick: () => { if (players.length < (rs ? rs.max_players : 4)) { players.push({}); draw(); } }}, 'Add a player'),
    h('button', {type: 'submit', class: 'primary', 'data-action': 'check'}, 'Check the sheet')));

  function show(res) {
    const names = res.players.map((p) => p.name);
    replace(result, h('section', {'aria-labelledby': 'res-h', 'data-testid': 'sheet-result'},
      h('h2', {id: 'res-h'}, res.valid ? 'The sheet is right' : `The sheet has ${res.findings.length} mistake${res.findings.length === 1 ? '' : 's'}`),
      h('table', {}, h('thead', {}, h('tr', {}, ['Player', 'Coins', 'Cups', 'Palms', 'Cards', 'Seals', 'Total'].map((t) => h('th', {scope: 'col'}, t)))),
        h('tbody', {}, res.players.map((p) => h('tr', {}, h('th', {scope: 'row'}, p.name),
          ['coins', 'cups', 'palms', 'cards', 'seals'].map((l) => h('td', {}, p.lines[l])), h('td', {}, h('strong', {}, p.total)))))),
      h('ol', {class: 'ranking'}, res.ranking.map((r, i) => h('li', {}, `${r.rank}. ${r.name}, ${r.total}`,
        r.decided_by && i > 0 ? ` (${r.decided_by === 'total' ? 'fewer points than' : r.decided_by === 'shared' ? 'shares the place with' : `fewer completed ${r.decided_by} cards than`} ${res.ranking[i - 1].name})` : ''))),
      res.findings.length ? h('ul', {class: 'findings'}, res.findings.map((f) => h('li', {}, h('strong', {}, `${names[f.player] ?? 'Sheet'}, ${f.line}: `), f.reason))) : null));
    result.querySelector('h2').setAttribute('tabindex', '-1');
    result.querySelector('h2').focus();
  }

  draw();
  replace(root, h('p', {class: 'crumbs'}, h('a', {href: '#/'}, 'Treasury')), h('h1', {}, 'Check a score sheet'),
    h('p', {}, 'After a game of Silver & Gold played on paper, enter what each player wrote. The server scores every line, ranks the players and lists every mistake. Nothing is stored.'),
    form, problem, result);
}
