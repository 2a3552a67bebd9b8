/**
 * The record form, generated: a collection's fields become a JSON Schema (draft-07) and a UI schema.
 * The dashboard's record editor renders them with the engine (SchemaForm, rjsf renderer) and the
 * server validates records with the same field schemas (server/records/schema-validate.ts), so a
 * rule is written once.
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

export interface RecordFormOptions {
  /** Creating (id optional and editable; password always asked) or editing. */
  isNew: boolean;
}

export interface RecordForm {
  schema: JsonSchema;
  uiSchema: Record<string, unknown>;
}

// ---- constants (spec §5, §9; facts "Record values") ----------------------------------------

export const RECORD_ID_LENGTH = 15;
/** Characters a custom record id must not contain (and no whitespace). */
export const RECORD_ID_PATTERN = "^[^@#$&|.,'\"\\\\/\\s]+$";
export const USERNAME_PATTERN = '^[\\w][\\w.-]*$';
/** govalidator's IsEmail as the server checks it (a dotted domain is required). */
export const EMAIL_PATTERN =
  "^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$";
export const AUTO_GENERATE_PLACEHOLDER = 'Leave empty to auto generate...';
export const DEFAULT_JSON_MAX_SIZE = 2_000_000;
export const DEFAULT_FILE_MAX_SIZE = 5_242_880;
/** Select and relation dropdowns get a search box above this many options. */
export const SEARCHABLE_ABOVE = 5;

export const REQUIRED_MESSAGE = 'Missing required value.';
export const REQUIRED_CODE = 'validation_required';

/** The field types the record form draws. */
export const RECORD_FIELD_TYPES = ['text', 'editor', 'number', 'bool', 'email', 'url', 'date', 'select', 'json', 'file', 'relation'] as const;

/** The `ui:widget` each field type is drawn with (names in src/widgets/index.ts). */
export const RECORD_WIDGETS: Record<string, string> = {
  text: 'recordText',
  editor: 'recordEditor',
  number: 'recordNumber',
  bool: 'toggle',
  email: 'email',
  url: 'uri',
  date: 'recordDate',
  select: 'recordSelect',
  json: 'recordJson',
  file: 'recordFile',
  relation: 'recordRelation',
};

// ---- field helpers ------------------------------------------------------------------------------

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export { isMultiple };

/** How many items a multi-value field may hold (undefined: no limit). */
export function maxSelectOf(field: Pick<RecordFieldLike, 'type' | 'options'>): number | undefined {
  const max = num(field.options?.maxSelect);
  if (field.type === 'relation') return max && max > 0 ? max : undefined;
  return max && max > 0 ? max : 1;
}

/** The empty value of a field, as the API returns it. */
export function emptyValueOf(field: Pick<RecordFieldLike, 'type' | 'options'>): unknown {
  switch (field.type) {
    case 'number':
      return 0;
    case 'bool':
      return false;
    case 'json':
      return null;
    case 'select':
    case 'file':
    case 'relation':
      return isMultiple(field) ? [] : '';
    default:
      return '';
  }
}

