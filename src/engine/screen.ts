/**
 * Screen definitions (screens/*.json): what a screen or panel loads, which forms it shows bound
 * to which part of the loaded data, and its actions with their spec messages. Pure: the type and a
 * checking parser, shared by the dashboard, the docs generator and the contract tests.
 */
import { isObject } from '../lib/json';

export interface ScreenSection {
  /** Form name under schemas/, e.g. "admins/admin-editor" (schemas/admins/admin-editor.schema.json). */
  schema: string;
  /** UI schema name; defaults to `schema`. */
  ui?: string;
  /** Dot path into the loaded data this section edits ('' or absent = the whole document). */
  bind?: string;
  title?: string;
}

export interface ScreenAction {
  id: string;
  label: string;
  /** Label while creating, when it differs (e.g. "Create" vs "Save changes"). */
  labelNew?: string;
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** API path the screen runner sends the forms to (the screen's main action). */
  path?: string;
  /** Asked before running. */
  confirm?: string;
  /** Toast after success. */
  success?: string;
  successNew?: string;
  /** Message shown on failure when the spec words one. */
  error?: string;
  /** Request body fields added to what the forms hold (e.g. `{"filesystem": "storage"}`). */
  body?: Record<string, unknown>;
  /** Client-side time limit in ms; past it the request is cancelled and `timeoutMessage` shown. */
  timeout?: number;
  timeoutMessage?: string;
  /** Only while the forms differ from the loaded copy ("dirty") or equal it ("clean"). */
  show?: 'dirty' | 'clean';
  /** The action opens another screen (a panel) instead of calling the API. */
  opens?: string;
  /** With `opens`: fields of the opened screen's start data, each from a field of this screen's first section. */
  pass?: Record<string, string>;
  /** With `opens`: fields of this screen's first section, each set from a key of the opened screen's answer. */
  result?: Record<string, string>;
  /** Replaces the first section's data with this document (e.g. "Clear all fields": `{"enabled": false}`). */
  set?: Record<string, unknown>;
}

/**
 * A connection check a screen runs against the saved settings (the S3 status): 100 ms (`delay`)
 * after loading and after each save, while `when` (a dot path of the loaded data) is true. Its
 * status shows wherever a section's UI schema places a `statusLabel` widget naming it.
 */
export interface ScreenCheck {
  /** What `statusLabel` widgets call it (`"ui:options": {"check": name}`); defaults to the screen's name. */
  name?: string;
  method: 'POST' | 'GET';
  path: string;
  body?: Record<string, unknown>;
  /** Dot path into the loaded data; the check runs only while it is true. */
  when?: string;
  delay?: number;
  timeout?: number;
  /** Status label texts. */
  ok: string;
  failed: string;
  checking?: string;
  timeoutMessage?: string;
  /** Warning toast replacing the save action's success message when the check fails after saving. */
  savedButFailed?: string;
}

export interface ScreenDefinition {
  /** File name without .json (filled in by the loader). */
  name: string;
  title: string;
  /** Title while creating a new document (panels). */
  titleNew?: string;
  /** Hash route where the screen appears, e.g. "/login" or "/settings/admins". */
  route: string;
  /**
   * "page" (default), "panel" (an overlay opened from `route`) or "section" (a form card placed
   * inside a hand-written page, e.g. the backups options under the backups list).
   */
  kind?: 'page' | 'panel' | 'section';
  breadcrumb?: string[];
  /** API path loaded before the form shows (GET). */
  load?: string;
  sections: ScreenSection[];
  actions?: ScreenAction[];
  check?: ScreenCheck;
}

const METHODS = new Set(['GET', 'POST', 'PATCH', 'PUT', 'DELETE']);

function fail(name: string, msg: string): never {
  throw new Error(`screens/${name}.json: ${msg}`);
}

/** Every key a screen file may hold, per level: a key nothing reads is an error, not a note. */
const KEYS = {
  screen: ['title', 'titleNew', 'route', 'kind', 'breadcrumb', 'load', 'sections', 'actions', 'check'],
  section: ['schema', 'ui', 'bind', 'title'],
  action: ['id', 'label', 'labelNew', 'method', 'path', 'confirm', 'success', 'successNew', 'error', 'body', 'timeout', 'timeoutMessage', 'show', 'opens', 'pass', 'result', 'set'],
  check: ['name', 'method', 'path', 'body', 'when', 'delay', 'timeout', 'ok', 'failed', 'checking', 'timeoutMessage', 'savedButFailed'],
} as const;

function knownKeys(name: string, obj: Record<string, unknown>, level: keyof typeof KEYS, where: string): void {
  const known: readonly string[] = KEYS[level];
  const unknown = Object.keys(obj).filter((k) => !known.includes(k));
  if (unknown.length) fail(name, `${where}has unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}`);
}

function optString(name: string, obj: Record<string, unknown>, key: string): void {
  if (obj[key] !== undefined && typeof obj[key] !== 'string') fail(name, `"${key}" must be a string`);
}

function isNameMap(value: unknown): boolean {
  return isObject(value) && Object.values(value).every((v) => typeof v === 'string');
}

/** `pass` and `result` map field names and need `opens`; `set` is a document. */
function checkActionMaps(name: string, act: Record<string, unknown>, i: number): void {
  for (const key of ['pass', 'result'] as const) {
    if (act[key] === undefined) continue;
    if (!isNameMap(act[key])) fail(name, `actions[${i}].${key} must map field names to field names`);
    if (typeof act.opens !== 'string') fail(name, `actions[${i}].${key} needs "opens"`);
  }
  if (act.set !== undefined && !isObject(act.set)) fail(name, `actions[${i}].set must be an object`);
}

/**
 * Actions a form may add to a template screen (a provider's UI schema root `ui:options.actions`,
 * e.g. Apple's client secret generator): the same shape and checks as a screen file's actions.
 */
export function parseExtraActions(where: string, raw: unknown): ScreenAction[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new Error(`${where}: "actions" must be a list`);
  try {
    return parseScreen(where, { title: where, route: '/', sections: [{ schema: where }], actions: raw }).actions ?? [];
  } catch (err) {
    throw new Error(String((err as Error).message).replace(`screens/${where}.json`, where));
  }
}

/** Checks a parsed screens/*.json document and returns it typed; throws with the file name on errors. */
export function parseScreen(name: string, raw: unknown): ScreenDefinition {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) fail(name, 'must be an object');
  const doc = raw as Record<string, unknown>;
  knownKeys(name, doc, 'screen', '');
  if (typeof doc.title !== 'string' || !doc.title) fail(name, '"title" is required');
  if (typeof doc.route !== 'string' || !doc.route.startsWith('/')) fail(name, '"route" must start with "/"');
  ['titleNew', 'load'].forEach((k) => optString(name, doc, k));
  if (doc.kind !== undefined && doc.kind !== 'page' && doc.kind !== 'panel' && doc.kind !== 'section') {
    fail(name, '"kind" must be "page", "panel" or "section"');
  }
  if (doc.breadcrumb !== undefined && (!Array.isArray(doc.breadcrumb) || doc.breadcrumb.some((b) => typeof b !== 'string'))) {
    fail(name, '"breadcrumb" must be a list of strings');
  }
  if (!Array.isArray(doc.sections) || doc.sections.length === 0) fail(name, '"sections" must be a non-empty list');
  doc.sections.forEach((s, i) => {
    if (!s || typeof s !== 'object' || typeof (s as ScreenSection).schema !== 'string') fail(name, `sections[${i}].schema is required`);
    knownKeys(name, s as Record<string, unknown>, 'section', `sections[${i}] `);
    ['ui', 'bind', 'title'].forEach((k) => optString(name, s as Record<string, unknown>, k));
  });
  if (doc.actions !== undefined) {
    if (!Array.isArray(doc.actions)) fail(name, '"actions" must be a list');
    doc.actions.forEach((a, i) => {
      const act = a as Record<string, unknown>;
      if (!a || typeof a !== 'object' || typeof act.id !== 'string' || typeof act.label !== 'string') {
        fail(name, `actions[${i}] needs "id" and "label"`);
      }
      knownKeys(name, act, 'action', `actions[${i}] `);
      if (act.method !== undefined && !METHODS.has(String(act.method))) fail(name, `actions[${i}].method is not an HTTP method`);
      ['labelNew', 'path', 'confirm', 'success', 'successNew', 'error', 'timeoutMessage', 'opens'].forEach((k) => optString(name, act, k));
      if (act.show !== undefined && act.show !== 'dirty' && act.show !== 'clean') fail(name, `actions[${i}].show must be "dirty" or "clean"`);
      if (act.timeout !== undefined && typeof act.timeout !== 'number') fail(name, `actions[${i}].timeout must be a number`);
      checkActionMaps(name, act, i);
    });
  }
  if (doc.check !== undefined) {
    const c = doc.check as Record<string, unknown>;
    if (!c || typeof c !== 'object' || typeof c.path !== 'string' || typeof c.ok !== 'string' || typeof c.failed !== 'string') {
      fail(name, '"check" needs "path", "ok" and "failed"');
    }
    knownKeys(name, c, 'check', 'check ');
    if (!METHODS.has(String(c.method))) fail(name, 'check.method is not an HTTP method');
    ['name', 'when', 'checking', 'timeoutMessage', 'savedButFailed'].forEach((k) => optString(name, c, k));
  }
  return { ...(doc as unknown as ScreenDefinition), name };
}

