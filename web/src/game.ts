// The screen of one game, for a seat, the host or anyone: it reads the game,
// follows its event stream (stream.ts resumes with Last-Event-ID by
// itself after a lost connection) and hands the drawing to the game's own
// screen (domain/<game>/app/screen.ts, listed in games.gen.ts), through the
// one interface of screen.ts: a Table. A game without a screen of its own
// is drawn by the generic screen (generic.ts).
import qrcode from 'qrcode-generator';
import {h, replace, call, genericAsked, playerNames, tables, remember, gameLink, randomKey, errorOf} from './lib';
import {t, tlist, has, term, type Params} from './i18n';
import {knownGroups, groupLink} from './group';
import {screens} from './games.gen';
import {generic} from './generic';
import {complete} from './parts';
import type {Bag, Game, Legal, Move, Role, Schemas, Score, Screen, Table} from './screen';
import {GameStream, CLOSED} from './stream';
import {hostTools, nextGamePanel, followNext} from './seating';
import {turnCue, keepAwake, cueSwitch} from './phone';
import {howTo} from './howto';

const byRuleset = new Map<string, Screen>(screens.map((m: Screen) => [m.ruleset, m]));

// hasScreen says whether a game has a screen of its own in this app (the
// others are played with the generic screen).
export const hasScreen = (ruleset: string): boolean => byRuleset.has(ruleset);

// ownScreen is a game's own screen, unless the address asks for the
// generic one (?screen=generic before the #, see genericAsked).
const ownScreen = (ruleset: string): Screen | undefined => (genericAsked(location.search) ? undefined : byRuleset.get(ruleset));

// screenOf is the screen that draws a game.
const screenOf = (ruleset: string): Screen => ownScreen(ruleset) || generic;

// Every event name the stream sends for the games above; the stream hands
// over a named event only to a listener for that name.
// (Each name once: games share some, such as game_ended.)
const EVENTS = [...new Set(['snapshot', 'move', 'status', 'legal_moves', 'next_game', 'credential_revoked', 'taken_back', ...screens.flatMap((m: Screen) => m.events || [])])];

// LogLine is a line of the table's log, kept with its event to be said
// again in another language.
type LogLine = {line: string; name: string; data: unknown};

// Shell is the state of one game's screen: the shell's own; a game's
// screen sees it only through its Table.
export type Shell = {
  id: string;
  role: Role;
  cred: string;
  view: Game | null;
  legal: Legal | null;
  seatLegal: Record<number, Legal>;
  score: Score | null;
  seat: number | null;
  ui: Bag;
  memo: Bag;
  log: LogLine[];
  closed: boolean;
  loaded: boolean;
  unsent?: {move: Move; version: number; key: string} | null;
  historyTo?: number;
  nextGame?: string;
  joinCode?: string;
  movingOn?: boolean;
  wasMine?: boolean;
};

// Closer stops a game's screen; relanguage draws it again in the language
// now chosen.
export type Closer = (() => void) & {relanguage?: () => void};

