/**
 * The words of the schema, UI schema and screen files (schemas/, screens/), which are the source
 * language's words as they stand: a translation is keyed by the file and the JSON pointer of the
 * word ("schemas/settings/smtp.schema.json#/then/properties/host/title"), and `localizeFile` puts
 * a catalog's words in place when the engine loads the file. Maintainers keep editing the files;
 * the contract tests report a word no language translates (or marks as falling back) and a
 * translation whose word is gone.
 *
 * Pure module: no React, no DOM; shared by the engine, the docs generator and the tests.
 */
import type { Catalog } from './catalog';

type FileKind = 'schema' | 'ui' | 'screen';

/** The kind of a file by its id (its path from the project root). */
function fileKindOf(fileId: string): FileKind {
  if (fileId.endsWith('.ui.json')) return 'ui';
  if (fileId.startsWith('screens/')) return 'screen';
  return 'schema';
}

// Maps whose keys are names (of properties, definitions), not keywords.
const SCHEMA_NAME_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependencies']);
// Values (defaults, examples), never words.
const SCHEMA_VALUES = new Set(['default', 'examples', 'const', 'enum']);
const SCHEMA_MESSAGE_MAPS = new Set(['x-messages', 'x-form-messages']);
const UI_WORDS = new Set(['ui:help', 'ui:placeholder', 'ui:title', 'ui:description', 'collapsible', 'changeWarning', 'hint', 'toggle', 'badge']);
const UI_LABELLED_LISTS = new Set(['actions', 'presets']);
const SCREEN_WORDS = new Set([
  'title', 'titleNew', 'label', 'labelNew', 'confirm', 'success', 'successNew', 'error',
  'timeoutMessage', 'ok', 'failed', 'checking', 'savedButFailed',
]);
// Screen parts that are data sent or read, never words.
const SCREEN_DATA = new Set(['body', 'set', 'pass', 'result']);

function isWord(kind: FileKind, path: readonly string[]): boolean {
  const last = path[path.length - 1];
  const parent = path[path.length - 2];
  if (kind === 'schema') {
    if (path.some((p) => SCHEMA_VALUES.has(p))) return false;
    if (parent !== undefined && SCHEMA_MESSAGE_MAPS.has(parent)) return true;
    if (last !== 'title' && last !== 'description') return false;
    // the root description is the maintainers' note (docs/forms), not a word the dashboard shows
    if (path.length === 1 && last === 'description') return false;
    return parent === undefined || !SCHEMA_NAME_MAPS.has(parent);
  }
  if (kind === 'ui') {
    if (parent === 'ui:enumNames') return true;
    if (last === 'label' && UI_LABELLED_LISTS.has(path[path.length - 3] ?? '')) return true;
    return UI_WORDS.has(last);
  }
  if (path.some((p) => SCREEN_DATA.has(p))) return false;
  return parent === 'breadcrumb' || SCREEN_WORDS.has(last);
}

const escapeSegment = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const pointerOf = (path: readonly string[]) => path.map((p) => `/${escapeSegment(p)}`).join('');

export interface FileWord {
  /** `<fileId>#<JSON pointer>` */
  key: string;
  text: string;
}

/** Every word of a file, in document order. */
export function wordsOf(fileId: string, json: unknown): FileWord[] {
  const kind = fileKindOf(fileId);
  const out: FileWord[] = [];
  const walk = (node: unknown, path: string[]) => {
    if (typeof node === 'string') {
      if (path.length && isWord(kind, path) && /\p{L}/u.test(node)) out.push({ key: `${fileId}#${pointerOf(path)}`, text: node });
    } else if (Array.isArray(node)) node.forEach((v, i) => walk(v, [...path, String(i)]));
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, [...path, k]);
  };
  walk(json, []);
  return out;
}

/**
 * A copy of a file with the catalog's words in place (a word the catalog lacks or marks null keeps
 * the source words; `missing` hears of a lacking one). Returns the file itself when nothing changes.
 */
export function localizeFile<T>(fileId: string, json: T, catalog: Catalog | undefined, missing?: (key: string) => void): T {
  if (!catalog) return json;
  const kind = fileKindOf(fileId);
  const walk = (node: unknown, path: string[]): unknown => {
    if (typeof node === 'string') {
      if (!path.length || !isWord(kind, path) || !/\p{L}/u.test(node)) return node;
      const key = `${fileId}#${pointerOf(path)}`;
      const text = catalog[key];
      if (text === undefined) missing?.(key);
      return typeof text === 'string' ? text : node;
    }
    if (Array.isArray(node)) {
      const next = node.map((v, i) => walk(v, [...path, String(i)]));
      return next.some((v, i) => v !== node[i]) ? next : node;
    }
    if (node && typeof node === 'object') {
      let changed = false;
      const next: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node)) {
        next[k] = walk(v, [...path, k]);
        if (next[k] !== v) changed = true;
      }
      return changed ? next : node;
    }
    return node;
  };
  return walk(json, []) as T;
}

const ANNOTATION_WORDS = new Set(['title', 'description']);
const MESSAGE_MAPS = new Set(['x-messages', 'x-form-messages']);
const strippedCache = new WeakMap<object, unknown>();

/**
 * A schema without its words (titles, descriptions, x-messages): what validation depends on. The
 * validators compiled at build time are compiled from it and looked up by it (rjsf finds a
 * sub-schema's function by a hash of the sub-schema), so a schema in any language finds them.
 */
export function withoutWords<T>(schema: T): T {
  const walk = (node: unknown, nameMap: boolean): unknown => {
    if (Array.isArray(node)) return node.map((v) => walk(v, false));
    if (!node || typeof node !== 'object') return node;
    const cached = nameMap ? undefined : strippedCache.get(node);
    if (cached) return cached;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (!nameMap && (MESSAGE_MAPS.has(k) || (ANNOTATION_WORDS.has(k) && typeof v === 'string'))) continue;
      // a value (default, const, enum, examples) is data and kept whole
      out[k] = !nameMap && SCHEMA_VALUES.has(k) ? v : walk(v, !nameMap && SCHEMA_NAME_MAPS.has(k));
    }
    if (!nameMap) strippedCache.set(node, out);
    return out;
  };
  return walk(schema, false) as T;
}
