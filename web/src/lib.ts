// Small helpers shared by every screen: DOM building, the API, the device's
// list of tables, and keys for focus and idempotency.
import {t, lang} from './i18n';
import type {components} from './api.gen';
import type {SharedState} from './screen';

// Problem is the API's problem answer (RFC 9457).
export type Problem = components['schemas']['Problem'];

// h builds an element: h('button', {class: 'x', onclick: f, 'aria-label': 'y'}, 'text', child).
// Attrs are an element's attributes, properties (class, value) and event
// handlers (on…); undefined, null and false leave one out, true sets it bare.
export type Attrs = Record<string, unknown>;
// Child is what h and replace take as content: nodes, text, numbers, lists
// of them; null, undefined and false are skipped.
export type Child = Node | string | number | boolean | null | undefined | readonly Child[];

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K];
export function h(tag: string, attrs?: Attrs | null, ...children: Child[]): HTMLElement;
export function h(tag: string, attrs?: Attrs | null, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v as EventListener);
    else if (k === 'class') el.className = String(v);
    else if (k === 'value') (el as HTMLInputElement).value = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el: Element, children: readonly Child[]): void {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c as readonly Child[]);
    else el.append(c instanceof Node ? c : String(c));
  }
}

// replace swaps the content of root for nodes, keeping the keyboard focus on
// the element with the same data-k key, so that a screen redrawn by a live
// event does not throw a keyboard or screen-reader user back to the top.
export function replace(root: Element, ...nodes: Child[]): void {
  const active = document.activeElement;
  const key = active && root.contains(active) ? active.getAttribute('data-k') : null;
  root.replaceChildren();
  append(root, nodes);
  if (key) {
    const again = root.querySelector<HTMLElement>(`[data-k="${CSS.escape(key)}"]`);
    if (again) again.focus({preventScroll: true});
  }
}

// randomKey is an Idempotency-Key. crypto.randomUUID needs a secure context,
// which a phone on the LAN (http://192.168.x.y) is not.
export function randomKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

// keyPerBody gives a form its Idempotency-Key for a body: the same key for
// the same body, so that the form sent again after an error (whose request
// may have been kept) keeps nothing twice, and a key of its own for each
// other body.
export function keyPerBody(): (body: unknown) => string {
  const keys = new Map<string, string>();
  return (body) => {
    const b = JSON.stringify(body);
    let key = keys.get(b);
    if (!key) keys.set(b, (key = randomKey()));
    return key;
  };
}

// ApiError is a problem answer (or no answer at all), with the sentence a
// player can act on.
export class ApiError extends Error {
  status: number;
  problem: Problem | null;

  constructor(message: string, status: number, problem?: Problem | null) {
    super(message);
    this.status = status;
    this.problem = problem || null;
  }
}

// errorOf is what a request threw, as the app's error (anything else is a
// fault of the app: its message is shown).
export function errorOf(e: unknown): ApiError {
  return e instanceof ApiError ? e : new ApiError(e instanceof Error ? e.message : String(e), -1);
}

// call sends one request to the API and returns its JSON answer.
export type CallOptions = {cred?: string; body?: unknown; ifMatch?: number | string; idempotent?: string};

// (T is what the caller expects of the answer: the spec's schema.)
export async function call<T = unknown>(method: string, path: string, {cred, body, ifMatch, idempotent}: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = {Accept: 'application/json', 'Accept-Language': lang()};
  if (cred) headers.Authorization = 'Bearer ' + cred;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (ifMatch !== undefined) headers['If-Match'] = `"${ifMatch}"`;
  if (idempotent) headers['Idempotency-Key'] = idempotent;
  let res: Response;
  try {
    // Never from the browser's cache: the server names a game's versions
    // alike for every viewer, so a kept answer for one credential (a seat's
    // hand) could be revalidated (304) for another on the same device.
    res = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store'});
  } catch {
    throw new ApiError(t('app.error.unreachable'), 0);
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const problem = data && typeof data === 'object' ? (data as Problem) : null;
    let msg = (problem && (problem.detail || problem.title)) || t('app.error.status', {status: res.status});
    if (res.status === 429) msg = t('app.error.too-many');
    throw new ApiError(msg, res.status, problem);
  }
  return data as T;
}

// callAgain is call for a request with an Idempotency-Key: one that got no
// answer, or 503 (the server could not tell whether it was kept), is sent
// again with the same key, up to 3 times; the key makes it count once.
export async function callAgain<T = unknown>(method: string, path: string, opts: CallOptions & {idempotent: string}): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call<T>(method, path, opts);
    } catch (caught) {
      const e = errorOf(caught);
      if ((e.status !== 0 && e.status !== 503) || attempt >= 3) throw e;
      await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
    }
  }
}

// playerNames are the names of a game's players, by seat (as every game's
// view lists them).
export function playerNames(game: {state: SharedState | null}): string[] {
  return ((game.state && game.state.players) || []).map((p) => p.name ?? '');
}

const TABLES = 'treasury.tables';

// TableEntry is a table this device holds a credential of.
export type TableEntry = {
  id: string;
  role: string;
  cred: string;
  ruleset?: string;
  title?: string;
  name?: string;
  names?: string[];
  seats?: (string | null)[];
  group?: string;
  at: number;
};

// tables lists the tables this device has joined or hosted, newest first.
export function tables(): TableEntry[] {
  try {
    const list = JSON.parse(localStorage.getItem(TABLES) || '[]');
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

// remember keeps a credential on this device so that the home page can lead
// back to the table after the tab is closed.
export function remember(entry: Omit<TableEntry, 'at'>): void {
  const list = tables().filter((t) => !(t.id === entry.id && t.role === entry.role && t.cred === entry.cred));
  list.unshift({...entry, at: Date.now()});
  try {
    localStorage.setItem(TABLES, JSON.stringify(list.slice(0, 20)));
  } catch {
    // Private mode: the fragment still holds the credential.
  }
}

// forget removes a table from this device's list.
export function forget(id: string): void {
  try {
    localStorage.setItem(TABLES, JSON.stringify(tables().filter((t) => t.id !== id)));
  } catch {
    // nothing kept, nothing to forget
  }
}

// gameLink is the address that opens a table with a credential: in the
// fragment, which browsers never send to the server.
export function gameLink(id: string, role: string, cred: string): string {
  return `${location.origin}/#/game/${encodeURIComponent(id)}/${role}/${encodeURIComponent(cred)}`;
}

// genericAsked says whether an address's query (location.search) asks
// for the generic screen, ?screen=generic: a frontend developer sees any
// game as a game without a screen of its own is played (the query stays
// before the #, which the app's links change; a link it makes drops it).
export function genericAsked(search: string): boolean {
  return new URLSearchParams(search).get('screen') === 'generic';
}

// routeNo counts the screens the app has opened (route in main.ts): a page
// that draws after waiting for the network first asks whether it is still
// the screen shown, since the address may have changed meanwhile (a seat
// link opened while the start page loads).
let routeNo = 0;

// nextRoute begins a new screen: pages begun before it no longer draw.
export function nextRoute(): void {
  routeNo++;
}

// onThisRoute returns whether the screen being drawn now is still shown.
export function onThisRoute(): () => boolean {
  const n = routeNo;
  return () => n === routeNo;
}