/** PocketBase's blank: '', 0, false, null, [] (and a missing value). */
export function isBlank(value: unknown): boolean {
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

function withMessages(schema: JsonSchema, entries: Record<string, [code: string, message: string]>): JsonSchema {
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

// ---- the form ------------------------------------------------------------------------------------

const SYSTEM_NAMES = new Set(['id', 'created', 'updated', 'collectionId', 'collectionName', 'expand']);
const AUTH_NAMES = ['username', 'email', 'emailVisibility', 'verified', 'changePassword', 'password', 'passwordConfirm'];

/** Names the form uses for its own inputs (a schema field never takes them). */
export const RESERVED_FORM_NAMES: ReadonlySet<string> = new Set([...SYSTEM_NAMES, ...AUTH_NAMES, 'oldPassword']);

function fieldUi(field: RecordFieldLike, collection: RecordCollectionLike): Record<string, unknown> {
  const o = field.options ?? {};
  const ui: Record<string, unknown> = { 'ui:widget': RECORD_WIDGETS[field.type] ?? 'text' };
  const options: Record<string, unknown> = { fieldType: field.type };
  switch (field.type) {
    case 'text':
      options.rows = 1;
      break;
    case 'editor':
      options.convertUrls = !!o.convertUrls;
      break;
    case 'number':
      if (num(o.min) !== undefined) options.min = o.min;
      if (num(o.max) !== undefined) options.max = o.max;
      break;
    case 'date':
      if (typeof o.min === 'string' && o.min) options.min = o.min;
      if (typeof o.max === 'string' && o.max) options.max = o.max;
      break;
    case 'select': {
      const values = Array.isArray(o.values) ? (o.values as unknown[]).map(String) : [];
      options.values = values;
      options.multiple = isMultiple(field);
      options.maxSelect = maxSelectOf(field);
      options.searchable = values.length > SEARCHABLE_ABOVE;
      if (isMultiple(field)) ui['ui:help'] = `Select up to ${maxSelectOf(field)} items.`;
      break;
    }
    case 'json':
      options.maxSize = num(o.maxSize) || DEFAULT_JSON_MAX_SIZE;
      break;
    case 'file':
      options.multiple = isMultiple(field);
      options.maxSelect = maxSelectOf(field);
      options.maxSize = num(o.maxSize) || DEFAULT_FILE_MAX_SIZE;
      options.mimeTypes = Array.isArray(o.mimeTypes) ? o.mimeTypes : [];
      options.accept = Array.isArray(o.mimeTypes) ? (o.mimeTypes as string[]).join(',') : '';
      options.thumbs = Array.isArray(o.thumbs) ? o.thumbs : [];
      options.protected = !!o.protected;
      break;
    case 'relation':
      options.collectionId = String(o.collectionId ?? '');
      options.multiple = isMultiple(field);
      options.maxSelect = maxSelectOf(field);
      options.minSelect = num(o.minSelect);
      break;
    default:
      break;
  }
  options.collectionName = collection.name;
  options.fieldName = field.name;
  ui['ui:options'] = options;
  return ui;
}

/**
 * The record editor's form: the system id, the auth account fields for auth collections, then one
 * property per collection field, with a UI schema naming each field's widget and its options.
 */
export function recordFormSchema(collection: RecordCollectionLike, { isNew }: RecordFormOptions): RecordForm {
  const data = recordDataSchema(collection);
  const fieldProps = data.properties as Record<string, JsonSchema>;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const ui: Record<string, unknown> = {};
  const layout: string[][] = [];

  properties.id = isNew
    ? withMessages(
        { type: 'string', title: 'id', minLength: RECORD_ID_LENGTH, maxLength: RECORD_ID_LENGTH, pattern: RECORD_ID_PATTERN },
        {
          minLength: ['validation_length_invalid', `The length must be exactly ${RECORD_ID_LENGTH}.`],
          maxLength: ['validation_length_invalid', `The length must be exactly ${RECORD_ID_LENGTH}.`],
          pattern: ['validation_match_invalid', 'Must be in a valid format.'],
        },
      )
    : { type: 'string', title: 'id', readOnly: true };
  ui.id = isNew
    ? { 'ui:placeholder': AUTO_GENERATE_PLACEHOLDER, 'ui:autocomplete': 'off', 'ui:options': { fieldType: 'id' } }
    : { 'ui:widget': 'recordId', 'ui:readonly': true, 'ui:options': { fieldType: 'id' } };
  layout.push(['id']);

  let conditional: JsonSchema = {};
  if (collection.type === 'auth') {
    const opts = collection.options ?? {};
    const minPassword = Math.max(0, num(opts.minPasswordLength) ?? 0);
    properties.username = withMessages(
      { type: 'string', title: 'Username', minLength: 3, maxLength: 150, pattern: USERNAME_PATTERN },
      {
        required: ['validation_required', 'Cannot be blank.'],
        minLength: ['validation_length_out_of_range', 'The length must be between 3 and 150.'],
        maxLength: ['validation_length_out_of_range', 'The length must be between 3 and 150.'],
        pattern: ['validation_match_invalid', 'Must be in a valid format.'],
      },
    );
    // spec §5: username required on create; on edit it may be left empty (auto generated)
    if (isNew) required.push('username');
    ui.username = {
      'ui:autocomplete': 'off',
      ...(isNew ? {} : { 'ui:placeholder': AUTO_GENERATE_PLACEHOLDER }),
      'ui:options': { fieldType: 'username' },
    };
    properties.email = withMessages(
      { type: 'string', title: 'Email', maxLength: 255, pattern: EMAIL_PATTERN },
      {
        required: ['validation_required', 'Cannot be blank.'],
        maxLength: ['validation_length_out_of_range', 'The length must be between 1 and 255.'],
        pattern: ['validation_is_email', 'Must be a valid email address.'],
      },
    );
    if (opts.requireEmail) required.push('email');
    ui.email = { 'ui:widget': 'email', 'ui:autocomplete': 'off', 'ui:options': { fieldType: 'email' } };
    properties.emailVisibility = { type: 'boolean', title: 'Email visibility' };
    ui.emailVisibility = { 'ui:widget': 'recordEmailVisibility', 'ui:label': false };
    properties.verified = { type: 'boolean', title: 'Verified' };
    ui.verified = { 'ui:widget': 'toggle' };
    const password: JsonSchema = withMessages(
      { type: 'string', title: 'Password', maxLength: 72, ...(minPassword > 0 ? { minLength: minPassword } : {}) },
      {
        required: ['validation_required', 'Cannot be blank.'],
        minLength: ['validation_length_out_of_range', `The length must be between ${minPassword} and 72.`],
        maxLength: ['validation_length_out_of_range', `The length must be between ${minPassword} and 72.`],
      },
    );
    const passwordConfirm: JsonSchema = withMessages(
      { type: 'string', title: 'Password confirm', 'x-sameAs': 'password' },
      { required: ['validation_required', 'Cannot be blank.'], 'x-sameAs': ['validation_values_mismatch', "Values don't match."] },
    );
    // the generator fills both fields: at least 15 characters, 32 unless the collection asks more
    ui.password = {
      'ui:widget': 'passwordGenerator',
      'ui:autocomplete': 'new-password',
      'ui:options': { length: Math.max(32, minPassword), confirm: 'passwordConfirm' },
    };
    ui.passwordConfirm = { 'ui:widget': 'password', 'ui:autocomplete': 'new-password' };
    layout.push(['username'], ['email'], ['emailVisibility']);
    if (isNew) {
      properties.password = password;
      properties.passwordConfirm = passwordConfirm;
      required.push('password', 'passwordConfirm');
      layout.push(['password', 'passwordConfirm']);
    } else {
      properties.changePassword = { type: 'boolean', title: 'Change password' };
      ui.changePassword = { 'ui:widget': 'toggle' };
      conditional = {
        if: { required: ['changePassword'], properties: { changePassword: { const: true } } },
        then: { required: ['password', 'passwordConfirm'], properties: { password, passwordConfirm } },
      };
      layout.push(['changePassword'], ['password', 'passwordConfirm']);
    }
    layout.push(['verified']);
  }

  for (const f of editableFields(collection)) {
    if (RESERVED_FORM_NAMES.has(f.name)) continue;
    properties[f.name] = { ...fieldProps[f.name], title: f.name };
    if (f.required) required.push(f.name);
    ui[f.name] = fieldUi(f, collection);
    layout.push([f.name]);
  }

  ui['ui:layout'] = layout;
  const schema: JsonSchema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    ...conditional,
  };
  return { schema, uiSchema: ui };
}

// ---- record values ⇄ form data ------------------------------------------------------------

/** 'YYYY-MM-DD HH:mm:ss(.SSSZ)' → the 19 characters the form edits and sends (spec §3, §5). */
export function toFormDate(value: unknown): string {
  if (typeof value !== 'string' || value === '') return '';
  return value.replace('T', ' ').slice(0, 19);
}

/** A JSON field's value as editor text ('' for null). */
export function toJsonText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return JSON.stringify(value);
  return JSON.stringify(value, null, 2);
}