/** The name a screen's check goes by in UI schemas (`statusLabel`'s `check` option). */
export const checkName = (screen: ScreenDefinition): string => screen.check?.name ?? screen.name;

/** The forms a screen names (schema and UI schema names), for checks and docs. */
export function screenForms(screen: ScreenDefinition, forms: readonly string[] = []): { schema: string; ui: string }[] {
  return screen.sections.flatMap((s) => {
    if (!isTemplate(s.schema)) return [{ schema: s.schema, ui: s.ui ?? s.schema }];
    // a template section stands for every form its pattern matches (none when no list is given)
    return templateMatches(s.schema, forms).map((vars) => {
      const schema = fillTemplate(s.schema, vars);
      return { schema, ui: s.ui ? fillTemplate(s.ui, vars) : schema };
    });
  });
}

/**
 * Screen templates: a section schema like `providers/{name}` makes the screen stand for every form
 * under schemas/providers/ (one provider popup for all provider files). `{name}` is the form's last
 * path part, `{title}` its schema title; instantiateScreen fills them everywhere in the screen.
 */
const isTemplate = (text: string) => text.includes('{name}');

export function fillTemplate(text: string, vars: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (m, key: string) => (Object.hasOwn(vars, key) ? vars[key] : m));
}

function templateMatches(pattern: string, forms: readonly string[]): Record<string, string>[] {
  const [prefix, suffix] = pattern.split('{name}');
  return forms
    .filter((f) => f.startsWith(prefix) && f.endsWith(suffix) && !f.slice(prefix.length, f.length - suffix.length).includes('/'))
    .map((f) => ({ name: f.slice(prefix.length, f.length - suffix.length) }));
}

