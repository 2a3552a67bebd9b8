/**
 * The record data schema, generated: a collection's fields become a JSON Schema (draft-07) of a
 * record's values, one property per field from its type's `valueSchema` (src/fields/<type>/field.ts).
 * The server validates records with it (server/records/schema-validate.ts), and the dashboard's
 * record form (./record-form.ts) and the records import are built on it, so a rule is written once.
 *
 * What JSON Schema says here: types, text lengths and patterns, number limits and "no decimals",
 * select values, how many items a multi-value field holds, the e-mail shape, and "required"
 * (PocketBase's required means non-empty: the data are validated with empty values dropped, see
 * `withoutEmptyValues`). What it cannot say is each type's `check` (url shape, e-mail/url domains,
 * date limits, JSON parsing and size, a file's real type and size, relations that must exist),
 * run by the server; unique indexes are the database's.
 *
 * Messages and codes are PocketBase 0.22's (forms/validators/record_data.go), carried by the
 * engine's `x-messages` / `x-codes` keywords, so the dashboard and the API word an error the same.
 *
 * Pure module: no React, no Node APIs, no ajv.
 */
import { fieldDefinition, isFieldType } from '../fields/registry';
import type { FieldLike, JsonSchema } from '../fields/types';
import { errorTree, type FieldError, type SchemaError } from './schema/error-tree';

export type { JsonSchema };
export { EMAIL_PATTERN, isMultiple, num, REQUIRED_CODE, REQUIRED_MESSAGE, withMessages } from '../fields/shared/schema';

/** The field shape this module reads (the dashboard's and the server's field types both fit). */
export interface RecordFieldLike extends FieldLike {
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

// ---- constants (PocketBase 0.22 record values) ----------------------------------------------

export const RECORD_ID_LENGTH = 15;
/** Characters a custom record id must not contain (and no whitespace). */
export const RECORD_ID_PATTERN = "^[^@#$&|.,'\"\\\\/\\s]+$";
export const USERNAME_PATTERN = '^[\\w][\\w.-]*$';

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

/**
 * The JSON Schema of one field's value (without `title`): what the value may be once it is not
 * blank (its type's `valueSchema`, src/fields/<type>/field.ts). `required` is the object's concern
 * (see recordDataSchema).
 */
export function fieldValueSchema(field: RecordFieldLike): JsonSchema {
  return isFieldType(field.type) ? fieldDefinition(field.type).valueSchema({ ...field, options: field.options ?? {} }) : {};
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
