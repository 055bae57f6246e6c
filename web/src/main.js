// The table app: a start page that sets a table up, a screen per seat and
// one for the host (game.js, with one module per game under games/), and
// the score-sheet check. Routes live in the URL's fragment, which browsers
// never send to the server, so a credential in it ends up in no log:
//   #/                          start a table, or go back to one
//   #/game/<id>/host/<cred>     the host's screen (invites, reports)
//   #/game/<id>/seat/<cred>     a player's screen
//   #/game/<id>                 the public view of a game
//   #/game/<id>/tv              the same, large, for a screen on the table
//   #/sheet[/<ruleset>]         check a paper score sheet
//   #/join[/<code>]             join a table by its code, pick a free seat
import {h, replace, call, tables, remember, forget, gameLink} from './lib.js';
import {openGame, hasScreen} from './game.js';
import {sheetPage} from './sheet.js';
import {joinPage} from './seating.js';
import {optionLabel, choiceLabel, optionWhen, showApplicable} from './options.js';
import {installShell} from './phone.js';
//   #/group[/<id>/<cred>]       groups: members, plays, statistics (group.js)
import {groupsPage, groupPage} from './group.js';

const main = document.getElementById('main');
let closeScreen = null;

function route() {
  if (closeScreen) closeScreen();
  closeScreen = null;
  const parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  // #/game/<id>/tv: the public view drawn large, for a screen on the table.
  document.body.classList.toggle('tv', parts[0] === 'game' && parts[2] === 'tv');
  if (parts[0] === 'game' && parts[1]) {
    const role = parts[2] === 'host' || parts[2] === 'seat' ? parts[2] : 'public';
    const cred = role === 'public' ? '' : parts[3] || '';
    closeScreen = openGame(main, parts[1], role, cred);
  } else if (parts[0] === 'sheet') {
    sheetPage(main, parts[1]);
  } else if (parts[0] === 'join') {
    joinPage(main, parts[1] || '');
  } else if (parts[0] === 'group') {
    closeScreen = parts[1] && parts[2] ? groupPage(main, parts[1], parts[2]) : (groupsPage(main), null);
  } else {
    homePage(main);
  }
  main.focus({preventScroll: true});
  window.scrollTo(0, 0);
}

window.addEventListener('hashchange', route);
route();
installShell();

async function homePage(root) {
  document.title = 'Treasury: start a table';
  const status = h('p', {role: 'status', class: 'muted'}, 'Loading the games…');
  replace(root, h('h1', {}, 'Treasury'), h('p', {}, 'A game server for treasure-hunting card games: play with real cards on the table or entirely on your phones.'), status, joinLink(), yourTables([]));
  let list;
  try {
    list = (await call('GET', '/v1/rulesets')).rulesets;
  } catch (e) {
    status.textContent = e.message;
    return;
  }
  replace(root, h('h1', {}, 'Treasury'), joinLink(), newTableForm(list), yourTables(list),
    h('section', {'aria-labelledby': 'sheet-h'}, h('h2', {id: 'sheet-h'}, 'Played on paper?'),
      h('p', {}, h('a', {href: '#/sheet'}, 'Check a score sheet'), ': enter what each player wrote and see any mistakes.')),
    h('section', {'aria-labelledby': 'groups-h'}, h('h2', {id: 'groups-h'}, 'Play together often?'),
      h('p', {}, h('a', {href: '#/group'}, 'Your groups'), ': who played, who won, scores and statistics over time.')));
  // When the first screen can be used (measured by TestWebAppFast).
  if (!performance.getEntriesByName('treasury-interactive').length) performance.mark('treasury-interactive');
}

function joinLink() {
  return h('p', {class: 'join-link'}, 'Someone started a table? ', h('a', {href: '#/join', 'data-k': 'join'}, 'Join it with its code'), '.');
}

