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
// The style sheet first: each game's screen imports its own rules, bundled after it.
import './style.css';
import {h, replace, call, callAgain, keyPerBody, playerNames, tables, remember, forget, gameLink, type TableEntry, errorOf, nextRoute, onThisRoute} from './lib';
import {t, init, lang, languages, setLanguage, onLanguage, translateStatic} from './i18n';
import {openGame, hasScreen, type Closer} from './game';
import {sheetPage} from './sheet';
import {joinPage} from './seating';
import {optionLabel, choiceLabel, optionWhen, showApplicable} from './options';
import {installShell} from './phone';
//   #/group[/<id>/<cred>]       groups: members, plays, statistics (group.js)
import {groupsPage, groupPage} from './group';
import type {components} from './api.gen';
import type {Game} from './screen';

type RulesetInfo = components['schemas']['RulesetInfo'];
type RulesetOption = components['schemas']['RulesetOption'];

const main = document.getElementById('main')!;
let closeScreen: Closer | null = null;

function route() {
  if (closeScreen) closeScreen();
  closeScreen = null;
  nextRoute();
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

// langSwitch is the EN | DE switch at the top of every screen.
function langSwitch() {
  const bar = h('header', {class: 'lang-switch'}, h('div', {role: 'group', 'aria-label': t('app.lang.switch')},
    languages().map((l) => h('button', {type: 'button', class: 'link', lang: l.tag, 'data-lang': l.tag, 'aria-pressed': l.tag === lang() ? 'true' : 'false',
      title: l.name, onclick: () => setLanguage(l.tag).catch(() => {})}, l.tag.toUpperCase()))));
  const old = document.querySelector('header.lang-switch');
  if (old) old.replaceWith(bar);
  else document.body.prepend(bar);
}

// A new language redraws the switch and the screen: a game's screen reads
// the game again (the server words its labels in the new language), any
// other screen is drawn afresh.
onLanguage(() => {
  langSwitch();
  translateStatic(document);
  if (closeScreen && closeScreen.relanguage) closeScreen.relanguage();
  else route();
});

init().then(() => {
  langSwitch();
  translateStatic(document);
  window.addEventListener('hashchange', route);
  route();
  installShell();
});

async function homePage(root: HTMLElement) {
  document.title = t('app.home.title');
  const shown = onThisRoute();
  const status = h('p', {role: 'status', class: 'muted'}, t('app.home.loading'));
  replace(root, h('h1', {}, 'Treasury'), h('p', {}, t('app.home.intro')), status, joinLink(), yourTables([]));
  let list: RulesetInfo[];
  try {
    list = (await call<components['schemas']['RulesetList']>('GET', '/v1/rulesets')).rulesets;
  } catch (caught) {
    const e = errorOf(caught);
    status.textContent = e.message;
    return;
  }
  if (!shown()) return; // another screen was opened meanwhile
  replace(root, h('h1', {}, 'Treasury'), joinLink(), newTableForm(list), yourTables(list),
    h('section', {'aria-labelledby': 'sheet-h'}, h('h2', {id: 'sheet-h'}, t('app.home.paper')),
      h('p', {}, h('a', {href: '#/sheet'}, t('app.home.sheet-link')), t('app.home.sheet-rest'))),
    h('section', {'aria-labelledby': 'groups-h'}, h('h2', {id: 'groups-h'}, t('app.home.often')),
      h('p', {}, h('a', {href: '#/group'}, t('app.home.groups-link')), t('app.home.groups-rest'))));
  // When the first screen can be used (measured by TestWebAppFast).
  if (!performance.getEntriesByName('treasury-interactive').length) performance.mark('treasury-interactive');
}

function joinLink() {
  return h('p', {class: 'join-link'}, t('app.home.join-before'), h('a', {href: '#/join', 'data-k': 'join'}, t('app.home.join-link')), t('app.home.join-after'));
}

// yourTables lists the tables this device holds a credential of, by game
// and player names, and says which have ended (read from the public view of
// each: no credential is sent).
function yourTables(rulesets: RulesetInfo[]) {
  const list = tables();
  if (!list.length) return null;
  const title = (x: TableEntry) => x.title || rulesets.find((r) => r.name === x.ruleset)?.title || t('app.home.a-game');
  const who = (x: TableEntry) => x.role === 'host' ? (x.names && x.names.length ? t('app.home.host-of', {names: x.names.join(', ')}) : t('app.home.host')) :
    x.name ? t('app.home.playing-as', {name: x.name}) : t('app.home.playing-a-seat');
  const items = list.map((x) => {
    const state = h('span', {class: 'muted', 'data-table-state': ''}, '');
    const link = h('a', {href: gameLink(x.id, x.role, x.cred).replace(location.origin + '/', '')}, `${title(x)}: ${who(x)}`);
    (async () => {
      try {
        const g = await call<Game>('GET', `/v1/games/${encodeURIComponent(x.id)}`);
        const names = playerNames(g);
        if (x.role === 'host' && names.length && !(x.names && x.names.length)) link.textContent = `${title(x)}: ${who({...x, names})}`;
        state.textContent = g.ended ? t('app.home.state-ended') : t('app.home.state-playing');
        state.dataset.tableState = g.ended ? 'ended' : 'playing';
      } catch (caught) {
        const e = errorOf(caught);
        state.textContent = e.status === 404 ? t('app.home.state-gone') : '';
        if (e.status === 404) state.dataset.tableState = 'gone';
      }
    })();
    return h('li', {},
      link, state, h('span', {class: 'muted'}, ` (${new Date(x.at).toLocaleString(lang())})`),
      ' ', h('button', {type: 'button', class: 'link', onclick: () => { forget(x.id); route(); }}, t('app.home.forget')));
  });
  return h('section', {'aria-labelledby': 'yours-h'}, h('h2', {id: 'yours-h'}, t('app.home.yours')), h('ul', {class: 'tables'}, items));
}

function newTableForm(all: RulesetInfo[]) {
  // The games this app has screens for first; the others can be set up here
  // and played through the API.
  const rulesets = [...all.filter((r) => hasScreen(r.name)), ...all.filter((r) => !hasScreen(r.name))];
  const form = h('form', {class: 'card-panel', novalidate: true});
  const keyOf = keyPerBody(); // a game started again after an error is the same game
  const problem = h('div', {role: 'alert', class: 'problem'});
  let rs = rulesets[0];
  let count = Math.max(2, rs.min_players);
  const names: string[] = [];
  const body = h('div');

  function draw() {
    const fields = [];
    fields.push(h('div', {class: 'field'}, h('label', {for: 'ruleset'}, t('app.new.game')),
      h('select', {id: 'ruleset', 'data-k': 'ruleset', onchange: (e: Event) => { rs = rulesets.find((r) => r.name === (e.target as HTMLSelectElement).value) || rs; count = Math.min(Math.max(count, rs.min_players), rs.max_players); draw(); }},
        rulesets.map((r) => h('option', {value: r.name, selected: r === rs}, hasScreen(r.name) ? r.title : t('app.new.no-screen', {title: r.title}))))));
    fields.push(h('p', {class: 'muted'}, rs.summary));
    fields.push(h('fieldset', {}, h('legend', {}, t('app.new.how')),
      rs.modes.map((m, i) => h('label', {class: 'choice'}, h('input', {type: 'radio', name: 'mode', value: m, checked: i === (rs.modes.includes('physical') ? rs.modes.indexOf('physical') : 0), 'data-k': 'mode-' + m}),
        ' ', m === 'physical' ? t('app.new.mode-physical') : m === 'digital' ? t('app.new.mode-digital') : m))));
    const sizes = [];
    for (let n = rs.min_players; n <= rs.max_players; n++) sizes.push(n);
    fields.push(h('div', {class: 'field'}, h('label', {for: 'count'}, t('app.new.players')),
      h('select', {id: 'count', 'data-k': 'count', onchange: (e: Event) => { count = Number((e.target as HTMLSelectElement).value); draw(); }}, sizes.map((n) => h('option', {value: n, selected: n === count}, String(n))))));
    for (let i = 0; i < count; i++) {
      fields.push(h('div', {class: 'field'}, h('label', {for: 'name-' + i}, t('app.new.name', {n: i + 1})),
        h('input', {id: 'name-' + i, name: 'name-' + i, 'data-k': 'name-' + i, required: true, maxlength: 32, autocomplete: 'off', value: names[i] || '', oninput: (e: Event) => { names[i] = (e.target as HTMLInputElement).value; nameSeats(form, i, names); }})));
    }
    for (const o of rs.options || []) fields.push(optionField(o, count, names));
    fields.push(h('button', {type: 'submit', class: 'primary', 'data-k': 'create'}, t('app.new.start')));
    replace(body, fields);
    // (body is in the form only after the first draw: look in it.)
    showApplicable(body);
  }

  form.addEventListener('change', () => showApplicable(form));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    problem.textContent = '';
    const players = [];
    for (let i = 0; i < count; i++) players.push({name: (names[i] || '').trim() || t('app.new.player', {n: i + 1})});
    const mode = form.querySelector<HTMLInputElement>('input[name=mode]:checked')?.value || rs.modes[0];
    const options: Record<string, unknown> = {};
    for (const o of rs.options || []) {
      const el = form.querySelector<HTMLInputElement>(`[name="opt-${CSS.escape(o.name)}"]`);
      if (!el) continue;
      options[o.name] = o.type === 'boolean' ? el.checked : o.type === 'integer' ? Number(el.value) : el.value;
    }
    const req: Record<string, unknown> = {ruleset: rs.name, mode, players};
    if ((rs.options || []).length) req.options = options;
    try {
      const created = await callAgain<components['schemas']['Created']>('POST', '/v1/games', {body: req, idempotent: keyOf(req)});
      const id = created.game.id;
      const seats = created.credentials.seats;
      remember({id, role: 'host', cred: created.credentials.host, ruleset: rs.name, title: rs.title, seats, names: players.map((p) => p.name)});
      location.hash = `#/game/${encodeURIComponent(id)}/host/${encodeURIComponent(created.credentials.host)}`;
    } catch (caught) {
      const err = errorOf(caught);
      problem.textContent = err.message;
      problem.focus?.();
    }
  });
  draw();
  form.append(h('h2', {id: 'new-h'}, t('app.new.title')), body, problem);
  form.setAttribute('aria-labelledby', 'new-h');
  return form;
}

// seatLabel is how a list of seats names seat i: its player's name as typed
// so far, or its place.
function seatLabel(i: number, names: string[]): string {
  return (names[i] || '').trim() || t('app.new.player', {n: i + 1});
}

// nameSeats renames seat i in the form's lists of seats (the start player)
// as its player's name is typed.
function nameSeats(form: HTMLElement, i: number, names: string[]): void {
  for (const o of form.querySelectorAll(`select[data-seats] option[value="${i}"]`)) o.textContent = seatLabel(i, names);
}

function optionField(o: RulesetOption, count: number, names: string[]): HTMLElement {
  const f = optionFieldOf(o, count, names);
  const when = optionWhen(o);
  if (when) f.dataset.when = when.join('=');
  return f;
}

function optionFieldOf(o: RulesetOption, count: number, names: string[]): HTMLElement {
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
