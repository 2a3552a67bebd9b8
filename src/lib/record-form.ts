/**
 * The dashboard's record editor form: the record data schema (./record-schema.ts) plus the system
 * id and the auth account fields, a UI schema naming each field's widget, and the conversions
 * between record values and form data. Dashboard only; the server never reads it.
 *
 * Pure module: no React, no Node APIs, no ajv.
 */
import { fieldDefinition } from '../fields/registry';
import { optionsToUi, type OptionsUiLookup } from '../fields/options-ui';
import { parseJsonText } from '../fields/json/field';
import {
  EMAIL_PATTERN,
  editableFields,
  num,
  RECORD_ID_LENGTH,
  RECORD_ID_PATTERN,
  recordDataSchema,
  USERNAME_PATTERN,
  withMessages,
  type JsonSchema,
  type RecordCollectionLike,
  type RecordFieldLike,
} from './record-schema';

export { toFormDate } from '../fields/date/field';
export { parseJsonText };

export interface RecordFormOptions {
  /** Creating (id optional and editable; password always asked) or editing. */
  isNew: boolean;
  /**
   * A field type's options UI schema (schemas/fields/<type>.ui.json): its root `ui:record` says
   * where an option's value goes on the record field's UI schema (src/fields/options-ui.ts).
   */
  optionsUi?: OptionsUiLookup;
}

export interface RecordForm {
  schema: JsonSchema;
  uiSchema: Record<string, unknown>;
}

const AUTO_GENERATE_PLACEHOLDER = 'Leave empty to auto generate...';

// ---- the form ------------------------------------------------------------------------------------

const SYSTEM_NAMES = new Set(['id', 'created', 'updated', 'collectionId', 'collectionName', 'expand']);
const AUTH_NAMES = ['username', 'email', 'emailVisibility', 'verified', 'changePassword', 'password', 'passwordConfirm'];

/** Names the form uses for its own inputs (a schema field never takes them). */
export const RESERVED_FORM_NAMES: ReadonlySet<string> = new Set([...SYSTEM_NAMES, ...AUTH_NAMES, 'oldPassword']);

/** A field's UI schema: its type's widget and options, then the options its options form maps onto it. */
function fieldUi(field: RecordFieldLike, collection: RecordCollectionLike, optionsUi?: OptionsUiLookup): Record<string, unknown> {
  const record = fieldDefinition(field.type).record;
  const f = { ...field, options: field.options ?? {} };
  const ui: Record<string, unknown> = { 'ui:widget': record.widget };
  const help = record.help?.(f);
  if (help !== undefined) ui['ui:help'] = help;
  ui['ui:options'] = { fieldType: field.type, ...record.options?.(f), collectionName: collection.name, fieldName: field.name };
  return optionsToUi(ui, f, optionsUi?.(field.type));
}

/**
 * The record editor's form: the system id, the auth account fields for auth collections, then one
 * property per collection field, with a UI schema naming each field's widget and its options.
 */
export function recordFormSchema(collection: RecordCollectionLike, { isNew, optionsUi }: RecordFormOptions): RecordForm {
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
    // username required on create; on edit it may be left empty (auto generated)
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
    ui[f.name] = fieldUi(f, collection, optionsUi);
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
    out[f.name] = fieldDefinition(f.type).record.toForm(v, { ...f, options: f.options ?? {} }, record === null);
  }
  return out;
}