// yourTables lists the tables this device holds a credential of, by game
// and player names, and says which have ended (read from the public view of
// each: no credential is sent).
function yourTables(rulesets) {
  const list = tables();
  if (!list.length) return null;
  const title = (t) => t.title || (rulesets.find((r) => r.name === t.ruleset) || {}).title || 'A game';
  const who = (t) => t.role === 'host' ? `host${t.names && t.names.length ? ` of ${t.names.join(', ')}` : ''}` : `playing as ${t.name || 'a seat'}`;
  const items = list.map((t) => {
    const state = h('span', {class: 'muted', 'data-table-state': ''}, '');
    const link = h('a', {href: gameLink(t.id, t.role, t.cred).replace(location.origin + '/', '')}, `${title(t)}: ${who(t)}`);
    (async () => {
      try {
        const g = await call('GET', `/v1/games/${encodeURIComponent(t.id)}`);
        const names = (g.state && g.state.players || []).map((p) => p.name);
        if (t.role === 'host' && names.length && !(t.names && t.names.length)) link.textContent = `${title(t)}: ${who({...t, names})}`;
        state.textContent = g.ended ? ' · ended' : ' · in play';
        state.dataset.tableState = g.ended ? 'ended' : 'playing';
      } catch (e) {
        state.textContent = e.status === 404 ? ' · no longer on the server' : '';
        if (e.status === 404) state.dataset.tableState = 'gone';
      }
    })();
    return h('li', {},
      link, state, h('span', {class: 'muted'}, ` (${new Date(t.at).toLocaleString()})`),
      ' ', h('button', {type: 'button', class: 'link', onclick: () => { forget(t.id); route(); }}, 'Forget'));
  });
  return h('section', {'aria-labelledby': 'yours-h'}, h('h2', {id: 'yours-h'}, 'Your tables on this device'), h('ul', {class: 'tables'}, items));
}

function newTableForm(all) {
  // The games this app has screens for first; the others can be set up here
  // and played through the API.
  const rulesets = [...all.filter((r) => hasScreen(r.name)), ...all.filter((r) => !hasScreen(r.name))];
  const form = h('form', {class: 'card-panel', novalidate: true});
  const problem = h('div', {role: 'alert', class: 'problem'});
  let rs = rulesets[0];
  let count = Math.max(2, rs.min_players);
  const names = [];
  const body = h('div');

  function draw() {
    const fields = [];
    fields.push(h('div', {class: 'field'}, h('label', {for: 'ruleset'}, 'Game'),
      h('select', {id: 'ruleset', 'data-k': 'ruleset', onchange: (e) => { rs = rulesets.find((r) => r.name === e.target.value); count = Math.min(Math.max(count, rs.min_players), rs.max_players); draw(); }},
        rulesets.map((r) => h('option', {value: r.name, selected: r === rs}, hasScreen(r.name) ? r.title : `${r.title} (no screen in this app yet)`)))));
    fields.push(h('p', {class: 'muted'}, rs.summary));
    fields.push(h('fieldset', {}, h('legend', {}, 'How do you play?'),
      rs.modes.map((m, i) => h('label', {class: 'choice'}, h('input', {type: 'radio', name: 'mode', value: m, checked: i === (rs.modes.includes('physical') ? rs.modes.indexOf('physical') : 0), 'data-k': 'mode-' + m}),
        m === 'physical' ? ' With real cards: the app checks and scores, the host reports what the table turns up' : m === 'digital' ? ' On the phones: the server deals and shuffles' : ' ' + m))));
    const sizes = [];
    for (let n = rs.min_players; n <= rs.max_players; n++) sizes.push(n);
    fields.push(h('div', {class: 'field'}, h('label', {for: 'count'}, 'Players'),
      h('select', {id: 'count', 'data-k': 'count', onchange: (e) => { count = Number(e.target.value); draw(); }}, sizes.map((n) => h('option', {value: n, selected: n === count}, String(n))))));
    for (let i = 0; i < count; i++) {
      fields.push(h('div', {class: 'field'}, h('label', {for: 'name-' + i}, `Player ${i + 1}'s name`),
        h('input', {id: 'name-' + i, name: 'name-' + i, 'data-k': 'name-' + i, required: true, maxlength: 32, autocomplete: 'off', value: names[i] || '', oninput: (e) => { names[i] = e.target.value; nameSeats(form, i, names); }})));
    }
    for (const o of rs.options || []) fields.push(optionField(o, count, names));
    fields.push(h('button', {type: 'submit', class: 'primary', 'data-k': 'create'}, 'Start the table'));
    replace(body, fields);
    showApplicable(form);
  }

  form.addEventListener('change', () => showApplicable(form));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    problem.textContent = '';
    const players = [];
    for (let i = 0; i < count; i++) players.push({name: (names[i] || '').trim() || `Player ${i + 1}`});
    const mode = form.querySelector('input[name=mode]:checked')?.value || rs.modes[0];
    const options = {};
    for (const o of rs.options || []) {
      const el = form.querySelector(`[name="opt-${CSS.escape(o.name)}"]`);
      if (!el) continue;
      options[o.name] = o.type === 'boolean' ? el.checked : o.type === 'integer' ? Number(el.value) : el.value;
    }
    const req = {ruleset: rs.name, mode, players};
    if ((rs.options || []).length) req.options = options;
    try {
      const created = await call('POST', '/v1/games', {body: req});
      const id = created.game.id;
      const seats = created.credentials.seats;
      remember({id, role: 'host', cred: created.credentials.host, ruleset: rs.name, title: rs.title, seats, names: players.map((p) => p.name)});
      location.hash = `#/game/${encodeURIComponent(id)}/host/${encodeURIComponent(created.credentials.host)}`;
    } catch (err) {
      problem.textContent = err.message;
      problem.focus?.();
    }
  });
  draw();
  form.append(h('h2', {id: 'new-h'}, 'Start a table'), body, problem);
  form.setAttribute('aria-labelledby', 'new-h');
  return form;
}

