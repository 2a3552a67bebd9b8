// Parsing and normalising a pasted collections configuration: the JSON must be
// an array whose every item has an id and a name; duplicate collections (by id) and duplicate
// schema fields are dropped (the last one wins, in the first one's place, like the server);
// created and updated are stripped.

export type ImportField = { id?: string; name?: string; type?: string; [key: string]: unknown };

export type ImportCollection = {
  id: string;
  name: string;
  type?: string;
  schema?: unknown;
  [key: string]: unknown;
};

export const INVALID_CONFIG_MESSAGE = 'Invalid collections configuration.';

/** Keys the server sets itself: never part of an export nor compared on import. */
import { isObject } from '../json';
const TIMESTAMP_KEYS = ['created', 'updated'] as const;

export type ParseResult =
  | { ok: true; collections: ImportCollection[] }
  | { ok: false; empty: boolean; error: string };

const nonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** Keeps one entry per key: the last one wins, in the position of the first one. */
function dedupeBy<T>(items: readonly T[], key: (item: T, index: number) => string): T[] {
  const map = new Map<string, T>();
  items.forEach((item, i) => map.set(key(item, i), item));
  return [...map.values()];
}

/** A field's identity: its id, else its name (fields without either are kept apart). */
function fieldKey(f: unknown, i: number): string {
  if (isObject(f)) {
    if (nonEmptyString(f.id)) return 'id:' + f.id;
    if (nonEmptyString(f.name)) return 'name:' + f.name;
  }
  return 'index:' + i;
}

/** The schema fields of a collection (an empty list when the schema is not an array). */
export function fieldsOf(c: { schema?: unknown } | null | undefined): ImportField[] {
  return Array.isArray(c?.schema) ? (c.schema as ImportField[]) : [];
}

/** A copy without created/updated and with duplicate schema fields dropped. */
function normalizeCollection(raw: Record<string, unknown>): ImportCollection {
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    if ((TIMESTAMP_KEYS as readonly string[]).includes(k)) continue;
    copy[k] = v;
  }
  if (Array.isArray(copy.schema)) copy.schema = dedupeBy(copy.schema as unknown[], fieldKey);
  return copy as ImportCollection;
}

/** Same as normalizeCollection for a list already known to be valid (e.g. loaded from the server). */
export function stripTimestamps<T extends Record<string, unknown>>(list: readonly T[]): ImportCollection[] {
  return list.map((c) => normalizeCollection(c));
}

/** Parses the textarea content. An empty text is invalid too (with `empty` set). */
export function parseCollectionsJson(text: string): ParseResult {
  if (text.trim() === '') return { ok: false, empty: true, error: INVALID_CONFIG_MESSAGE };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, empty: false, error: INVALID_CONFIG_MESSAGE };
  }
  return validateCollectionsList(data);
}

/** Checks an already parsed value: a non-empty array of objects, each with an id and a name. */
export function validateCollectionsList(data: unknown): ParseResult {
  const invalid: ParseResult = { ok: false, empty: false, error: INVALID_CONFIG_MESSAGE };
  if (!Array.isArray(data) || data.length === 0) return invalid;
  for (const item of data) {
    if (!isObject(item) || !nonEmptyString(item.id) || !nonEmptyString(item.name)) return invalid;
  }
  const unique = dedupeBy(data as Record<string, unknown>[], (c) => String(c.id));
  return { ok: true, collections: unique.map(normalizeCollection) };
}