// openGame draws the game into root and returns a function that stops it.
export function openGame(root: HTMLElement, id: string, role: Role, cred: string): Closer {
  const s: Shell = {id, role, cred, view: null, legal: null, seatLegal: {}, score: null, seat: null, ui: {}, memo: {}, log: [], closed: false, loaded: false};
  const live = h('p', {class: 'live', role: 'status'}, t('app.game.live.connecting'));
  const problem = h('div', {role: 'alert', class: 'problem', tabindex: '-1', 'data-testid': 'problem'});
  const announce = h('div', {class: 'sr-only', 'aria-live': 'polite'});
  const content = h('div', {}, h('p', {}, t('app.game.loading')));
  replace(root, h('p', {class: 'crumbs'}, h('a', {href: '#/'}, 'Treasury')), live, problem, content, announce);
  let es: GameStream | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let loading: Promise<void> | null = null;
  let lastId: string | null = null;
  let seen = ''; // the last event id heard: where a new stream resumes
  const awake = keepAwake(s); // the screen stays on while the game is played

  // table is what the game's screen gets: the game and the shell's verbs.
  const table = tableOf(s, {send: play, fail, redraw: render, announce: say});

  function fail(msg: string) {
    problem.textContent = msg;
    if (msg && s.unsent) {
      const u = s.unsent;
      problem.append(' ', h('button', {type: 'button', 'data-k': 'try-again', 'data-action': 'try-again', onclick: () => play(u.move, u)}, t('app.game.try-again')));
    }
    if (msg) problem.dataset.shown = String(Number(problem.dataset.shown || 0) + 1);
    if (msg) problem.focus({preventScroll: false});
  }

  function say(msg: string) {
    announce.textContent = msg;
  }

  function setLive(state: string) {
    live.dataset.state = state;
    live.textContent = t(({
      live: 'app.game.live.live',
      connecting: 'app.game.live.connecting',
      reconnecting: 'app.game.live.reconnecting',
      ended: 'app.game.live.ended',
      closed: 'app.game.live.closed',
    } as Record<string, string>)[state]);
  }

  async function load(): Promise<void> {
    const auth = {cred};
    const [view, legal] = await Promise.all([
      call<Game>('GET', `/v1/games/${encodeURIComponent(id)}`, auth),
      role === 'public' ? null : call<Legal>('GET', `/v1/games/${encodeURIComponent(id)}/legal-moves`, auth),
    ]);
    // Reads overlap (a move's answer, an event's refresh): an older one
    // that arrives last must not draw the game as it was.
    if (s.view && view.version < s.view.version) return;
    // The host may act for a seat: the module names the seats whose legal
    // moves its screen offers (Silver & Gold: a physical game's draws).
    const mod = screenOf(view.ruleset);
    const seats = role === 'host' && mod.hostSeats ? mod.hostSeats(view) : [];
    const seatLegal: Record<number, Legal> = {};
    await Promise.all(seats.map(async (i) => {
      seatLegal[i] = await call<Legal>('GET', `/v1/games/${encodeURIComponent(id)}/legal-moves?seat=${i}`, auth);
    }));
    if (s.view && view.version < s.view.version) return;
    s.view = view;
    s.legal = legal;
    s.seatLegal = seatLegal;
    if (role === 'seat' && legal) s.seat = legal.seat ?? null;
    s.score = view.ended ? await call<Score>('GET', `/v1/games/${encodeURIComponent(id)}/score`) : null;
    if (!s.loaded) {
      s.loaded = true;
      if (mod.load) await mod.load(table);
      if (role !== 'public') {
        const known = tables().find((t) => t.id === id && t.role === role && t.cred === cred);
        const me = role === 'seat' ? playerOf(view, s.seat)?.name : undefined;
        remember({...known, id, role, cred, ruleset: view.ruleset, name: me});
      }
    }
  }

  // refresh reads the game again, once for a burst of events.
  function refresh() {
    clearTimeout(timer);
    document.body.dataset.loading = '1';
    timer = setTimeout(async () => {
      if (loading) {
        await loading.catch(() => {});
      }
      loading = load();
      document.body.dataset.loading = '1';
      try {
        await loading;
        render();
      } catch (e) {
        fail(errorOf(e).message);
      } finally {
        loading = null;
        delete document.body.dataset.loading;
      }
    }, 30);
  }

  // where names what a move answered: the round, turn and action it was
  // chosen in. Another player's move changes the version but not this, and a
  // move sent on an older version (412) is then sent again on the new one.
  // A game's screen may say it more exactly (its where(table)): Lucky
  // Treasure Hunter's decide step stays one phase across several rolls.
  const where = (): string => {
    if (!s.view || !s.legal) return '';
    const mod = screenOf(s.view.ruleset);
    return mod.where ? mod.where(table) : `${s.view.state.round}/${s.view.state.turn}/${s.view.state.phase}/${(s.legal as Legal<{action?: string}>).action}`;
  };

  // send posts a move once, as far as the table can tell: a request that
  // got no answer (the connection dropped) or was turned away for a moment
  // (429, 503) is sent again with the same Idempotency-Key and If-Match, so
  // that a move the server did apply is answered again, not applied twice.
  async function send(move: Move, version: number, key: string): Promise<{game: Game}> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call<{game: Game}>('POST', `/v1/games/${encodeURIComponent(id)}/moves`, {cred, body: move, ifMatch: version, idempotent: key});
      } catch (caught) {
        const e = errorOf(caught);
        const passing = e.status === 0 || e.status === 429 || e.status === 503;
        if (!passing || attempt >= 3 || s.closed) throw e;
        const wait = (e.problem && e.problem.retry_after_ms) || 500 * 2 ** attempt;
        await new Promise((r) => setTimeout(r, Math.min(wait, 4000)));
      }
    }
  }

  // play sends a move and draws the game it leads to. A move that still got
  // no answer after the retries is offered again (s.unsent) with the
  // same key: tapping "Try again" cannot make it count twice.
  async function play(move: Move, again?: {version: number; key: string} | null): Promise<boolean> {
    fail('');
    s.unsent = null;
    document.body.dataset.busy = 'play';
    try {
      for (let attempt = 0; ; attempt++) {
        const before = where();
        const version = again ? again.version : s.view!.version;
        const key = again ? again.key : randomKey();
        again = null;
        try {
          const res = await send(move, version, key);
          s.view = res.game;
          for (const k of Object.keys(s.ui)) delete s.ui[k];
          await load();
          render();
          return true;
        } catch (caught) {
          const e = errorOf(caught);
          if (e.status === 0 || e.status === 429 || e.status === 503) {
            s.unsent = {move, version, key};
            fail(e.message);
            return false;
          }
          if (e.status !== 412 && e.status !== 409) {
            fail(e.message);
            return false;
          }
          await load();
          render();
          // At a table of four choosing at once, the three others' moves
          // may each come first: the move is sent again while what it was
          // chosen in stands (a bounded number of times).
          if (attempt >= 7 || where() !== before) {
            fail(t('app.game.moved-on'));
            return false;
          }
        }
      }
    } finally {
      delete document.body.dataset.busy;
    }
  }

  function connect() {
    if (s.closed) return;
    const params = new URLSearchParams();
    // After the end the stream stays open until the host starts the next
    // game with the same players (next_game), which moves this screen on.
    params.set('next_game', 'true');
    // A module whose log tells the game from the start (module.history)
    // reads the stream from the first move, as the server discloses it
    // now, then from the last event heard; the lines of that catch-up are
    // not read out.
    const mod = s.view ? screenOf(s.view.ruleset) : null;
    let from = '';
    if (s.view && mod && mod.history) {
      from = seen || '0';
      if (s.historyTo === undefined) s.historyTo = s.view.version;
    }
    // The credential goes in the Authorization header, never in the URL.
    const stream = new GameStream(`/v1/games/${encodeURIComponent(id)}/events?${params}`, cred, from);
    es = stream;
    stream.onopen = () => setLive('live');
    stream.onerror = () => {
      if (stream.readyState !== CLOSED) {
        setLive('reconnecting');
        return;
      }
      if (s.closed) return;
      if (s.view && s.view.ended) {
        setLive('ended');
        return;
      }
      // Closed for good (the server refused, or answered 204): try afresh.
      setLive('closed');
      retry = setTimeout(connect, 3000);
    };
    for (const name of EVENTS) {
      stream.addEventListener(name, (e) => {
        let data: unknown = null;
        try {
          data = JSON.parse(e.data);
        } catch {
          data = null;
        }
        if (e.lastEventId) seen = e.lastEventId;
        if (name === 'next_game') {
          s.nextGame = (data as Schemas['EventNextGame'] | null)?.game_id;
          if (role === 'public') render();
          else followNext(s, table, false);
          return;
        }
        if (name === 'credential_revoked') {
          // The host gave this seat a new link, to another device: this
          // one stops here instead of reconnecting with a dead credential.
          s.closed = true;
          stream.close();
          setLive('closed');
          live.textContent = t('app.game.revoked-live');
          fail((data as Schemas['EventCredentialRevoked'] | null)?.reason || t('app.game.revoked'));
          return;
        }
        if (name !== 'snapshot' && name !== 'status' && name !== 'legal_moves') {
          const mod = s.view ? screenOf(s.view.ruleset) : null;
          // A take-back is every game's: its line is said here, in the
          // server's words of what was taken back.
          const line = name === 'taken_back' ? takenBackLine(data) :
            name === 'move' && (data as Schemas['EventMove'] | null)?.move?.type === 'take_back' ? null :
              mod && mod.describe ? mod.describe(name, data, table) : null;
          if (line && line !== (s.log[0] && s.log[0].line)) {
            // The event is kept with its line, to say it again in another
            // language.
            s.log.unshift({line, name, data});
            s.log.length = Math.min(s.log.length, 40);
            if (!(s.historyTo !== undefined && Number(e.lastEventId || 0) < s.historyTo)) say(line);
          }
        }
        if (name === 'game_ended') setLive('ended');
        // A move's events end with the one that carries the game's version
        // as its id: read the game again then, unless this screen has that
        // version already (its own move's answer).
        const own = s.view ? ownScreen(s.view.ruleset) : undefined;
        if (name === 'move' && (!own || own.refreshOnMove)) {
          refresh(); // a game whose events this app does not list
        } else if (e.lastEventId !== lastId || name === 'snapshot') {
          lastId = e.lastEventId;
          if (name === 'snapshot' || !s.view || !(Number(lastId) <= s.view.version)) refresh();
        }
      });
    }
  }

  // relog says the log's lines again, in the language now chosen: each
  // event is described again on a copy of the screen's state, without being
  // read out, so that what describing does besides (a peek shown until the
  // next move) happens once only.
  function relog() {
    const mod = s.view ? screenOf(s.view.ruleset) : null;
    const quiet = tableOf({...s, memo: {...s.memo}}, {send: play, fail, redraw: render, announce: () => {}});
    for (const l of s.log) {
      const again = l.name === 'taken_back' ? takenBackLine(l.data) : mod && mod.describe ? mod.describe(l.name, l.data, quiet) : null;
      if (again) l.line = again;
    }
  }

  // takenBackLine says in plain words what a take-back did, for the log of
  // every screen.
  function takenBackLine(data: unknown): string | null {
    const d = data as Schemas['EventTakenBack'] | null;
    if (!d || !d.label) return null;
    const what = takenWhat(d);
    const count = d.versions.length;
    return d.by && d.by.host ? t('app.game.taken-back-host', {what, count}) : t('app.game.taken-back', {who: playerName(s.view, d.by && d.by.seat), what, count});
  }

  // corrections are the listing's entries that put a slip right (a
  // take-back, a mis-draw report), each one tap: an entry completed from one
  // part gives a tap per part.
  function corrections(): Correction[] {
    const l = s.legal;
    const out: Correction[] = [];
    for (const e of ((l && l.moves) || []).filter((m) => m.correction)) {
      if (!e.choose) {
        out.push({move: e.move as Move, label: takenWhat(e), takeBack: e.move.type === 'take_back'});
      } else if (e.choose.max === 1) {
        const pool = (l!.pools && l!.pools[e.choose.pool]) || [];
        pool.forEach((p, i) => out.push({move: complete(l!.pools, e, [i]) as Move, label: p.label, takeBack: false}));
      }
    }
    return out;
  }

  // takeBacks is the Undo (a seat) or Correct (the host) of every game's
  // screen: the corrections the listing offers, each confirmed with what it
  // will do before it is sent.
  function takeBacks() {
    const entries = corrections();
    if (!entries.length) {
      s.ui.takeBack = null;
      return null;
    }
    const verb = role === 'host' ? t('app.game.correct') : t('app.game.undo');
    const sec = h('section', {class: 'takeback', 'aria-labelledby': 'tb-h'}, h('h2', {id: 'tb-h'}, verb));
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    const asked = s.ui.takeBack as Correction | null | undefined;
    const chosen = asked && entries.find((e) => same(e.move, asked.move));
    if (chosen) {
      sec.append(h('p', {'data-testid': 'takeback-confirm-text'}, chosen.takeBack ?
        t('app.game.takeback-confirm', {what: chosen.label}) :
        t('app.game.report-confirm', {what: chosen.label})),
      h('button', {type: 'button', 'data-k': 'takeback-confirm', 'data-action': 'take-back-confirm', onclick: () => { s.ui.takeBack = null; play(chosen.move); }}, chosen.takeBack ? t('app.game.take-it-back') : t('app.game.report-it')),
      ' ',
      h('button', {type: 'button', 'data-k': 'takeback-cancel', onclick: () => { s.ui.takeBack = null; render(); }}, t('app.game.keep-it')));
      return sec;
    }
    s.ui.takeBack = null;
    entries.forEach((e, i) => sec.append(h('button', {type: 'button', 'data-k': 'takeback-' + i, 'data-action': 'take-back', onclick: () => { s.ui.takeBack = e; render(); }},
      t('app.game.verb-label', {verb, label: e.label}))));
    return sec;
  }

  function render() {
    if (!s.view) return;
    const mod = screenOf(s.view.ruleset);
    const nodes: (HTMLElement | null)[] = [];
    const screen = mod.render(table);
    // The host's invitations come right under the screen's heading.
    if (role === 'host') screen.insertBefore(invites(), screen.children[1] || null);
    if (s.view.ended) nodes.push(nextGamePanel(s, table));
    // A seat's cue when its turn comes (switchable); every game's turn
    // told in a few lines.
    if (role === 'seat' && !s.view.ended) screen.insertBefore(cueSwitch(render), screen.children[1] || null);
    if (role === 'public' && !document.body.classList.contains('tv')) {
      screen.insertBefore(h('p', {class: 'tv-link'}, h('a', {href: `#/game/${encodeURIComponent(id)}/tv`, 'data-k': 'tv'}, t('app.game.tv'))), screen.children[1] || null);
    }
    const how = howTo(s.view.ruleset);
    if (how) screen.append(how);
    nodes.push(screen);
    if (role !== 'public' && !s.view.ended) {
      const tb = takeBacks();
      if (tb) nodes.push(tb);
    }
    if (role === 'host') nodes.push(hostTools(s, table));
    if (s.view.ended && role === 'host') nodes.push(keptNote());
    if (s.log.length) {
      nodes.push(h('section', {'aria-labelledby': 'log-h', class: 'log'}, h('h2', {id: 'log-h'}, t('app.game.log')),
        h('ol', {tabindex: '0', 'aria-labelledby': 'log-h'}, s.log.map((l) => h('li', {}, l.line)))));
    }
    replace(content, nodes);
    if (s.view.ended) setLive('ended');
    turnCue(s);
    awake.check();
    if (!performance.getEntriesByName('treasury-game-interactive').length) performance.mark('treasury-game-interactive');
  }

  // keptNote tells the host of a group's game where its result went.
  function keptNote() {
    const entry = tables().find((t) => t.id === id && t.role === 'host' && t.cred === cred);
    const g = entry && entry.group && knownGroups().find((x) => x.id === entry.group);
    if (!g) return null;
    return h('p', {class: 'note', 'data-testid': 'kept'}, t('app.game.kept-before'), h('a', {href: groupLink(g.id, g.cred)}, g.name), t('app.game.kept-after'));
  }

  function invites() {
    const entry = tables().find((t) => t.id === id && t.role === 'host' && t.cred === cred);
    const view = s.view!;
    const names: string[] = playerNames(view);
    // Open while the table is being seated: in a setup phase, or before the
    // first move (a digital game of some rulesets starts with a turn).
    if (s.ui.invitesOpen === undefined) s.ui.invitesOpen = view.phase === 'setup' || view.version === 0;
    const details = h('details', {class: 'invites', open: s.ui.invitesOpen, ontoggle: (e: Event) => { s.ui.invitesOpen = (e.target as HTMLDetailsElement).open; }},
      h('summary', {'data-k': 'invites'}, t('app.invite.summary')));
    if (!entry || !entry.seats) {
      details.append(h('p', {}, t('app.invite.elsewhere')));
      return details;
    }
    details.append(h('p', {}, t('app.invite.how')));
    if (/^(localhost|127\.|\[::1\])/.test(location.host)) {
      // The port this page came from is the one the server listens on.
      const port = location.port || (location.protocol === 'https:' ? '443' : '80');
      details.append(h('p', {class: 'note'}, t('app.invite.localhost', {host: location.host, port, example: `${location.protocol}//192.168.x.y:${port}/`})));
    }
    const list = h('ul', {class: 'seats'});
    entry.seats.forEach((seatCred, i) => {
      if (!seatCred) return; // not shown on this device (see Seating: a new link)
      const url = gameLink(id, 'seat', seatCred);
      const qr = qrcode(0, 'M');
      qr.addData(url);
      qr.make();
      const name = names[i] || (entry.names && entry.names[i]) || t('app.seat', {n: i + 1});
      list.append(h('li', {class: 'seat-invite'},
        h('h3', {}, name),
        h('img', {src: qr.createDataURL(4, 2), alt: t('app.invite.qr', {name}), width: qr.getModuleCount() * 4 + 16, height: qr.getModuleCount() * 4 + 16}),
        h('p', {}, h('a', {href: url, 'data-seat-link': i, target: '_blank', rel: 'noopener'}, t('app.invite.open', {name}))),
        navigator.clipboard ? h('button', {type: 'button', 'data-k': 'copy-' + i, onclick: () => navigator.clipboard.writeText(url).then(() => say(t('app.invite.copied', {name})))}, t('app.invite.copy', {name})) : null));
    });
    details.append(list);
    details.append(h('p', {}, t('app.invite.shared-before'),
      h('a', {href: `#/game/${encodeURIComponent(id)}`, target: '_blank', rel: 'noopener'}, t('app.invite.shared-link')), t('app.invite.shared-after')));
    return details;
  }

  (async () => {
    try {
      await load();
      render();
    } catch (caught) {
      const e = errorOf(caught);
      replace(content, h('p', {}, e.status === 401 || e.status === 403 || e.status === 404 ? t('app.game.bad-link') : t('app.game.unreadable')));
      fail(e.message);
      return;
    }
    connect();
  })();

  const close: Closer = () => {
    awake.stop();
    s.closed = true;
    clearTimeout(timer);
    clearTimeout(retry);
    if (es) es.close();
  };
  // Another language: the screen is drawn again, and what the server words
  // (labels, the score's lines) is read again in it; the stream follows.
  close.relanguage = () => {
    live.textContent = '';
    setLive(live.dataset.state || 'connecting');
    relog();
    if (s.loaded) refresh();
    if (es && !s.closed) {
      es.close();
      connect();
    }
  };
  return close;
}

