// Game night (issue 24): join a table by typing its code, the host's tools
// to show the code and to give a lost seat a new link, and "play again".
// Every call goes through the API (openapi.yaml: tag seating); credentials
// travel in headers and bodies, and live on this device in the URL's
// fragment and localStorage, never in a path or query sent to the server.
import qrcode from 'qrcode-generator';
import {h, replace, call, callAgain, playerNames, tables, remember, gameLink, randomKey, errorOf, type TableEntry} from './lib';
import {t} from './i18n';
import type {Shell} from './game';
import type {Schemas, Table} from './screen';

const enc = encodeURIComponent;

// spaced writes a join code as it is read aloud: two groups of three.
export const spaced = (code: string): string => `${code.slice(0, 3)} ${code.slice(3)}`;

function qrImage(text: string, alt: string): HTMLImageElement {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  const size = qr.getModuleCount() * 4 + 16;
  return h('img', {src: qr.createDataURL(4, 2), alt, width: size, height: size});
}

// joinPage: type the code, pick your seat. The code may come in the
// fragment (#/join/K7QM4T, the join QR code's link).
export function joinPage(root: HTMLElement, given: string): void {
  document.title = t('app.join.doc-title');
  const problem = h('div', {role: 'alert', class: 'problem', tabindex: '-1', 'data-testid': 'problem'});
  const seatsBox = h('div', {'aria-live': 'polite'});
  const input = h('input', {id: 'join-code', 'data-k': 'join-code', name: 'code', autocomplete: 'off', autocapitalize: 'characters', spellcheck: 'false',
    maxlength: 9, inputmode: 'text', 'aria-describedby': 'join-hint', value: given || ''});
  const form = h('form', {class: 'card-panel', novalidate: true, 'aria-labelledby': 'join-h'},
    h('h2', {id: 'join-h'}, t('app.join.title')),
    h('div', {class: 'field'}, h('label', {for: 'join-code'}, t('app.join.code')), input,
      h('span', {id: 'join-hint', class: 'hint'}, t('app.join.hint'))),
    h('button', {type: 'submit', class: 'primary', 'data-k': 'join-find'}, t('app.join.find')));
  let code = '';

  async function find() {
    problem.textContent = '';
    code = input.value.trim();
    if (!code) {
      problem.textContent = t('app.join.type-code');
      input.focus();
      return;
    }
    try {
      const table = await call<Schemas['JoinTable']>('POST', '/v1/join', {body: {code}});
      showSeats(table);
    } catch (caught) {
      const e = errorOf(caught);
      replace(seatsBox);
      problem.textContent = e.message;
      problem.focus();
    }
  }

  function showSeats(table: Schemas['JoinTable']) {
    const free = table.seats.filter((s) => !s.taken);
    replace(seatsBox, h('section', {'aria-labelledby': 'pick-h'},
      h('h2', {id: 'pick-h', tabindex: '-1'}, t('app.join.who')),
      free.length ? h('p', {}, t('app.join.tap-name'))
        : h('p', {}, t('app.join.all-taken')),
      h('ul', {class: 'join-seats'}, table.seats.map((s) => h('li', {},
        s.taken ? h('button', {type: 'button', disabled: true, 'data-join-seat': s.seat}, t('app.join.taken', {name: s.name}))
          : h('button', {type: 'button', class: 'primary', 'data-k': 'join-seat-' + s.seat, 'data-join-seat': s.seat, onclick: () => take(table, s)}, t('app.join.i-am', {name: s.name})))))));
    seatsBox.querySelector<HTMLElement>('#pick-h')?.focus();
  }

  async function take(table: Schemas['JoinTable'], seat: Schemas['JoinSeat']) {
    problem.textContent = '';
    try {
      // An answer lost on the way is asked for again with the same key,
      // which gets the same credential (not "taken" by this very phone).
      const c = await callAgain<Schemas['SeatCredential']>('POST', '/v1/join/seat', {body: {code, seat: seat.seat}, idempotent: randomKey()});
      remember({id: c.game_id, role: 'seat', cred: c.credential, ruleset: table.ruleset, name: seat.name});
      location.hash = gameLink(c.game_id, 'seat', c.credential).replace(location.origin + '/', '');
    } catch (caught) {
      const e = errorOf(caught);
      problem.textContent = e.message;
      problem.focus();
      if (e.status === 409) find(); // someone was quicker: show the seats as they are now
    }
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    find();
  });
  replace(root, h('p', {class: 'crumbs'}, h('a', {href: '#/'}, 'Treasury')), h('h1', {}, t('app.join.title')), form, problem, seatsBox);
  if (given) find();
  else input.focus();
}

// hostEntry is this device's record of the host credential of game id.
function hostEntry(id: string, cred: string): TableEntry {
  return tables().find((x) => x.id === id && x.role === 'host' && x.cred === cred) || {id, role: 'host', cred, at: Date.now()};
}

