// Record values as PocketBase 0.22 normalises them (models/schema SchemaField.PrepareValue and
// PrepareValueWithModifier, models.Record.ReplaceModifers): one normalised form per field type,
// used for values read from the database and values submitted by a client alike.
//
//   text, editor, email, url, date   string ('' when empty; dates as 2006-01-02 15:04:05.000Z)
//   number                           finite number (0 when empty)
//   bool                             boolean
//   select, file, relation           single: string ('' when empty); multiple: string[] (unique)
//   json                             raw JSON text, or null (stored as NULL)
import type { Collection, SchemaField } from '../collections/model';
import { isMultiple } from '../collections/normalize';
import { normalizeDateTime } from '../collections/normalize';
import { toUniqueStrings } from '../query/record-request';

export { toUniqueStrings };

export type RecordData = Record<string, unknown>;

/** Go's cast.ToString for the JSON-ish values a request can carry. */
export function castString(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? formatGoFloat(v) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'bigint') return v.toString();
  return '';
}

/** strconv.FormatFloat(f, 'f', -1, 64): no exponent. */
function formatGoFloat(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  const s = String(n);
  if (!/e/i.test(s)) return s;
  return n.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}

const GO_FLOAT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Go's cast.ToFloat64 (non-finite results count as 0). */
function castNumber(v: unknown): number {
  let n = 0;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'boolean') n = v ? 1 : 0;
  else if (typeof v === 'bigint') n = Number(v);
  else if (typeof v === 'string') n = GO_FLOAT.test(v) ? Number(v) : 0;
  return Number.isFinite(n) ? n : 0;
}

/** Go's cast.ToBool. */
export function castBool(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'bigint') return v !== 0n;
  if (typeof v === 'string') return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v);
  return false;
}

/** types.ParseDateTime → the stored layout, '' when empty or unparsable. */
function castDate(v: unknown): string {
  if (v === null || v === undefined || v === '') return '';
  if (typeof v === 'number') return Number.isFinite(v) ? new Date(v * 1000).toISOString().replace('T', ' ') : '';
  if (typeof v !== 'string') return '';
  const d = normalizeDateTime(v);
  if (!d) return '';
  // years beyond 9999 or before 0 do not fit the layout
  return /^\d{4}-/.test(d) ? d : '';
}

/**
 * The json field's string normalisation (0.22): "", unquoted text and invalid JSON become a JSON
 * string; "null"/"true"/"false", numbers, arrays, objects and quoted strings are kept as JSON.
 */
function jsonFromString(str: string): string {
  if (str === '') return '""';
  if (str === 'null' || str === 'true' || str === 'false') return str;
  const c = str[0];
  if ((c >= '0' && c <= '9') || c === '-' || c === '"' || c === '[' || c === '{') {
    try {
      JSON.parse(str);
      return str;
    } catch {
      // fall through: quoted as a string
    }
  }
  return JSON.stringify(str);
}

/** The raw JSON text of a submitted json value, or null. */
export function castJson(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return jsonFromString(v);
  if (typeof v === 'number' && !Number.isFinite(v)) return null;
  const text = JSON.stringify(v);
  return text === undefined ? null : text;
}

/** PrepareValue: any submitted or stored value → the field's normalised value. */
export function prepareValue(field: Pick<SchemaField, 'type' | 'options'>, value: unknown): unknown {
  switch (field.type) {
    case 'text':
    case 'editor':
    case 'email':
    case 'url':
      return castString(value);
    case 'number':
      return castNumber(value);
    case 'bool':
      return castBool(value);
    case 'date':
      return castDate(value);
    case 'json':
      return castJson(value);
    case 'select':
    case 'file':
    case 'relation': {
      const list = toUniqueStrings(value);
      if (isMultiple(field)) return list;
      return list.length ? list[list.length - 1] : '';
    }
    default:
      return value ?? null;
  }
}

/** A stored column value → the normalised value (NULLs and old column types tolerated). */
export function valueFromColumn(field: SchemaField, raw: unknown): unknown {
  if (field.type === 'json') {
    if (raw === null || raw === undefined) return null;
    if (typeof raw === 'number' || typeof raw === 'bigint') return String(raw);
    if (Buffer.isBuffer(raw)) return jsonFromString(raw.toString('utf8'));
    return jsonFromString(String(raw));
  }
  if (field.type === 'bool') return raw === 1 || raw === 1n || raw === '1' || raw === true || raw === 'true' || raw === 'TRUE';
  if (field.type === 'date') return typeof raw === 'string' ? (DATE_LAYOUT.test(raw) ? raw : castDate(raw)) : '';
  return prepareValue(field, raw);
}