/** The form's starting data for a record (null: a new record with every field empty). */
export function recordToFormData(collection: RecordCollectionLike, record: Record<string, unknown> | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  out.id = record ? String(record.id ?? '') : '';
  if (collection.type === 'auth') {
    out.username = record ? String(record.username ?? '') : '';
    out.email = record ? String(record.email ?? '') : '';
    out.emailVisibility = record ? !!record.emailVisibility : false;
    out.verified = record ? !!record.verified : false;
    if (record) out.changePassword = false;
    out.password = '';
    out.passwordConfirm = '';
  }
  for (const f of editableFields(collection)) {
    if (RESERVED_FORM_NAMES.has(f.name)) continue;
    const v = record ? record[f.name] : undefined;
    switch (f.type) {
      case 'date':
        out[f.name] = toFormDate(v);
        break;
      case 'json':
        out[f.name] = record ? toJsonText(v) : '';
        break;
      case 'number':
        out[f.name] = typeof v === 'number' ? v : undefined;
        break;
      case 'bool':
        out[f.name] = v === true;
        break;
      case 'select':
      case 'file':
      case 'relation': {
        const list = Array.isArray(v) ? v.map(String) : typeof v === 'string' && v ? [v] : [];
        out[f.name] = isMultiple(f) ? list : (list[list.length - 1] ?? '');
        break;
      }
      default:
        out[f.name] = typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
    }
  }
  return out;
}

export type JsonParseResult = { ok: true; value: unknown } | { ok: false; message: string };

/** Parses a JSON field's text (empty text is null). */
export function parseJsonText(text: unknown): JsonParseResult {
  if (typeof text !== 'string' || text.trim() === '') return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, message: String(e) };
  }
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
