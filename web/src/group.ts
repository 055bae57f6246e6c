// The group screen: the people who play together, their latest plays and
// their statistics, kept by the server. A group is held by its credential,
// which lives in the URL's fragment and in this device's list of groups:
//   #/group                     create a group, or open one of this device's
//   #/group/<id>/<cred>         the group's screen
import {h, replace, call, callAgain, keyPerBody, remember, errorOf} from './lib';
import {t, term, lang} from './i18n';
import type {Schemas} from './screen';

// A game's score lines by their API names (coins, gems, …).
const LINE = 'app.group.line.';

const GROUPS = 'treasury.groups';

// knownGroups lists the groups this device holds, newest first.
// KnownGroup is a group this device holds the credential of.
export type KnownGroup = {id: string; name: string; cred: string};

export function knownGroups(): KnownGroup[] {
  try {
    const list = JSON.parse(localStorage.getItem(GROUPS) || '[]');
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function keepGroup(entry: KnownGroup) {
  const list = knownGroups().filter((g) => g.id !== entry.id);
  list.unshift(entry);
  try {
    localStorage.setItem(GROUPS, JSON.stringify(list.slice(0, 20)));
  } catch {
    // Private mode: the fragment still holds the credential.
  }
}

// groupLink is the address of a group's screen, the credential in the fragment.
export const groupLink = (id: string, cred: string) => `#/group/${encodeURIComponent(id)}/${encodeURIComponent(cred)}`;

const pct = (x: number) => `${Math.round(x * 100)}%`;

// groupsPage creates a group, or opens one this device holds.
export function groupsPage(root: HTMLElement) {
  document.title = t('app.group.doc-title-groups');
  const problem = h('div', {role: 'alert', class: 'problem'});
  const name = h('input', {id: 'group-name', 'data-k': 'group-name', maxlength: 32, autocomplete: 'off', required: true});
  const form = h('form', {class: 'card-panel', novalidate: true, onsubmit: async (e: Event) => {
    e.preventDefault();
    problem.textContent = '';
    try {
      const c = await call<Schemas['GroupCreated']>('POST', '/v1/groups', {body: {name: name.value.trim()}});
      keepGroup({id: c.group.id, name: c.group.name, cred: c.credential});
      location.hash = groupLink(c.group.id, c.credential);
    } catch (caught) {
      const err = errorOf(caught);
      problem.textContent = err.message;
    }
  }}, h('h2', {id: 'new-group-h'}, t('app.group.new')),
  h('p', {class: 'muted'}, t('app.group.new-how')),
  h('div', {class: 'field'}, h('label', {for: 'group-name'}, t('app.group.name')), name),
  h('button', {type: 'submit', class: 'primary', 'data-k': 'create-group'}, t('app.group.create')), problem);
  const list = knownGroups();
  replace(root, h('p', {class: 'crumbs'}, h('a', {href: '#/'}, 'Treasury')), h('h1', {}, t('app.group.groups')),
    list.length ? h('section', {'aria-labelledby': 'known-h'}, h('h2', {id: 'known-h'}, t('app.group.yours')),
      h('ul', {}, list.map((g) => h('li', {}, h('a', {href: groupLink(g.id, g.cred)}, g.name))))) : null,
    form);
}

// bars draws one horizontal bar per row: a small inline SVG chart a person
// takes in at a glance (wins per member, plays per game).
function bars(label: string, rows: {label: string; value: number}[]) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  const w = 240;
  const rowH = 22;
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', `0 0 ${w + 140} ${rows.length * rowH}`);
  svg.setAttribute('width', String(w + 140));
  svg.setAttribute('height', String(rows.length * rowH));
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `${label}: ${rows.map((r) => `${r.label} ${r.value}`).join(', ')}`);
  svg.setAttribute('class', 'chart');
  rows.forEach((r, i) => {
    const tx = document.createElementNS(svg.namespaceURI, 'text');
    tx.setAttribute('x', '0');
    tx.setAttribute('y', String(i * rowH + 15));
    tx.textContent = r.label;
    const b = document.createElementNS(svg.namespaceURI, 'rect');
    b.setAttribute('x', '100');
    b.setAttribute('y', String(i * rowH + 4));
    b.setAttribute('height', '14');
    b.setAttribute('width', String(Math.max(1, (r.value / max) * w)));
    b.setAttribute('class', 'bar');
    const v = document.createElementNS(svg.namespaceURI, 'text');
    v.setAttribute('x', String(106 + (r.value / max) * w));
    v.setAttribute('y', String(i * rowH + 15));
    v.textContent = String(r.value);
    svg.append(tx, b, v);
  });
  return svg;
}

