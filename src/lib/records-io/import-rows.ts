/**
 * Records import, the pure part: which columns map to which fields (matched by name, unknown
 * columns ignored), how a cell becomes a value (booleans and numbers cast as PocketBase 0.22 casts
 * multipart form values, lists from JSON arrays or comma-separated text), and each row judged
 * against the collection's record schema (src/lib/record-schema.ts, the same rules the editor and
 * the server use) before anything is written.
 *
 * Pure module: no React, no DOM, no ajv (the caller passes a compiled validator in).
 */
import type { CollectionModel } from '../collections/types';
import {
  isMultiple,
  recordDataSchema,
  recordSchemaErrors,
  REQUIRED_CODE,
  REQUIRED_MESSAGE,
  withoutEmptyValues,
  type JsonSchema,
  type RecordFieldError,
} from '../record-schema';
import type { SchemaError } from '../schema/error-tree';

/** Rows written per batch (the unit Cancel stops between). */
export const IMPORT_BATCH_SIZE = 100;
/** Requests of one batch in flight at once. */
export const IMPORT_CONCURRENCY = 4;
/** Rows shown in the preview. */
export const IMPORT_PREVIEW_ROWS = 5;

export type RawRow = Record<string, unknown>;

export interface ImportTarget {
  name: string;
  type: string;
  field: CollectionModel['schema'][number] | null;
}

/** What a column maps to: a target name, or '' (ignored). */
export type ColumnMapping = Record<string, string>;

/** The fields an import may write: id, the auth fields, and every schema field but files. */
export function importTargets(collection: Pick<CollectionModel, 'type' | 'schema'>): ImportTarget[] {
  const out: ImportTarget[] = [{ name: 'id', type: 'text', field: null }];
  if (collection.type === 'auth') {
    for (const n of ['username', 'email', 'password']) out.push({ name: n, type: 'text', field: null });
    for (const n of ['emailVisibility', 'verified']) out.push({ name: n, type: 'bool', field: null });
  }
  for (const f of collection.schema ?? []) if (f.type !== 'file' && f.name) out.push({ name: f.name, type: f.type, field: f });
  return out;
}

/** Each column mapped to the target of the same name (case-insensitive), else ignored. */
export function autoMapping(columns: readonly string[], targets: readonly ImportTarget[]): ColumnMapping {
  const byName = new Map(targets.map((t) => [t.name.toLowerCase(), t.name]));
  const used = new Set<string>();
  const out: ColumnMapping = {};
  for (const c of columns) {
    const t = byName.get(c.trim().toLowerCase()) ?? '';
    out[c] = t && !used.has(t) ? t : '';
    if (t) used.add(t);
  }
  return out;
}

const GO_FLOAT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Go's cast.ToFloat64 of a form value (unparsable text is 0, as 0.22's multipart casting). */
export function castNumber(v: unknown): number {
  let n = 0;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'boolean') n = v ? 1 : 0;
  else if (typeof v === 'string') n = GO_FLOAT.test(v.trim()) ? Number(v.trim()) : 0;
  return Number.isFinite(n) ? n : 0;
}

/** Go's cast.ToBool of a form value (strconv.ParseBool's true words; anything else is false). */
export function castBool(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v.trim());
  return false;
}

/** A list from a JSON array, an array, or comma-separated text (blank items dropped). */
export function castList(v: unknown): string[] {
  if (Array.isArray(v)) return v.map((x) => String(x)).filter((x) => x !== '');
  if (v === null || v === undefined) return [];
  const s = String(v).trim();
  if (s.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(s);
      if (Array.isArray(parsed)) return parsed.map((x) => String(x)).filter((x) => x !== '');
    } catch {
      /* not JSON: read it as comma-separated text */
    }
  }
  return s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
}

/**
 * A json field's cell as the raw JSON text the record schema and the server read (the server keeps
 * valid JSON and stores other text as a JSON string); an empty cell is null, a JSON file's value
 * its JSON text.
 */
