/**
 * The record data schema, generated: a collection's fields become a JSON Schema (draft-07) of a
 * record's values. The server validates records with it (server/records/schema-validate.ts) and the
 * dashboard's record form (./record-form.ts) is built on it, so a rule is written once.
 *
 * What JSON Schema says here: types, text lengths and patterns, number limits and "no decimals",
 * select values, how many items a multi-value field holds, the e-mail shape, and "required"
 * (PocketBase's required means non-empty: the data are validated with empty values dropped, see
 * `withoutEmptyValues`). What it cannot say stays in code on the server: unique indexes, relations
 * that must exist, a file's real type and size, url shape, e-mail/url domains, date limits and
 * JSON parsing and size (the editor flags unparsable JSON itself, as `invalid_json`).
 *
 * Messages and codes are PocketBase 0.22's (forms/validators/record_data.go), carried by the
 * engine's `x-messages` / `x-codes` keywords, so the dashboard and the API word an error the same.
 *
 * Pure module: no React, no Node APIs, no ajv.
 */
import { isMultiple } from './collections/fields';
import { errorTree, type FieldError, type SchemaError } from './schema/error-tree';

/** The field shape this module reads (the dashboard's and the server's field types both fit). */
export interface RecordFieldLike {
  name: string;
  type: string;
  required: boolean;
  options: Record<string, unknown>;
  system?: boolean;
  presentable?: boolean;
  toDelete?: boolean;
}

export interface RecordCollectionLike {
  id?: string;
  name: string;
  type: string;
  schema: readonly RecordFieldLike[];
  options?: Record<string, unknown>;
}

export type JsonSchema = Record<string, unknown>;

// ---- constants (PocketBase 0.22 record values) ----------------------------------------------

export const RECORD_ID_LENGTH = 15;
/** Characters a custom record id must not contain (and no whitespace). */
export const RECORD_ID_PATTERN = "^[^@#$&|.,'\"\\\\/\\s]+$";
export const USERNAME_PATTERN = '^[\\w][\\w.-]*$';
/** govalidator's IsEmail as the server checks it (a dotted domain is required). */
export const EMAIL_PATTERN =
  "^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$";

export const REQUIRED_MESSAGE = 'Missing required value.';
export const REQUIRED_CODE = 'validation_required';

// ---- field helpers ------------------------------------------------------------------------------

export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export { isMultiple };

/** How many items a multi-value field may hold (undefined: no limit). */
export function maxSelectOf(field: Pick<RecordFieldLike, 'type' | 'options'>): number | undefined {
  const max = num(field.options?.maxSelect);
  if (field.type === 'relation') return max && max > 0 ? max : undefined;
  return max && max > 0 ? max : 1;
}

/** PocketBase's blank: '', 0, false, null, [] (and a missing value). */
function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '' || value === 0 || value === false || (Array.isArray(value) && value.length === 0);
}

/**
 * The data to validate: blank values dropped, so `required` reads them as missing and every other
 * rule skips them (PocketBase: "required means non-zero; the other checks skip empty values").
 */
export function withoutEmptyValues(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) if (!isBlank(v)) out[k] = v;
  return out;
}

/** Go's %f (six decimals), as PocketBase words number limits. */
const goFloat = (n: number) => n.toFixed(6);

/** A JS pattern usable by every ajv (with and without the unicode flag), or undefined. */
export function usablePattern(pattern: unknown): string | undefined {
  if (typeof pattern !== 'string' || pattern === '') return undefined;
  try {
    new RegExp(pattern, 'u');
    new RegExp(pattern);
    return pattern;
  } catch {
    return undefined;
  }
}

export function withMessages(schema: JsonSchema, entries: Record<string, [code: string, message: string]>): JsonSchema {
  const keys = Object.keys(entries);
  if (!keys.length) return schema;
  const messages: Record<string, string> = { ...((schema['x-messages'] as Record<string, string>) ?? {}) };
  const codes: Record<string, string> = { ...((schema['x-codes'] as Record<string, string>) ?? {}) };
  for (const k of keys) {
    codes[k] = entries[k][0];
    messages[k] = entries[k][1];
  }
  return { ...schema, 'x-messages': messages, 'x-codes': codes };
}

/**
 * The JSON Schema of one field's value (without `title`): what the value may be once it is not
 * blank. `required` is the object's concern (see recordDataSchema).
 */