// spark draws a member's recent totals in a game as a line.
function spark(label: string, values: number[]) {
  const w = 120;
  const ht = 28;
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', `0 0 ${w} ${ht}`);
  svg.setAttribute('width', String(w));
  svg.setAttribute('height', String(ht));
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `${label}: ${values.join(', ')}`);
  svg.setAttribute('class', 'spark');
  if (values.length) {
    const lo = Math.min(...values);
    const hi = Math.max(lo + 1, ...values);
    const step = values.length > 1 ? w / (values.length - 1) : 0;
    const pts = values.map((v, i) => `${(i * step).toFixed(1)},${(ht - 3 - ((v - lo) / (hi - lo)) * (ht - 6)).toFixed(1)}`);
    const line = document.createElementNS(svg.namespaceURI, 'polyline');
    line.setAttribute('points', pts.join(' '));
    line.setAttribute('fill', 'none');
    line.setAttribute('class', 'spark-line');
    svg.append(line);
  }
  return svg;
}

// download fetches an export with the group's credential (a link cannot
// carry it) and hands it to the browser as a file.
async function download(path: string, cred: string, file: string) {
  const res = await fetch(path, {headers: {Authorization: 'Bearer ' + cred, 'Accept-Language': lang()}});
  if (!res.ok) throw new Error(t('app.error.status', {status: res.status}));
  const url = URL.createObjectURL(await res.blob());
  const a = h('a', {href: url, download: file});
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// groupPage is the group's screen: members, a game for the group, the
// latest plays and the statistics.
export function groupPage(root: HTMLElement, id: string, cred: string) {
  document.title = t('app.group.doc-title-group');
  const auth = {cred};
  const base = `/v1/groups/${encodeURIComponent(id)}`;
  const problem = h('div', {role: 'alert', class: 'problem'});
  const status = h('p', {role: 'status', class: 'muted'}, t('app.group.loading'));
  let closed = false;
  let rulesets: Schemas['RulesetInfo'][] = [];
  const pick: string[] = [];

  async function load() {
    const [group, page, stats, rs] = await Promise.all([call<Schemas['GroupView']>('GET', base, auth), call<Schemas['PlayPage']>('GET', base + '/plays?limit=10', auth),
      call<Schemas['GroupStats']>('GET', base + '/stats', auth), rulesets.length ? {rulesets} : call<Schemas['RulesetList']>('GET', '/v1/rulesets')]);
    rulesets = rs.rulesets;
    return {group, page, stats};
  }

  function draw({group, page, stats}: {group: Schemas['GroupView']; page: Schemas['PlayPage']; stats: Schemas['GroupStats']}) {
    if (closed) return;
    document.title = `Treasury: ${group.group.name}`;
    keepGroup({id, name: group.group.name, cred});
    const names: Record<string, string> = Object.fromEntries(group.members.map((m) => [m.id, m.name]));
    const title = (r: string) => rulesets.find((x) => x.name === r)?.title || r;

    const addName = h('input', {id: 'member-name', 'data-k': 'member-name', maxlength: 32, autocomplete: 'off'});
    const members = h('section', {'aria-labelledby': 'members-h'}, h('h2', {id: 'members-h'}, t('app.group.members')),
      group.members.length ? h('ul', {class: 'members', 'data-testid': 'members'}, group.members.map((m) => h('li', {}, m.name))) : h('p', {class: 'muted'}, t('app.group.no-members')),
      h('form', {class: 'buttons', novalidate: true, onsubmit: async (e: Event) => {
        e.preventDefault();
        problem.textContent = '';
        try {
          await call('POST', base + '/members', {cred, body: {name: addName.value.trim()}});
          refresh();
        } catch (caught) {
          const err = errorOf(caught);
          problem.textContent = err.message;
        }
      }}, h('label', {for: 'member-name'}, t('app.sheet.name')), addName, h('button', {type: 'submit', 'data-k': 'add-member'}, t('app.group.add-member'))));

    // A game for the group: its result is kept as a play when it ends.
    const playable = rulesets.filter((r) => r.modes && r.min_players);
    let rs = playable[0];
    const keyOf = keyPerBody(); // a game started again after an error is the same game
    const gameForm = h('form', {class: 'card-panel', novalidate: true, 'aria-labelledby': 'play-h', onsubmit: async (e: Event) => {
      e.preventDefault();
      problem.textContent = '';
      rs = playable.find((r) => r.name === gameForm.querySelector<HTMLSelectElement>('#group-ruleset')!.value) || rs;
      const seated = pick.filter((m) => names[m]);
      if (!rs) return;
      const mode = gameForm.querySelector<HTMLInputElement>('input[name=group-mode]:checked')?.value || rs.modes[0];
      try {
        const body = {ruleset: rs.name, mode, players: seated.map((m) => ({name: names[m]})), group: {id, members: seated}};
        const created = await callAgain<Schemas['Created']>('POST', '/v1/games', {cred, body, idempotent: keyOf(body)});
        remember({id: created.game.id, role: 'host', cred: created.credentials.host, ruleset: rs.name, title: rs.title,
          seats: created.credentials.seats, names: seated.map((m) => names[m]), group: id});
        location.hash = `#/game/${encodeURIComponent(created.game.id)}/host/${encodeURIComponent(created.credentials.host)}`;
      } catch (caught) {
        const err = errorOf(caught);
        problem.textContent = err.message;
      }
    }}, h('h2', {id: 'play-h'}, t('app.group.play')),
    h('div', {class: 'field'}, h('label', {for: 'group-ruleset'}, t('app.new.game')),
      h('select', {id: 'group-ruleset', 'data-k': 'group-ruleset'}, playable.map((r) => h('option', {value: r.name}, r.title)))),
    h('fieldset', {}, h('legend', {}, t('app.new.how')), ['physical', 'digital'].map((m, i) => h('label', {class: 'choice'},
      h('input', {type: 'radio', name: 'group-mode', value: m, checked: i === 0}), ' ', m === 'physical' ? t('app.group.mode-physical') : t('app.group.mode-digital')))),
    h('fieldset', {}, h('legend', {}, t('app.group.who-plays')),
      group.members.map((m) => h('label', {class: 'chip'}, h('input', {type: 'checkbox', 'data-k': 'seat-' + m.id, checked: pick.includes(m.id), onchange: (e: Event) => {
        const on = (e.target as HTMLInputElement).checked;
        const at = pick.indexOf(m.id);
        if (on && at < 0) pick.push(m.id);
        if (!on && at >= 0) pick.splice(at, 1);
      }}), ' ', m.name))),
    h('button', {type: 'submit', class: 'primary', 'data-k': 'start-group-game'}, t('app.new.start')));

    const plays = h('section', {'aria-labelledby': 'plays-h'}, h('h2', {id: 'plays-h'}, t('app.group.latest')),
      page.plays.length ? h('ul', {class: 'plays', 'data-testid': 'plays'}, page.plays.map((p) => h('li', {'data-play': p.id},
        h('strong', {}, title(p.ruleset)), ` ${new Date(p.played_at).toLocaleDateString(lang())}: `,
        [...p.players].sort((a, b) => a.rank - b.rank).map((pl) => (pl.winner ? t('app.group.won', {name: pl.name, score: pl.score}) : `${pl.name} ${pl.score}`)).join(', '),
        p.source === 'sheet' ? t('app.group.paper') : '', ' ',
        h('a', {href: p.bgstats_link, target: '_blank', rel: 'noopener'}, t('app.group.bgstats')), ' ',
        h('button', {type: 'button', class: 'link', 'data-k': 'delete-' + p.id, onclick: async () => {
          if (!confirm(t('app.group.delete-confirm'))) return;
          try {
            await call('DELETE', `${base}/plays/${encodeURIComponent(p.id)}`, auth);
            refresh();
          } catch (caught) {
            const err = errorOf(caught);
            problem.textContent = err.message;
          }
        }}, t('app.group.delete'))))) : h('p', {class: 'muted'}, t('app.group.no-plays')));

    const memberRows = stats.members.map((m) => h('tr', {'data-member': m.member}, h('th', {scope: 'row'}, m.name),
      h('td', {}, m.plays), h('td', {}, m.wins), h('td', {}, pct(m.win_rate)), h('td', {}, m.longest_win_streak.length), h('td', {}, m.current_win_streak.length)));
    const memberTable = h('div', {class: 'table-scroll', tabindex: '0', role: 'region', 'aria-labelledby': 'stats-h'},
      h('table', {'data-testid': 'member-stats'},
        h('thead', {}, h('tr', {}, ['app.group.col.member', 'app.group.col.plays', 'app.group.col.wins', 'app.group.col.win-rate', 'app.group.col.longest', 'app.group.col.current'].map((k) => h('th', {scope: 'col'}, t(k))))),
        h('tbody', {}, memberRows)));
    const gameSection = (g: Schemas['GameStats']) => {
      const head = [t('app.group.col.member'), t('app.group.col.plays'), t('app.group.col.wins'), t('app.group.col.average'), t('app.group.col.best'), t('app.group.col.margin'),
        ...g.lines.map((l) => t('app.group.col.average-line', {line: term(LINE, l)})), t('app.group.col.recent')];
      const rows = g.members.map((m) => h('tr', {'data-member': m.member}, h('th', {scope: 'row'}, m.name), h('td', {}, m.plays), h('td', {}, m.wins),
        h('td', {}, m.average_score), h('td', {}, m.best_score.value), h('td', {}, m.average_margin), m.lines.map((l) => h('td', {}, l.average)),
        h('td', {}, spark(t('app.group.recent-of', {name: m.name}), m.recent.map((f) => f.value)))));
      return h('section', {'aria-label': title(g.ruleset)}, h('h3', {}, t('app.group.game-plays', {game: title(g.ruleset), count: g.plays})),
        h('div', {class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': t('app.group.by-member', {game: title(g.ruleset)})},
          h('table', {'data-game': g.ruleset}, h('thead', {}, h('tr', {}, head.map((x) => h('th', {scope: 'col'}, x)))), h('tbody', {}, rows))));
    };
    const h2h = stats.head_to_head.filter((x) => x.member < x.opponent);
    const st = h('section', {'aria-labelledby': 'stats-h', 'data-testid': 'stats'}, h('h2', {id: 'stats-h'}, t('app.group.stats')),
      h('p', {}, t('app.group.plays', {count: stats.plays})),
      stats.members.some((m) => m.plays) ? bars(t('app.group.wins-per-member'), stats.members.map((m) => ({label: m.name, value: m.wins}))) : null,
      memberTable,
      stats.games.map(gameSection),
      h2h.length ? h('section', {'aria-labelledby': 'h2h-h'}, h('h3', {id: 'h2h-h'}, t('app.group.h2h')),
        h('ul', {}, h2h.map((x) => h('li', {},
          t('app.group.h2h-line', {member: names[x.member] || x.member, opponent: names[x.opponent] || x.opponent, wins: x.wins, losses: x.losses, ties: x.ties, plays: x.plays}))))) : null);

    const exports = h('section', {'aria-labelledby': 'export-h'}, h('h2', {id: 'export-h'}, t('app.group.export')),
      h('div', {class: 'buttons'},
        h('button', {type: 'button', 'data-k': 'export-bgstats', onclick: () => download(base + '/export/bgstats', cred, 'treasury.bgsplay').catch((e) => { problem.textContent = e.message; })}, t('app.group.bgstats-file')),
        h('button', {type: 'button', 'data-k': 'export-csv', onclick: () => download(base + '/export/csv', cred, 'treasury-plays.csv').catch((e) => { problem.textContent = e.message; })}, 'CSV'),
        h('button', {type: 'button', 'data-k': 'export-all', onclick: () => download(base + '/export', cred, 'treasury-group.json').catch((e) => { problem.textContent = e.message; })}, t('app.group.whole'))),
      h('p', {class: 'muted'}, t('app.group.other-device')));

    replace(root, h('p', {class: 'crumbs'}, h('a', {href: '#/'}, 'Treasury'), ' › ', h('a', {href: '#/group'}, t('app.group.groups'))),
      h('h1', {}, group.group.name), problem, members, gameForm, plays, st, exports);
  }

  async function refresh() {
    try {
      draw(await load());
    } catch (caught) {
      const e = errorOf(caught);
      if (closed) return;
      replace(root, h('p', {class: 'crumbs'}, h('a', {href: '#/group'}, t('app.group.groups'))), h('h1', {}, t('app.group.group')),
        h('p', {}, e.status === 401 || e.status === 404 ? t('app.group.bad-link') : t('app.group.unreadable')), h('p', {class: 'problem'}, e.message));
    }
  }
  replace(root, h('h1', {}, t('app.group.group')), status);
  refresh();
  return () => { closed = true; };
}