/** The screen for one form of a template screen: `{name}`, `{title}`, … filled in its texts. */
export function instantiateScreen(screen: ScreenDefinition, vars: Record<string, string>): ScreenDefinition {
  return JSON.parse(JSON.stringify(screen), (_key, value: unknown) => (typeof value === 'string' ? fillTemplate(value, vars) : value)) as ScreenDefinition;
}

/** An action by id; throws when a screen file lost it, so a typo fails loudly. */
export function screenAction(screen: ScreenDefinition, id: string): ScreenAction {
  const action = screen.actions?.find((a) => a.id === id);
  if (!action) throw new Error(`screens/${screen.name}.json has no action "${id}"`);
  return action;
}

/**
 * Property names a section's schema declares at its top level, across conditional branches
 * (if/then/else, allOf/anyOf/oneOf, dependencies): the keys of the document a whole-document
 * section edits (the dashboard's save and the server's PATCH /api/settings validation).
 */
export function declaredNames(schema: Record<string, unknown>): Set<string> {
  const names = new Set<string>();
  const visit = (s: unknown) => {
    if (!isObject(s)) return;
    if (isObject(s.properties)) Object.keys(s.properties).forEach((k) => names.add(k));
    ['then', 'else'].forEach((k) => visit(s[k]));
    ['allOf', 'anyOf', 'oneOf'].forEach((k) => (Array.isArray(s[k]) ? (s[k] as unknown[]).forEach(visit) : undefined));
    if (isObject(s.dependencies)) Object.values(s.dependencies).forEach(visit);
  };
  visit(schema);
  return names;
}