export function fieldValueSchema(field: RecordFieldLike): JsonSchema {
  const o = field.options ?? {};
  const requiredMsg: Record<string, [string, string]> = { required: [REQUIRED_CODE, REQUIRED_MESSAGE] };
  switch (field.type) {
    case 'text': {
      const s: JsonSchema = { type: 'string' };
      const msgs: Record<string, [string, string]> = { ...requiredMsg };
      const min = num(o.min);
      const max = num(o.max);
      if (min !== undefined && min > 0) {
        s.minLength = min;
        msgs.minLength = ['validation_min_text_constraint', `Must be at least ${min} character(s).`];
      }
      if (max !== undefined && max > 0) {
        s.maxLength = max;
        msgs.maxLength = ['validation_max_text_constraint', `Must be less than ${max} character(s).`];
      }
      const pattern = usablePattern(o.pattern);
      if (pattern) {
        s.pattern = pattern;
        msgs.pattern = ['validation_invalid_format', 'Invalid value format.'];
      }
      return withMessages(s, msgs);
    }
    case 'editor':
    case 'url':
    case 'date':
      return withMessages({ type: 'string' }, requiredMsg);
    case 'json':
      // the editor's text (dashboard) or the raw JSON text (server); parsing is checked in code
      return withMessages({ type: 'string' }, requiredMsg);
    case 'email':
      return withMessages(
        { type: 'string', maxLength: 254, pattern: EMAIL_PATTERN },
        {
          ...requiredMsg,
          maxLength: ['validation_invalid_email', 'Must be a valid email.'],
          pattern: ['validation_invalid_email', 'Must be a valid email.'],
        },
      );
    case 'number': {
      const limits: JsonSchema = {};
      const msgs: Record<string, [string, string]> = {};
      if (o.noDecimal) {
        limits.multipleOf = 1;
        msgs.multipleOf = ['validation_no_decimal_constraint', 'Decimal numbers are not allowed.'];
      }
      const min = num(o.min);
      const max = num(o.max);
      if (min !== undefined) {
        limits.minimum = min;
        msgs.minimum = ['validation_min_number_constraint', `Must be larger than ${goFloat(min)}.`];
      }
      if (max !== undefined) {
        limits.maximum = max;
        msgs.maximum = ['validation_max_number_constraint', `Must be less than ${goFloat(max)}.`];
      }
      const s = withMessages({ type: 'number' }, requiredMsg);
      // 0 is a number field's blank: its limits do not apply to it
      return Object.keys(limits).length ? { ...s, if: { const: 0 }, else: withMessages(limits, msgs) } : s;
    }
    case 'bool':
      return withMessages({ type: 'boolean' }, requiredMsg);
    case 'select': {
      const values = Array.isArray(o.values) ? (o.values as unknown[]).map(String) : [];
      // no enum message: the default names the rejected value ("Invalid value x.")
      const item: JsonSchema = values.length ? { type: 'string', enum: values, 'x-codes': { enum: 'validation_invalid_value' } } : { type: 'string' };
      if (!isMultiple(field)) return withMessages(item, requiredMsg);
      const max = maxSelectOf(field) ?? 1;
      return withMessages(
        { type: 'array', items: item, maxItems: max, ...(field.required ? { minItems: 1 } : {}) },
        {
          ...requiredMsg,
          ...(field.required ? { minItems: [REQUIRED_CODE, REQUIRED_MESSAGE] as [string, string] } : {}),
          maxItems: ['validation_too_many_values', `Select no more than ${max}.`],
        },
      );
    }
    case 'file': {
      if (!isMultiple(field)) return withMessages({ type: 'string' }, requiredMsg);
      const max = maxSelectOf(field) ?? 1;
      return withMessages(
        { type: 'array', items: { type: 'string' }, maxItems: max, ...(field.required ? { minItems: 1 } : {}) },
        {
          ...requiredMsg,
          ...(field.required ? { minItems: [REQUIRED_CODE, REQUIRED_MESSAGE] as [string, string] } : {}),
          maxItems: ['validation_too_many_values', `Select no more than ${max}.`],
        },
      );
    }
    case 'relation': {
      if (!isMultiple(field)) return withMessages({ type: 'string' }, requiredMsg);
      const s: JsonSchema = { type: 'array', items: { type: 'string' } };
      const msgs: Record<string, [string, string]> = { ...requiredMsg };
      const min = num(o.minSelect);
      const max = maxSelectOf(field);
      if (min !== undefined && min > 0) {
        s.minItems = min;
        msgs.minItems = ['validation_not_enough_values', `Select at least ${min}.`];
      } else if (field.required) {
        s.minItems = 1;
        msgs.minItems = [REQUIRED_CODE, REQUIRED_MESSAGE];
      }
      if (max !== undefined) {
        s.maxItems = max;
        msgs.maxItems = ['validation_too_many_values', `Select no more than ${max}.`];
      }
      return withMessages(s, msgs);
    }
    default:
      return {};
  }
}

/** The fields a record form edits (fields being removed in an unsaved collection edit are not). */
export function editableFields(collection: Pick<RecordCollectionLike, 'schema'>): RecordFieldLike[] {
  return (collection.schema ?? []).filter((f) => !f.toDelete && f.name);
}

/**
 * The schema of a record's field values: one property per field, `required` for required ones.
 * The server validates `withoutEmptyValues(data)` against it.
 */
export function recordDataSchema(collection: Pick<RecordCollectionLike, 'schema'>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const f of editableFields(collection)) {
    properties[f.name] = fieldValueSchema(f);
    if (f.required) required.push(f.name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

// ---- errors -------------------------------------------------------------------------------------

export type RecordFieldError = FieldError;

/**
 * One `{code, message}` per field from a validator's errors against `recordDataSchema` (or the
 * form schema), through the shared error-tree mapper; `data` is the validated data.
 */
export function recordSchemaErrors(schema: JsonSchema, errors: readonly SchemaError[], data?: unknown): Record<string, RecordFieldError> {
  return errorTree(schema, errors, { flat: true, data }) as Record<string, RecordFieldError>;
}