function castJson(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string') return JSON.stringify(v);
  return v.trim() === '' ? null : v;
}

/** One cell as the value a field takes. */
function castCell(target: ImportTarget, v: unknown): unknown {
  switch (target.type) {
    case 'number':
      return castNumber(v);
    case 'bool':
      return castBool(v);
    case 'json':
      return castJson(v);
    case 'select':
    case 'relation': {
      const list = castList(v);
      return target.field && isMultiple(target.field) ? list : (list[0] ?? '');
    }
    default:
      return v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
}

/** A row's record data through the mapping (an empty id is left out: the server makes one). */
export function rowData(row: RawRow, mapping: ColumnMapping, targets: readonly ImportTarget[]): Record<string, unknown> {
  const byName = new Map(targets.map((t) => [t.name, t]));
  const data: Record<string, unknown> = {};
  for (const [column, name] of Object.entries(mapping)) {
    const t = name ? byName.get(name) : undefined;
    if (!t) continue;
    const value = castCell(t, row[column]);
    if (t.name === 'id' && value === '') continue;
    data[t.name] = value;
  }
  if (typeof data.password === 'string' && data.password !== '') data.passwordConfirm = data.password;
  return data;
}

/** A compiled validator of `recordDataSchema` (ajv's ValidateFunction fits). */
export interface DataValidator {
  (data: unknown): boolean;
  errors?: readonly SchemaError[] | null;
}

export interface RowJudge {
  schema: JsonSchema;
  /** The field errors of a row's data (empty: valid). */
  errors(data: Record<string, unknown>): Record<string, RecordFieldError>;
}

/** Judges rows with the record schema; `compile` turns a JSON Schema into a validator (ajv). */
export function rowJudge(collection: Pick<CollectionModel, 'type' | 'schema'>, compile: (schema: JsonSchema) => DataValidator): RowJudge {
  const schema = recordDataSchema(collection);
  const validate = compile(schema);
  return {
    schema,
    errors(data) {
      const present = withoutEmptyValues(data);
      const out = validate(present) ? {} : recordSchemaErrors(schema, validate.errors ?? [], present);
      // a new auth record needs a password (an update by id does not: the server judges that)
      if (collection.type === 'auth' && !data.id && !data.password) out.password = { code: REQUIRED_CODE, message: REQUIRED_MESSAGE };
      return out;
    },
  };
}

/** Field errors as one line: `title: Missing required value.; views: …`. */
export function errorsText(errors: Record<string, { message?: unknown } | undefined>): string {
  return Object.entries(errors)
    .map(([k, e]) => `${k}: ${String(e?.message ?? 'Invalid value.')}`)
    .join('; ');
}

/** The reason an API error gives: its field errors, else its message. */
export function apiErrorText(err: unknown): string {
  const resp = (err as { response?: { message?: unknown; data?: unknown } })?.response;
  const data = resp?.data;
  if (data && typeof data === 'object' && Object.keys(data).length) return errorsText(data as Record<string, { message?: unknown }>);
  const msg = resp?.message ?? (err as { message?: unknown })?.message;
  return typeof msg === 'string' && msg ? msg : 'Request failed.';
}

/** The columns of parsed rows, in first-seen order (JSON objects may differ in keys). */
export function columnsOf(rows: readonly RawRow[], limit = 1000): string[] {
  const seen = new Set<string>();
  for (const r of rows.slice(0, limit)) for (const k of Object.keys(r)) seen.add(k);
  return [...seen];
}

/** Parses a JSON import: an array of objects (or one object). Throws with a readable message. */
export function parseJsonRows(text: string): RawRow[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('The file is not valid JSON.');
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  if (!list.every((r) => r && typeof r === 'object' && !Array.isArray(r))) throw new Error('The JSON file must hold an array of objects.');
  return list as RawRow[];
}
