/**
 * The dashboard's language: the words of locales/<lang>/*.json (README "How to add a language").
 * `ui.json` holds the hand-written screens' words by key; `forms.json` the translations of the
 * schema and screen files' words (src/lib/i18n/file-words.ts), which are English as they stand.
 * Only the active language's files are fetched (English too, as the fallback of a word a language
 * marks null). The language follows the browser until the admin picks one in the avatar menu;
 * the choice is kept per browser like the theme.
 *
 * A key no catalog has is shown as the key and reported on `window.__outpostMissingWords`
 * (the e2e tests read it).
 */
import { useSyncExternalStore } from 'react';
import { interpolate, lookup, type Catalog, type Params } from '../lib/i18n/catalog';
import { setDateLanguage } from '../lib/date-display';

const SOURCE_LANGUAGE = 'en';
const LANGUAGE_STORAGE_KEY = 'outpost_language';

type CatalogModule = { default: Catalog };
// one chunk per file, fetched when its language is chosen (docs.json holds the generated docs'
// words, scripts/gen-docs.ts: never the dashboard's)
const files = import.meta.glob<CatalogModule>(['/locales/*/*.json', '!/locales/*/docs.json']);

/** Every language with a folder under locales/, the source language first. */
export const LANGUAGES: readonly string[] = [
  ...new Set([SOURCE_LANGUAGE, ...Object.keys(files).map((p) => p.split('/')[2])]),
].filter((lang) => `/locales/${lang}/ui.json` in files);

interface Loaded {
  /** The hand-written words of the parts loaded so far, merged. */
  ui: Record<string, string | null>;
  parts: Set<string>;
  forms?: Catalog;
}
const loaded = new Map<string, Loaded>();
const loading = new Map<string, Promise<void>>();
const listeners = new Set<() => void>();
let active: string = SOURCE_LANGUAGE;

/**
 * The parts of the hand-written words wanted so far: `ui` (the signed-out pages, the shell, the
 * engine and widgets; the sign-in page's budget pays for it) from the start, `app` (the signed-in
 * screens) once the signed-in shell loads (src/app/Router.tsx).
 */
const wantedParts = new Set<string>(['ui', 'server']);

async function loadFile(lang: string, name: string): Promise<Catalog | undefined> {
  const load = files[`/locales/${lang}/${name}.json`];
  return load ? (await load()).default : undefined;
}

/** Puts a part of a language's words in place (the loader, and tests that install English directly). */
export function installLanguage(lang: string, ui: Catalog, forms?: Catalog, part = 'ui'): void {
  const entry = loaded.get(lang) ?? { ui: {}, parts: new Set<string>() };
  Object.assign(entry.ui, ui);
  entry.parts.add(part);
  if (forms) entry.forms = forms;
  loaded.set(lang, entry);
}

/** Loads the wanted parts of a language not loaded yet (and its forms' words). */
function loadLanguage(lang: string): Promise<void> {
  const have = loaded.get(lang);
  // the server's words are English: English needs no translation of them (serverWords)
  const parts = [...wantedParts].filter((p) => !have?.parts.has(p) && !(p === 'server' && lang === SOURCE_LANGUAGE));
  const needForms = lang !== SOURCE_LANGUAGE && !have?.forms;
  if (!parts.length && !needForms) return Promise.resolve();
  const key = `${lang}:${parts.join(',')}:${needForms}`;
  let p = loading.get(key);
  if (!p) {
    p = Promise.all([
      Promise.all(parts.map((part) => loadFile(lang, part))),
      needForms ? loadFile(lang, 'forms') : undefined,
      lang === SOURCE_LANGUAGE ? undefined : loadServerTemplates(),
    ]).then(
      async ([uis, forms]) => {
        parts.forEach((part, i) => installLanguage(lang, uis[i] ?? {}, i === 0 ? forms : undefined, part));
        if (!parts.length && forms) installLanguage(lang, {}, forms, 'ui');
        // the source language's words stand in for a word marked null (falls back)
        if (lang !== SOURCE_LANGUAGE && uis.some((ui) => ui && Object.values(ui).includes(null))) await loadLanguage(SOURCE_LANGUAGE);
      },
    );
    loading.set(key, p);
    p.catch(() => loading.delete(key));
  }
  return p;
}

/**
 * The server's messages as PocketBase 0.22 words them (locales/en/server.json, `server.<code>` and
 * `server.envelope.*`, `{name}` for a value in the message): read in English whatever the language,
 * to find a message's key and values.
 */
let serverTemplates: Catalog | undefined;
async function loadServerTemplates(): Promise<void> {
  serverTemplates ??= (await loadFile(SOURCE_LANGUAGE, 'server')) ?? {};
}