// seatLabel is how a list of seats names seat i: its player's name as typed
// so far, or its place.
function seatLabel(i, names) {
  return (names[i] || '').trim() || `Player ${i + 1}`;
}

// nameSeats renames seat i in the form's lists of seats (the start player)
// as its player's name is typed.
function nameSeats(form, i, names) {
  for (const o of form.querySelectorAll(`select[data-seats] option[value="${i}"]`)) o.textContent = seatLabel(i, names);
}

function optionField(o, count, names) {
  const f = optionFieldOf(o, count, names);
  const when = optionWhen(o);
  if (when) f.dataset.when = when.join('=');
  return f;
}

function optionFieldOf(o, count, names) {
  const id = 'opt-' + o.name;
  const label = h('label', {for: id}, optionLabel(o));
  if (o.type === 'integer' && o.seat) {
    const seats = [];
    for (let i = 0; i < count; i++) seats.push(h('option', {value: i, selected: i === o.default}, seatLabel(i, names)));
    return h('div', {class: 'field'}, label, h('select', {id, name: id, 'data-seats': true}, seats));
  }
  if (o.type === 'boolean') {
    return h('div', {class: 'field'}, h('label', {class: 'choice'}, h('input', {type: 'checkbox', id, name: id, checked: !!o.default}), ' ', optionLabel(o)));
  }
  if (o.enum) {
    return h('div', {class: 'field'}, label, h('select', {id, name: id}, o.enum.map((v) => h('option', {value: v, selected: v === o.default}, choiceLabel(o, v)))));
  }
  if (o.type === 'integer') {
    return h('div', {class: 'field'}, label, h('input', {id, name: id, type: 'number', min: o.minimum, max: o.maximum, value: o.default}));
  }
  return h('div', {class: 'field'}, label, h('input', {id, name: id, value: o.default ?? ''}));
}
