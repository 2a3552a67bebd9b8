// Pure display helpers of the records list and preview:
// truncation, excerpts, relation chips, file thumbs, the list query's fields/expand and the
// searchable fields of a collection. No DOM, no SDK: unit-tested in tests/unit/records-list-format.

import { fieldDefinition } from '../../fields/registry';
import { toList } from '../../fields/shared/lists';
import { systemFieldNames } from '../collections/fields';
import type { CollectionModel, SchemaField } from '../collections/types';

/** Normalises single/multiple values to a list of non-empty items. */
export { toList };

export type RecordLike = Record<string, unknown> & { id?: string; collectionId?: string; expand?: Record<string, unknown> };
type Lite = Pick<CollectionModel, 'id' | 'name' | 'type' | 'schema'>;

// ---- list constants -------------------------------------------------------------------------

export const RECORDS_PER_PAGE = 40;
export const RECORDS_RENDER_BATCH = 20;
export const RECORDS_BULK_BATCH = 20;
export const TRUNCATE_DEFAULT = 150;
export const TRUNCATE_TOOLTIP = 800;
const TRUNCATE_TEXT = 70;
const EXCERPT_MAX = 200;
export const JSON_PREVIEW_MAX = 500;
export const MAX_RELATION_CHIPS = 20;
export const MAX_LIST_ITEMS = 10;
export const MAX_SKELETON_ROWS = 10;
export const DEFAULT_THUMB = '100x100';

// ---- text -----------------------------------------------------------------------------------

