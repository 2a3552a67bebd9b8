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
import { fieldDefinition } from '../../fields/registry';
import { cellText } from '../../fields/shared/text-like';
import {
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
  for (const f of collection.schema ?? []) if (!fieldDefinition(f.type).uploads && f.name) out.push({ name: f.name, type: f.type, field: f });
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

export { boolCell as castBool } from '../../fields/bool/field';
export { numberCell as castNumber } from '../../fields/number/field';
export { castList } from '../../fields/shared/lists';

/** One cell as the value a field takes (its type's import conversion; text by default). */
function castCell(target: ImportTarget, v: unknown): unknown {
  const field = { name: target.name, type: target.type, required: false, ...target.field, options: target.field?.options ?? {} };
  const cast = fieldDefinition(target.type).io.importCell;
  return cast ? cast(v, field) : cellText(v);
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

/** What a reason says when the error says nothing (the page gives them in its language). */
export interface FallbackWords {
  invalid: string;
  failed: string;
}
const ENGLISH: FallbackWords = { invalid: 'Invalid value.', failed: 'Request failed.' };

/** Field errors as one line: `title: Missing required value.; views: …`. */
export function errorsText(errors: Record<string, { message?: unknown } | undefined>, words: FallbackWords = ENGLISH): string {
  return Object.entries(errors)
    .map(([k, e]) => `${k}: ${String(e?.message ?? words.invalid)}`)
    .join('; ');
}

/** The reason an API error gives: its field errors, else its message. */
export function apiErrorText(err: unknown, words: FallbackWords = ENGLISH): string {
  const resp = (err as { response?: { message?: unknown; data?: unknown } })?.response;
  const data = resp?.data;
  if (data && typeof data === 'object' && Object.keys(data).length) return errorsText(data as Record<string, { message?: unknown }>, words);
  const msg = resp?.message ?? (err as { message?: unknown })?.message;
  return typeof msg === 'string' && msg ? msg : words.failed;
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