const DATE_LAYOUT = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z$/;

/** The normalised value → what goes into the column. */
export function valueToColumn(field: SchemaField, value: unknown): unknown {
  switch (field.type) {
    case 'bool':
      return value ? 1 : 0;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : 0;
    case 'json':
      return value === null || value === undefined ? null : String(value);
    case 'select':
    case 'file':
    case 'relation':
      return Array.isArray(value) ? JSON.stringify(value) : String(value ?? '');
    default:
      return value === null || value === undefined ? '' : String(value);
  }
}

/** The value as it appears in API output (json fields parsed back into values). */
export function valueToOutput(field: SchemaField, value: unknown): unknown {
  if (field.type === 'json') {
    if (value === null || value === undefined) return null;
    try {
      return JSON.parse(String(value));
    } catch {
      return String(value);
    }
  }
  if (Array.isArray(value)) return [...value];
  return value;
}

/** The empty value of a field (what a new record starts with). */
export function zeroValue(field: SchemaField): unknown {
  return prepareValue(field, undefined);
}

/** Field value modifiers (`field+`, `field-`). */
const MODIFIERS = ['+', '-'] as const;

/** PrepareValueWithModifier. */
function prepareWithModifier(field: SchemaField, base: unknown, modifier: string, modValue: unknown): unknown {
  let resolved = base;
  switch (field.type) {
    case 'number':
      if (modifier === '+') resolved = castNumber(base) + castNumber(modValue);
      else if (modifier === '-') resolved = castNumber(base) - castNumber(modValue);
      break;
    case 'select':
    case 'relation':
      if (modifier === '+') resolved = [...toUniqueStrings(base), ...toUniqueStrings(modValue)];
      else if (modifier === '-') {
        const remove = new Set(toUniqueStrings(modValue));
        resolved = toUniqueStrings(base).filter((v) => !remove.has(v));
      }
      break;
    case 'file':
      if (modifier === '-') {
        const remove = new Set(toUniqueStrings(modValue));
        resolved = toUniqueStrings(base).filter((v) => !remove.has(v));
      }
      break;
  }
  return prepareValue(field, resolved);
}

/** Whether a data map has `field+` / `field-` keys. */
export function hasModifierKeys(data: RecordData): boolean {
  return Object.keys(data).some((k) => k.endsWith('+') || k.endsWith('-'));
}

/**
 * ReplaceModifers: resolves `field+` / `field-` against the submitted value (when present) or the
 * record's current one, plus the legacy file deletions `field.<name>` / `field.<index>` set to
 * ''/null. Returns a new map; the input is left untouched.
 */
export function replaceModifiers(collection: Collection, current: RecordData, data: RecordData): RecordData {
  const clone: RecordData = { ...data };
  if (Object.keys(clone).length === 0) return clone;
  for (const field of collection.schema) {
    const key = field.name;
    for (const m of MODIFIERS) {
      if (Object.hasOwn(clone, key + m)) {
        if (!Object.hasOwn(clone, key)) clone[key] = current[key];
        clone[key] = prepareWithModifier(field, clone[key], m, clone[key + m]);
        delete clone[key + m];
      }
    }
    if (field.type !== 'file') continue;
    const oldNames = toUniqueStrings(Object.hasOwn(clone, key) ? clone[key] : current[key]);
    const toDelete: string[] = [];
    for (const name of oldNames) {
      const suffixed = `${key}.${name}`;
      if (Object.hasOwn(clone, suffixed) && castString(clone[suffixed]) === '') {
        toDelete.push(name);
        delete clone[suffixed];
      }
    }
    const indexed = new RegExp(`^${escapeRegExp(key)}\\.\\d+$`);
    for (const k of Object.keys(clone)) {
      if (!indexed.test(k) || castString(clone[k]) !== '') continue;
      const index = Number(k.slice(key.length + 1));
      if (!Number.isSafeInteger(index) || index < 0 || index >= oldNames.length) continue;
      toDelete.push(oldNames[index]);
      delete clone[k];
    }
    if (toDelete.length) clone[key] = prepareValue(field, oldNames.filter((n) => !toDelete.includes(n)));
  }
  return clone;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