/** Cuts `text` to `max` characters (code points), adding '...' when it was cut. */
export function truncate(text: unknown, max = TRUNCATE_DEFAULT, ellipsis = true): string {
  const s = text === null || text === undefined ? '' : String(text);
  const chars = Array.from(s);
  if (chars.length <= max) return s;
  return chars.slice(0, max).join('').trimEnd() + (ellipsis ? '...' : '');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Plain text of an HTML fragment: scripts/styles dropped, tags stripped, entities decoded, spaces collapsed. */
export function plainText(html: unknown): string {
  if (html === null || html === undefined) return '';
  return String(html)
    .replace(/<(script|style|template)[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<\/?(p|div|br|li|ul|ol|h[1-6]|blockquote|pre|tr|td|th|table)\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
      if (body[0] === '#') {
        const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[body.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** Compact JSON of a json field value (undefined/null → 'null'), cut to `max` characters. */
export function jsonExcerpt(value: unknown, max = TRUNCATE_DEFAULT): string {
  let s: string;
  try {
    s = JSON.stringify(value === undefined ? null : value) ?? 'null';
  } catch {
    s = String(value);
  }
  return truncate(s, max);
}

/** True for the values a cell shows as 'N/A': null, undefined, '', [] (and {} for json is shown as is). */
export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/** The first `max` items and how many were left out. */
export function limitList<T>(items: readonly T[], max: number): { shown: T[]; more: number } {
  return { shown: items.slice(0, max), more: Math.max(0, items.length - max) };
}

// ---- relations ------------------------------------------------------------------------------

/** The presentable field names of a collection (the auth `username`/`email` fall back after them). */
export function presentableFields(collection: Pick<CollectionModel, 'schema' | 'type'> | undefined | null): string[] {
  if (!collection) return [];
  return (collection.schema ?? []).filter((f) => f.presentable && !f.toDelete).map((f) => f.name);
}

/**
 * The text a relation chip shows for an expanded record: its presentable fields joined with ', '
 * (HTML stripped, each cut to 70 characters), else its id.
 */
export function relationLabel(record: RecordLike | null | undefined, target: Pick<CollectionModel, 'schema' | 'type'> | undefined | null): string {
  if (!record) return '';
  const values: string[] = [];
  for (const name of presentableFields(target)) {
    const v = record[name];
    for (const item of toList(v)) {
      const text = typeof item === 'object' ? jsonExcerpt(item, TRUNCATE_TEXT) : truncate(plainText(item), TRUNCATE_TEXT);
      if (text) values.push(text);
    }
  }
  return values.length ? values.join(', ') : String(record.id ?? '');
}

/** The relation chips of a record's field: expanded records first (in id order), missing ids as plain ids. */
export function relationChips(
  record: RecordLike,
  field: Pick<SchemaField, 'name' | 'options'>,
  target: Pick<CollectionModel, 'schema' | 'type'> | undefined | null,
): Array<{ id: string; label: string; missing: boolean }> {
  const ids = toList<string>(record[field.name]).map(String);
  const expanded = toList<RecordLike>(record.expand?.[field.name]);
  const byId = new Map(expanded.map((r) => [String(r.id), r]));
  return ids.map((id) => {
    const r = byId.get(id);
    return r ? { id, label: relationLabel(r, target), missing: false } : { id, label: id, missing: true };
  });
}

// ---- files ----------------------------------------------------------------------------------

const IMAGE_EXT = /\.(jpe?g|png|gif|webp|svg|bmp|avif|ico)$/i;
const THUMB_EXT = /\.(jpe?g|png|gif|webp)$/i;

export type FileKind = 'image' | 'video' | 'audio' | 'document' | 'file';

export function fileKind(name: string): FileKind {
  if (IMAGE_EXT.test(name)) return 'image';
  if (/\.(mp4|webm|ogv|mov|mkv|avi|m4v)$/i.test(name)) return 'video';
  if (/\.(mp3|wav|ogg|flac|m4a|aac)$/i.test(name)) return 'audio';
  if (/\.(pdf|docx?|xlsx?|pptx?|odt|ods|txt|csv|md|rtf)$/i.test(name)) return 'document';
  return 'file';
}

/** Whether the server can make a thumb of the file (the formats sharp reads). */
export const hasThumb = (name: string): boolean => THUMB_EXT.test(name);

/** '/api/files/{collectionId}/{recordId}/{name}?thumb=100x100&token=…' against `baseUrl`. */
export function fileUrl(
  baseUrl: string,
  collectionId: string,
  recordId: string,
  name: string,
  opts: { thumb?: string; token?: string } = {},
): string {
  const base = baseUrl.replace(/\/+$/, '');
  const qs = new URLSearchParams();
  if (opts.thumb) qs.set('thumb', opts.thumb);
  if (opts.token) qs.set('token', opts.token);
  const q = qs.toString();
  return `${base}/api/files/${encodeURIComponent(collectionId)}/${encodeURIComponent(recordId)}/${encodeURIComponent(name)}${q ? '?' + q : ''}`;
}

/** Whether a cached file token is still usable at `nowMs` (refreshed within 10 s of expiry). */
export function fileTokenValid(token: { token: string; exp: number } | null | undefined, nowMs: number, marginSec = 10): boolean {
  if (!token?.token) return false;
  return token.exp * 1000 - marginSec * 1000 > nowMs;
}

// ---- the list query -------------------------------------------------------------------------

/** `expand` of the records list: every relation field. '' when there is none. */
export function listExpand(collection: Pick<CollectionModel, 'schema'>): string {
  return (collection.schema ?? []).filter((f) => fieldDefinition(f.type).expandable && !f.toDelete).map((f) => f.name).join(',');
}

/** `fields` of the records list: everything, with editor fields and expanded relations cut to excerpt(200). */
export function listFields(collection: Pick<CollectionModel, 'schema'>): string {
  const fields = ['*'];
  for (const f of collection.schema ?? []) {
    if (f.toDelete) continue;
    const def = fieldDefinition(f.type);
    if (def.list?.excerpt) fields.push(`${f.name}:excerpt(${EXCERPT_MAX})`);
    if (def.expandable) fields.push(`expand.${f.name}.*:excerpt(${EXCERPT_MAX})`);
  }
  return fields.join(',');
}

/**
 * The fields a plain search term is matched against: id, the auth username and email,
 * and every field holding text (text, editor, email, url, select, relation ids, json, file names).
 */
export function searchableFields(collection: Lite): string[] {
  const out: string[] = ['id'];
  if (collection.type === 'auth') out.push('username', 'email');
  for (const f of collection.schema ?? []) {
    if (!f.toDelete && f.name && fieldDefinition(f.type).list?.searchable && !out.includes(f.name)) out.push(f.name);
  }
  return out;
}

// ---- columns and sort -----------------------------------------------------------------------

/** A records list column; `zoned`: its values are instants (the header names the dates' zone). */
export type ColumnDef = { name: string; type: string; field: SchemaField | null; sortable: boolean; zoned?: boolean };

/** id first, the auth columns, the schema fields in order, then created and updated (views: as their schema says). */
export function recordColumns(collection: Pick<CollectionModel, 'schema' | 'type'>): ColumnDef[] {
  const schema = (collection.schema ?? []).filter((f) => !f.toDelete && f.name);
  const cols: ColumnDef[] = [{ name: 'id', type: 'primary', field: null, sortable: true }];
  if (collection.type === 'auth') {
    cols.push({ name: 'username', type: 'text', field: null, sortable: true });
    cols.push({ name: 'email', type: 'email', field: null, sortable: true });
  }
  for (const f of schema) {
    if (f.name === 'id') continue;
    const list = fieldDefinition(f.type).list;
    cols.push({ name: f.name, type: f.type, field: f, sortable: !list?.unsortable, zoned: !!list?.instants });
  }
  if (collection.type === 'auth') cols.push({ name: 'verified', type: 'bool', field: null, sortable: true });
  if (collection.type !== 'view') {
    const sys = systemFieldNames(collection.type);
    for (const n of ['created', 'updated']) if (sys.includes(n)) cols.push({ name: n, type: 'date', field: null, sortable: true, zoned: true });
  }
  return cols;
}

/** The header cycle: '-name' → '+name' → '-name'; another column starts at '-name'. */
export function nextRecordsSort(current: string, name: string): string {
  return current === '-' + name ? '+' + name : '-' + name;
}

/** 'descending' | 'ascending' | 'none' for a column against a sort text (first key only). */
export function sortState(sort: string, name: string): 'descending' | 'ascending' | 'none' {
  const first = (sort || '').split(',')[0]?.trim() ?? '';
  if (first === '-' + name) return 'descending';
  if (first === '+' + name || first === name) return 'ascending';
  return 'none';
}

/** The localStorage key of a collection's hidden columns. */
export const hiddenColumnsKey = (collectionId: string): string => `${collectionId}@hiddenColumns`;

export function parseHiddenColumns(raw: string | null | undefined): string[] {
  if (!raw) return [];
  try {
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}
