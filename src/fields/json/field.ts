// JSON: any JSON value, kept as its raw text (null when empty; stored as NULL), up to maxSize bytes.
import { jsonTooDeep } from '../../lib/json-depth';
import { DEFAULT_JSON_MAX_SIZE, num, REQUIRED_CODE, REQUIRED_MESSAGE, requiredMessage, setNumber, withMessages } from '../shared/schema';
import { fieldError } from '../shared/text-like';
import type { FieldDefinition, RequestValue } from '../types';
import { fieldTypeGuard } from '../shared/kind';

/** A json field: its column holds JSON text (filters read paths inside it). */
export const isJsonField = fieldTypeGuard('json');

/**
 * The string normalisation of 0.22: "", unquoted text and invalid JSON become a JSON string;
 * "null"/"true"/"false", numbers, arrays, objects and quoted strings are kept as JSON.
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

/** A JSON field's value as editor text ('' for null). */
function toJsonText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return JSON.stringify(value);
  return JSON.stringify(value, null, 2);
}

/** Parses a JSON field's editor text (empty text is null). */
export function parseJsonText(text: unknown): RequestValue {
  if (typeof text !== 'string' || text.trim() === '') return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, message: String(e) };
  }
}

const EMPTY_JSON = ['null', '""', '[]', '{}'];
const utf8Length = (s: string) => new TextEncoder().encode(s).length;

export const json: FieldDefinition = {
  type: 'json',
  label: 'JSON',
  optionKinds: [['maxSize', 'int']],
  defaultOptions: () => ({ maxSize: DEFAULT_JSON_MAX_SIZE }),
  // a view's json column: PocketBase 0.22 sets maxSize 1 on the fields it infers
  viewOptions: () => ({ maxSize: 1 }),
  columnDefinition: () => 'JSON DEFAULT NULL',
  prepare: castJson,
  fromColumn(raw) {
    if (raw === null || raw === undefined) return null;
    if (typeof raw === 'number' || typeof raw === 'bigint') return String(raw);
    if (raw instanceof Uint8Array) return jsonFromString(new TextDecoder().decode(raw));
    return jsonFromString(String(raw));
  },
  toColumn: (value) => (value === null || value === undefined ? null : String(value)),
  toOutput(value) {
    if (value === null || value === undefined) return null;
    try {
      return JSON.parse(String(value));
    } catch {
      return String(value);
    }
  },
  // the editor's text (dashboard) or the raw JSON text (server); parsing is checked in code
  valueSchema: () => withMessages({ type: 'string' }, requiredMessage()),
  check(value, field) {
    const raw = value === null || value === undefined ? '' : String(value);
    if (raw !== '') {
      try {
        if (jsonTooDeep(raw)) throw new SyntaxError('too deep');
        JSON.parse(raw);
      } catch {
        return fieldError('validation_invalid_json', 'Must be a valid json value');
      }
    }
    // as 0.22: a maxSize of 0 (a field saved without one by an old migration) refuses any value
    const max = Math.max(0, Number(field.options.maxSize) || 0);
    if (utf8Length(raw) > max) return fieldError('validation_json_size_limit', `The maximum allowed JSON size is ${max} bytes`);
    if (field.required && (raw === '' || EMPTY_JSON.includes(raw.trim()))) return { code: REQUIRED_CODE, message: REQUIRED_MESSAGE };
    return null;
  },
  record: {
    widget: 'recordJson',
    options: (field) => ({ maxSize: num(field.options.maxSize) || DEFAULT_JSON_MAX_SIZE }),
    toForm: (value, _field, blank) => (blank ? '' : toJsonText(value)),
    toRequest: parseJsonText,
  },
  docs: {
    example: () => ({ key: 'value' }),
    typeLabel: () => 'JSON',
    describe(field) {
      const size = setNumber(field.options.maxSize);
      return size !== null ? [{ key: 'apiDocs.option.maxBytes', values: { size } }] : [];
    },
  },
  io: {
    // the raw JSON text the server reads (it keeps valid JSON and stores other text as a JSON
    // string); an empty cell is null, a JSON file's value its JSON text
    importCell(cell) {
      if (cell === null || cell === undefined) return null;
      if (typeof cell !== 'string') return JSON.stringify(cell);
      return cell.trim() === '' ? null : cell;
    },
    exportValue: (raw) => (raw === undefined ? null : raw),
    csvCell: (value) => (value === null || value === undefined ? '' : JSON.stringify(value)),
  },
  list: { unsortable: true, searchable: true },
};