// hostTools is the host's panel: the join code (with a QR code of the join
// page), and a new link for any seat whose phone was lost. Works on any
// device holding the host credential.
export function hostTools(s: Shell, table: Table): HTMLElement {
  const ui = s.ui;
  const names = playerNames(table.view);
  const box = h('section', {class: 'invites host-tools', 'aria-labelledby': 'tools-h'}, h('h2', {id: 'tools-h'}, t('app.seating.title')));
  if (!table.view.ended) {
    if (s.joinCode) {
      const url = `${location.origin}/#/join/${s.joinCode}`;
      box.append(h('p', {}, t('app.seating.code-before'), h('strong', {}, `${location.host}/#/join`), t('app.seating.code-after')),
        h('p', {class: 'join-code', 'data-testid': 'join-code', 'aria-label': t('app.seating.code-label', {code: s.joinCode.split('').join(' ')})}, spaced(s.joinCode)),
        qrImage(url, t('app.seating.qr')));
    } else {
      box.append(h('p', {}, h('button', {type: 'button', 'data-k': 'show-code', 'data-action': 'show-join-code', onclick: async () => {
        try {
          s.joinCode = (await call<Schemas['JoinCode']>('POST', `/v1/games/${enc(s.id)}/join-code`, {cred: s.cred})).code;
          table.redraw();
        } catch (caught) {
          const e = errorOf(caught);
          table.fail(e.message);
        }
      }}, t('app.seating.show-code'))));
    }
  }
  box.append(h('p', {}, t('app.seating.lost')));
  box.append(h('ul', {class: 'buttons'}, names.map((name, i) => h('li', {}, h('button', {type: 'button', 'data-k': 'reissue-' + i, 'data-reissue': i,
    onclick: async () => {
      if (ui.confirmReissue !== i) {
        ui.confirmReissue = i;
        table.redraw();
        return;
      }
      ui.confirmReissue = undefined;
      try {
        const c = await call<Schemas['SeatCredential']>('POST', `/v1/games/${enc(s.id)}/seats/${i}/credential`, {cred: s.cred});
        const entry = hostEntry(s.id, s.cred);
        const seats = (entry.seats || []).slice();
        while (seats.length < names.length) seats.push(null);
        seats[i] = c.credential;
        remember({...entry, seats, names});
        ui.invitesOpen = true;
        table.announce(t('app.seating.new-link-announce', {name}));
        table.redraw();
      } catch (caught) {
        const e = errorOf(caught);
        table.fail(e.message);
      }
    }}, ui.confirmReissue === i ? t('app.seating.confirm-new-link', {name}) : t('app.seating.new-link', {name}))))));
  return box;
}

// nextGamePanel is the end screen's "play again": the host starts the next
// game with the same players and the next start player; every seat's phone
// is moved to it by the stream's next_game event (or this button).
export function nextGamePanel(s: Shell, table: Table): HTMLElement | null {
  if (table.role === 'public') {
    return s.nextGame ? h('p', {}, h('a', {href: `#/game/${enc(s.nextGame)}`}, t('app.next.follow'))) : null;
  }
  const label = table.role === 'host' ? t('app.next.again') : t('app.next.go');
  return h('section', {class: 'again', 'aria-labelledby': 'again-h'}, h('h2', {id: 'again-h'}, t('app.next.title')),
    table.role === 'host' ? h('p', {}, t('app.next.host-how'))
      : h('p', {}, t('app.next.seat-how')),
    h('button', {type: 'button', class: 'primary', 'data-k': 'play-again', 'data-action': 'play-again', onclick: () => followNext(s, table, true)}, label));
}

// followNext moves this screen to the next game: the host creates it (or
// gets it), a seat asks for its own credential of it.
export async function followNext(s: Shell, table: Table, asked: boolean): Promise<void> {
  if (s.movingOn) return;
  s.movingOn = true;
  try {
    const n = await call<Schemas['NextGame']>('POST', `/v1/games/${enc(s.id)}/next`, {cred: s.cred});
    const old = tables().find((x) => x.id === s.id && x.role === table.role && x.cred === s.cred);
    const names = playerNames(n.game);
    if (n.host) {
      remember({id: n.game.id, role: 'host', cred: n.credential, ruleset: n.game.ruleset, title: old && old.title, names, seats: []});
      location.hash = gameLink(n.game.id, 'host', n.credential).replace(location.origin + '/', '');
    } else {
      remember({id: n.game.id, role: 'seat', cred: n.credential, ruleset: n.game.ruleset, name: names[n.seat ?? 0]});
      location.hash = gameLink(n.game.id, 'seat', n.credential).replace(location.origin + '/', '');
    }
  } catch (caught) {
    const e = errorOf(caught);
    s.movingOn = false;
    if (asked || e.status !== 404) table.fail(e.status === 404 ? t('app.next.not-yet') : e.message);
  }
}