// The keys of the moves' types in the app's words, by the API's name.
const MOVE_TYPE = 'app.move-type.';

// moveTypeWord gives a taken-back move's parameters with its type (the
// API's name, such as "place") in the app's words.
function moveTypeWord(params: Params | undefined): Params | undefined {
  const typ = params && params.type;
  return typeof typ === 'string' && has(MOVE_TYPE + typ) ? {...params, type: t(MOVE_TYPE + typ)} : params;
}

// takenWhat is what a correction (a listing entry or a taken_back event)
// takes back: the moves its label's message names, in the app's language;
// the whole label where it names none (a mis-draw report).
function takenWhat(c: {label?: string; label_message?: Schemas['Message']}): string {
  const moves = c.label_message && c.label_message.params && c.label_message.params.moves;
  if (Array.isArray(moves)) return tlist(moves.map((m: string | Schemas['Message']) => (typeof m === 'string' ? m : t(m.key, moveTypeWord(m.params as Params | undefined)))));
  return String(c.label || '');
}

// Correction is one tap of the Undo or Correct panel.
type Correction = {move: Move; label: string; takeBack: boolean};


// tableOf is the Table a game's screen gets of the shell's state s: read
// through getters, so that it always shows the game as read last.
function tableOf(s: Shell, verbs: Pick<Table, 'send' | 'fail' | 'redraw' | 'announce'>): Table {
  return {
    get view() { return s.view!; },
    get legal() { return s.legal; },
    get seatLegal() { return s.seatLegal; },
    get score() { return s.score; },
    role: s.role,
    get seat() { return s.seat; },
    get ui() { return s.ui; },
    get memo() { return s.memo; },
    get closed() { return s.closed; },
    playerName: (seat) => playerName(s.view, seat),
    heading(title) {
      const who = s.role === 'host' ? t('app.role.host') : s.role === 'seat' ? playerName(s.view, s.seat) : t('app.role.spectator');
      document.title = `${title}: ${who}`;
      return h('h1', {}, `${title} · ${who}`);
    },
    ...verbs,
    t,
    tlist,
    term,
  };
}

// playerOf is the player at seat in the view's players (as every game lists
// them).
function playerOf(view: Game | null, seat: number | null | undefined): {name?: string} | undefined {
  const players = view && view.state && view.state.players;
  return Array.isArray(players) && seat !== null && seat !== undefined ? players[seat] : undefined;
}

// playerName is the name of the player at seat, or the seat's number.
function playerName(view: Game | null, seat: number | null | undefined): string {
  const p = playerOf(view, seat);
  return (p && p.name) || t('app.seat', {n: (seat ?? 0) + 1});
}
