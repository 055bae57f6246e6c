// The app's words in the player's language. The server serves each
// language's catalog (GET /v1/languages/{tag}): key → template, or plural
// forms chosen by the parameter count. Templates name their parameters
// {name}; a parameter may be a message ({key, params}) rendered in the same
// language, or a list of them or of strings ("a, b and c"). A key missing in
// the chosen language falls back to English, then to the key itself.
// The chosen language is remembered on the device and sent with every
// request (Accept-Language), so that the server words its answers alike.

const STORE = 'treasury.lang';
// A catalog: key → template, or plural forms by CLDR category.
export type Catalog = Record<string, string | Record<string, string>>;
// Params fill a template's {name}s: a value, a message or a list of them.
export type Params = Record<string, unknown>;
export type Language = {tag: string; name: string};

const cats: Record<string, Catalog> = {};
let current = 'en';
let known: Language[] = [{tag: 'en', name: 'English'}, {tag: 'de', name: 'Deutsch'}];
const listeners: ((tag: string) => void)[] = [];

// choose is the language of a first visit: the first of the browser's
// preferred languages that the server has (tags, from GET /v1/languages),
// by its whole tag or its language alone (de-AT → de); English otherwise.
export function choose(preferred: readonly string[] | null | undefined, tags: string[] = known.map((l) => l.tag)): string {
  const base = (tag: string) => String(tag).toLowerCase().split('-')[0];
  for (const p of preferred || []) {
    const hit = tags.find((tag) => tag.toLowerCase() === String(p).toLowerCase()) || tags.find((tag) => base(tag) === base(p));
    if (hit) return hit;
  }
  return 'en';
}

// format renders key with params in the catalogs (by tag) for tag.
export function format(catalogs: Record<string, Catalog>, tag: string, key: string, params?: Params | null): string {
  const ps: Params = params || {};
  const own = catalogs[tag] || {};
  const en = catalogs.en || {};
  let tpl: string | Record<string, string> | undefined = Object.hasOwn(own, key) ? own[key] : en[key];
  let lang = Object.hasOwn(own, key) ? tag : 'en';
  if (tpl === undefined) return key;
  if (tpl && typeof tpl === 'object') {
    const n = Number(ps.count);
    const form = Number.isFinite(n) ? new Intl.PluralRules(lang).select(Math.abs(n)) : 'other';
    tpl = tpl[form] ?? tpl.other;
  }
  lang = tag;
  return String(tpl).replace(/\{([^{}]*)\}/g, (m, name: string) => (Object.hasOwn(ps, name) ? value(catalogs, lang, ps[name]) : m));
}

// isMessage says whether v is a message ({key, params}).
const isMessage = (v: unknown): v is {key: string; params?: Params} =>
  !!v && typeof v === 'object' && typeof (v as {key?: unknown}).key === 'string';

function value(catalogs: Record<string, Catalog>, tag: string, v: unknown): string {
  if (Array.isArray(v)) return list(catalogs, tag, v.map((x) => value(catalogs, tag, x)));
  if (isMessage(v)) return format(catalogs, tag, v.key, v.params);
  return v === undefined || v === null ? '' : String(v);
}

// list joins items as a sentence does: "a, b and c".
export function list(catalogs: Record<string, Catalog>, tag: string, items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return items.slice(0, -1).join(', ') + ' ' + format(catalogs, tag, 'list.and') + ' ' + items[items.length - 1];
}

// t is key rendered in the chosen language.
export const t = (key: string, params?: Params | null): string => format(cats, current, key, params);

// tlist joins strings in the chosen language ("a, b und c").
export const tlist = (items: readonly string[]): string => list(cats, current, items);

// lang is the chosen language's tag.
export const lang = (): string => current;

// languages lists the languages the server has a catalog of.
export const languages = () => known;

// onLanguage registers a function called after the language changed.
export const onLanguage = (fn: (tag: string) => void) => listeners.push(fn);

// useCatalog keeps a language's catalog as the server serves it (the unit
// tests render the app's words with the served English one).
export function useCatalog(tag: string, catalog: Catalog): void {
  cats[tag] = catalog;
}

// fetchCatalog reads a language's catalog from the server and keeps a copy
// on the device: the app opens offline too (the service worker keeps its
// files, never an API answer), and says so in the player's language.
async function fetchCatalog(tag: string): Promise<void> {
  if (cats[tag]) return;
  const kept = `treasury.catalog.${tag}`;
  try {
    const res = await fetch(`/v1/languages/${encodeURIComponent(tag)}`, {headers: {Accept: 'application/json', 'Accept-Language': tag}, cache: 'no-store'});
    if (!res.ok) throw new Error(`catalog ${tag}: ${res.status}`);
    const text = await res.text();
    cats[tag] = JSON.parse(text);
    try {
      localStorage.setItem(kept, text);
    } catch {
      // private mode or full: this page only
    }
  } catch (e) {
    let copy = null;
    try {
      copy = JSON.parse(localStorage.getItem(kept) || 'null');
    } catch {
      copy = null;
    }
    if (!copy) throw e;
    cats[tag] = copy;
  }
}

function stored(): string | null {
  try {
    return localStorage.getItem(STORE);
  } catch {
    return null;
  }
}

// init reads the remembered (or the browser's) language and its catalog,
// English's too (the fallback). Without a catalog the app shows keys
// rather than nothing.
export async function init(): Promise<void> {
  try {
    const [list] = await Promise.all([
      fetch('/v1/languages', {headers: {Accept: 'application/json'}}).then((r): Promise<{languages?: Language[]} | null> | null => (r.ok ? r.json() : null)).catch(() => null),
      fetchCatalog('en').catch(() => {}),
    ]);
    if (list && Array.isArray(list.languages) && list.languages.length) known = list.languages;
  } catch {
    // offline: the languages known last time, the keys until the words come
  }
  const s = stored();
  current = s !== null && known.some((l) => l.tag === s) ? s : choose(navigator.languages || [navigator.language]);
  if (current !== 'en') await fetchCatalog(current).catch(() => {});
  if (!cats[current]) current = 'en';
  document.documentElement.lang = current;
}

// setLanguage switches the app's language, remembers it on the device and
// tells the screens to draw again.
export async function setLanguage(tag: string): Promise<void> {
  if (tag === current) return;
  await fetchCatalog(tag);
  current = tag;
  document.documentElement.lang = tag;
  try {
    localStorage.setItem(STORE, tag);
  } catch {
    // private mode: for this page only
  }
  for (const fn of listeners) fn(tag);
}

// translateStatic fills the elements of root marked data-i18n="key".
export function translateStatic(root: ParentNode): void {
  for (const el of root.querySelectorAll<HTMLElement>('[data-i18n]')) el.textContent = t(el.dataset.i18n || '');
}

// has says whether the catalogs know key (in English, the fallback).
export const has = (key: string): boolean => Object.hasOwn(cats.en || {}, key) || Object.hasOwn(cats[current] || {}, key);

// term is the word for an id of a game's vocabulary (a colour, a wonder, a
// treasure): the catalog's prefix + id, or the id as written when the
// catalogs have no word for it.
export const term = (prefix: string, id: string | number): string => (has(prefix + id) ? t(prefix + id) : String(id).split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' '));