const templateRegexps = new Map<string, RegExp>();
function matchTemplate(template: string, message: string): Record<string, string> | null {
  let re = templateRegexps.get(template);
  if (!re) {
    const names: string[] = [];
    const source = template.split(/\{(\w+)\}/).map((part, i) => (i % 2 ? (names.push(part), '(.*?)') : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
    re = new RegExp(`^${source}$`, 's');
    (re as RegExp & { names?: string[] }).names = names;
    templateRegexps.set(template, re);
  }
  const m = re.exec(message);
  if (!m) return null;
  const names = (re as RegExp & { names?: string[] }).names ?? [];
  return Object.fromEntries(names.map((n, i) => [n, m[i + 1]]));
}

/**
 * A server message in the active language, through its code (a field error's `validation_*`) or,
 * for the envelope's message, its words: the English template that matches gives the key and the
 * values. A message no template matches is shown as the server words it.
 */
export function serverWords(message: string, code?: string): string {
  if (active === SOURCE_LANGUAGE || !serverTemplates || !message) return message;
  const own = loaded.get(active)?.ui;
  const prefix = code ? `server.${code}` : 'server.envelope.';
  for (const [key, template] of Object.entries(serverTemplates)) {
    if (!template || !(code ? key === prefix || key.startsWith(`${prefix}.`) : key.startsWith(prefix))) continue;
    const params = matchTemplate(template, message);
    if (!params) continue;
    const text = own?.[key];
    return typeof text === 'string' ? interpolate(text, serverValues(params, own), active) : message;
  }
  return message;
}

/**
 * A field error worded in English by shared code that cannot read the translation files (the
 * records import judges rows with src/lib's schema words, `formWords`: ../lib/schema/schema-words.ts
 * DEFAULT_WORDS, passed in so the sign-in page does not load them): the form word it is, in the
 * dashboard's language; else as a server message (serverWords).
 */
export function fieldErrorWords(message: string, code: string | undefined, formWords: Readonly<Record<string, string>>): string {
  if (active === SOURCE_LANGUAGE || !message) return message;
  for (const [key, template] of Object.entries(formWords)) {
    if (template === '{error}') continue;
    const params = matchTemplate(template, message);
    if (params) return t(key, params);
  }
  return serverWords(message, code);
}

/** A message's values that are themselves the server's fixed words (`server.value.*`, e.g. the SQL console's allowed statements) in the language. */
function serverValues(params: Record<string, string>, own: Catalog | undefined): Record<string, string> {
  const out = { ...params };
  for (const [name, value] of Object.entries(params)) {
    for (const [key, template] of Object.entries(serverTemplates ?? {})) {
      if (key.startsWith('server.value.') && template === value && typeof own?.[key] === 'string') out[name] = own[key] as string;
    }
  }
  return out;
}

/** Loads a part of the hand-written words for the active language (and any language chosen later). */
export function loadWords(part: string): Promise<void> {
  wantedParts.add(part);
  return startLanguage().then(() => loadLanguage(active));
}

function storedLanguage(): string | null {
  try {
    const v = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return v && LANGUAGES.includes(v) ? v : null;
  } catch {
    return null;
  }
}

/** The browser's first language we have ('de-AT' finds 'de'), else the source language. */
function browserLanguage(): string {
  const wanted = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  for (const tag of wanted) {
    const lower = tag.toLowerCase();
    const hit = LANGUAGES.find((l) => l.toLowerCase() === lower) ?? LANGUAGES.find((l) => l.toLowerCase() === lower.split('-')[0]);
    if (hit) return hit;
  }
  return SOURCE_LANGUAGE;
}

function apply(lang: string): void {
  active = lang;
  setDateLanguage(lang === SOURCE_LANGUAGE ? null : lang);
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
  listeners.forEach((l) => l());
}

let started: Promise<void> | undefined;
/**
 * Loads the language in effect (the stored choice, else the browser's), once; main.tsx awaits it
 * before the first render.
 */
export function startLanguage(): Promise<void> {
  return (started ??= (() => {
    const lang = storedLanguage() ?? browserLanguage();
    return loadLanguage(lang).then(
      () => apply(lang),
      () => loadLanguage(SOURCE_LANGUAGE).then(() => apply(SOURCE_LANGUAGE)),
    );
  })());
}

/** The avatar menu's choice: loaded, shown and remembered. */
export async function setLanguage(lang: string): Promise<void> {
  await loadLanguage(lang);
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
  } catch {
    /* not remembered: applied until the page reloads */
  }
  apply(lang);
}

export function currentLanguage(): string {
  return active;
}

/** A language's own name for itself ("Deutsch"), from Intl: a new language needs no name file. */
export function languageName(lang: string): string {
  try {
    const name = new Intl.DisplayNames([lang], { type: 'language' }).of(lang) ?? lang;
    return name.charAt(0).toLocaleUpperCase(lang) + name.slice(1);
  } catch {
    return lang;
  }
}

declare global {
  interface Window {
    __outpostMissingWords?: string[];
  }
}

function reportMissing(key: string): void {
  if (typeof window === 'undefined') return;
  const list = (window.__outpostMissingWords ??= []);
  if (!list.includes(key)) list.push(key);
}

/** The words for a key in the active language, then the source language; the key itself (reported) when neither has it. */
export function t(key: string, params?: Params): string {
  const own = lookup(loaded.get(active)?.ui, key, params, active);
  if (typeof own === 'string') return interpolate(own, params, active);
  const source = lookup(loaded.get(SOURCE_LANGUAGE)?.ui, key, params, SOURCE_LANGUAGE);
  if (typeof source === 'string') {
    if (own === undefined) reportMissing(`${active}:${key}`);
    return interpolate(source, params, active);
  }
  reportMissing(`${active}:${key}`);
  return key;
}

/** The active language's translations of the schema and screen files; undefined for the source language. */
export function formsCatalog(): Catalog | undefined {
  return active === SOURCE_LANGUAGE ? undefined : loaded.get(active)?.forms;
}

/** Reports a schema or screen word the active language lacks (src/engine/schemas.ts). */
export function reportMissingFormWord(key: string): void {
  reportMissing(`${active}:${key}`);
}

function subscribe(cb: () => void): () => void {
  listeners.add(cb);
  return () => listeners.delete(cb);
}

/** The active language; a component using it re-renders when it changes. */
export function useLanguage(): string {
  return useSyncExternalStore(subscribe, currentLanguage, currentLanguage);
}
