// Validation of a collection before anything is written, shaped like PocketBase 0.22's
// forms/collection_upsert.go: each top-level key reports its first failing rule, schema errors
// nest under schema.{i}.*, index errors under indexes.{i}, option errors under options.*. Field
// options and auth options are checked with their schema files (schemas/fields, schemas/collections),
// the ones the collection editor draws; this module keeps the structural rules (ids, names,
// duplicates, system fields, indexes) and what needs the rule compiler or the view query.
// As 0.22, every name matching the pattern is accepted, SQL keywords included (all SQL we generate
// quotes identifiers). As 0.22, an index is always created on the collection's own table, whatever
// table its statement names (sync.ts). Beyond 0.22: new names may not start with sqlite_ (SQLite
// reserves them), an index may not name another schema, and the schema size is capped. Fields of an
// unknown type never get here: they are dropped on decode, as 0.22 does.
import type { Collection, SchemaField } from './model';
import { FIELD_TYPES } from './model';
import { fieldSignature } from './normalize';
import { isValidIndex, parseIndex } from '../../src/lib/collections/indexes';
import {
  E,
  IN_INVALID,
  MATCH_INVALID,
  MUST_BE_BLANK_EMPTY,
  MUST_BE_BLANK_NIL,
  NIL_OR_NOT_EMPTY,
  NOT_IN_INVALID,
  REQUIRED,
  type ErrorTree,
} from './error-codes';
import { validateFieldOptions, withoutNulls } from './field-options';
import { schemaValidator } from '../core/schema-validator';
import type { KeywordContext } from '../../src/lib/schema/keyword-checks';
import { sentenize } from '../../src/lib/schema/schema-words';
import type { CollectionLookup } from './store';
import { sortErrorTree } from '../../src/lib/schema/error-tree';
import { isFileField } from '../../src/fields/file/field';

/** Upper bound on schema fields (SQLite allows 2000 columns per table, auth adds 11). */
const MAX_SCHEMA_FIELDS = 500;
/** Upper bound on declared indexes. */
const MAX_INDEXES = 200;

const COLLECTION_NAME_RE = /^[a-zA-Z0-9][a-zA-Z0-9_]*$/;
const FIELD_NAME_RE = /^\w+$/;
const ID_RE = /^[^@#$&|.,'"\\/\s]+$/;

const RESERVED_FIELD_NAMES = ['id', 'created', 'updated', 'null', 'true', 'false', '_rowid_', 'collectionId', 'collectionName', 'expand'];
const AUTH_FIELD_NAMES = [
  'username', 'email', 'emailVisibility', 'verified', 'tokenKey', 'passwordHash', 'lastResetSentAt', 'lastVerificationSentAt',
  'password', 'passwordConfirm', 'oldPassword',
];



/** Problems found while decoding the submitted schema (before validation proper). */
export interface FieldDecodeIssues {
  unknownType: boolean;
  invalidOptions: string[];
}

export interface ValidationInput {
  candidate: Collection;
  /** The stored collection when updating (null on create). */
  existing: Collection | null;
  /** Every other collection (for name and id uniqueness). */
  others: readonly Collection[];
  /** Resolves collections as they will be after the save (the candidate included). */
  lookup: CollectionLookup;
  /** The id the client asked for on create ('' for a generated one). */
  requestedId: string;
  fieldIssues: FieldDecodeIssues[];
  /** Collection option keys whose JSON type was wrong. */
  invalidOptions: string[];
  /** Error text of the view query (validation or schema inference), when any. */
  viewQueryError?: string | null;
  /** Compiles a rule against the candidate; returns the error text or null. */
  checkRule: (rule: string) => string | null;
  /**
   * 'form' (default): the API's forms, every rule below. 'dao': a migration's Dao save, which in
   * 0.22 validates nothing; only what keeps the collection addressable and its table whole is
   * checked (ids, names, field names), see daoErrors.
   */
  mode?: 'form' | 'dao';
}

export function validateCollection(input: ValidationInput): ErrorTree {
  if (input.mode === 'dao') return sortErrorTree(daoErrors(input));
  const { candidate: c, existing } = input;
  const errors: ErrorTree = {};
  const set = (key: string, err: ErrorTree[string] | null | undefined) => {
    if (err && !(key in errors)) errors[key] = err;
  };
  const isView = c.type === 'view';

  set('id', validateId(input));
  if (existing && c.system !== existing.system) set('system', E('validation_collection_system_flag_change', 'System collection state cannot be changed.'));
  set('type', !c.type ? REQUIRED : !['base', 'auth', 'view'].includes(c.type) ? IN_INVALID : existing && existing.type !== c.type ? E('validation_collection_type_change', 'Collection type cannot be changed.') : null);
  set('name', validateName(input));
  set('schema', validateSchema(input));

  const rule = (value: string | null): ErrorTree[string] | null => {
    if (value === null || value === '') return null;
    const err = input.checkRule(value);
    return err === null ? null : E('validation_invalid_rule', sentenize(`Invalid filter rule. Raw error: ${err}`));
  };
  set('listRule', rule(c.listRule));
  set('viewRule', rule(c.viewRule));
  set('createRule', isView && c.createRule !== null ? MUST_BE_BLANK_NIL : rule(c.createRule));
  set('updateRule', isView && c.updateRule !== null ? MUST_BE_BLANK_NIL : rule(c.updateRule));
  set('deleteRule', isView && c.deleteRule !== null ? MUST_BE_BLANK_NIL : rule(c.deleteRule));
  set('indexes', validateIndexes(input));
  set('options', validateOptions(input, rule));
  return sortErrorTree(errors);
}

/**
 * What a Dao save (a migration) still checks, where 0.22's Dao checks nothing: the id and name
 * the API, the storage folder and the tables are addressed by, and field names that make valid,
 * distinct columns. Options, rules, relations, indexes (their DDL still runs), type and system
 * changes pass as 0.22's Dao lets them: a migration may point at a collection or field a later
 * file creates, or state something a later file corrects.
 */
function daoErrors(input: ValidationInput): ErrorTree {
  const errors: ErrorTree = {};
  const set = (key: string, err: ErrorTree[string] | null | undefined) => {
    if (err) errors[key] = err;
  };
  set('id', validateId(input, { anyLength: true }));
  set('name', validateName(input));
  const seen = new Set<string>();
  const schema: ErrorTree = {};
  input.candidate.schema.forEach((f, i) => {
    const lower = f.name.toLowerCase();
    const err = f.name === '' ? REQUIRED : !FIELD_NAME_RE.test(f.name) ? MATCH_INVALID : seen.has(lower) ? E('validation_duplicated_field_name', 'Duplicated or invalid schema field name.') : null;
    seen.add(lower);
    if (err) schema[String(i)] = { name: err };
  });
  if (Object.keys(schema).length) errors.schema = schema;
  return errors;
}

function validateId({ candidate: c, existing, others, requestedId }: ValidationInput, opts: { anyLength?: boolean } = {}) {
  if (existing) return c.id !== existing.id ? IN_INVALID : null;
  if (requestedId === '') return null;
  // 0.22's Dao saves an id of any length; its form wants 15 characters
  if (!opts.anyLength && [...requestedId].length !== 15) return E('validation_length_invalid', 'The length must be exactly 15.');
  if (!ID_RE.test(requestedId)) return MATCH_INVALID;
  if (others.some((o) => o.id === requestedId)) return E('validation_invalid_id', 'The model id is invalid or already exists.');
  return null;
}

function validateName({ candidate: c, existing, others }: ValidationInput) {
  const name = c.name;
  if (name === '') return REQUIRED;
  if ([...name].length > 255) return E('validation_length_out_of_range', 'The length must be between 1 and 255.');
  if (!COLLECTION_NAME_RE.test(name)) return MATCH_INVALID;
  if (existing && existing.system && name !== existing.name) {
    return E('validation_collection_system_name_change', 'System collections cannot be renamed.');
  }
  const lower = name.toLowerCase();
  if (others.some((o) => o.name.toLowerCase() === lower)) {
    return E('validation_collection_name_exists', 'Collection name must be unique (case insensitive).');
  }
  if (others.some((o) => o.id === name)) return E('validation_collection_name_id_duplicate', 'The name must not match an existing collection id.');
  if (lower.includes('_via_')) return E('validation_invalid_name', "The name of the collection cannot contain '_via_'.");
  const renamed = !existing || existing.name.toLowerCase() !== lower;
  if (renamed && lower.startsWith('sqlite_')) return E('validation_invalid_name', "The name cannot start with 'sqlite_'.");
  return null;
}

function validateSchema(input: ValidationInput): ErrorTree[string] | null {
  const { candidate: c, existing, lookup } = input;
  const fields = c.schema;
  const oldById = new Map((existing?.schema ?? []).map((f) => [f.id, f]));

  if (c.type === 'base' && fields.length === 0) return REQUIRED;
  if (fields.length > MAX_SCHEMA_FIELDS) return E('validation_length_too_long', `The length must be no more than ${MAX_SCHEMA_FIELDS}.`);

  for (const old of existing?.schema ?? []) {
    if (!old.system) continue;
    const next = fields.find((f) => f.id === old.id);
    if (!next || fieldSignature(next) !== fieldSignature(old)) {
      return E('validation_system_field_change', 'System fields cannot be deleted or changed.');
    }
  }

  const byIndex = (check: (f: SchemaField, i: number) => ErrorTree[string] | null): ErrorTree | null => {
    const out: ErrorTree = {};
    fields.forEach((f, i) => {
      const err = check(f, i);
      if (err) out[String(i)] = err;
    });
    return Object.keys(out).length ? out : null;
  };

  const typeChanges = byIndex((f) => {
    const old = oldById.get(f.id);
    return old && old.type !== f.type ? E('validation_field_type_change', 'Field type cannot be changed.') : null;
  });
  if (typeChanges) return typeChanges;

  if (c.type === 'auth') {
    const reserved = byIndex((f) =>
      AUTH_FIELD_NAMES.includes(f.name) ? { name: E('validation_reserved_auth_field_name', 'The field name is reserved and cannot be used.') } : null,
    );
    if (reserved) return reserved;
  }

  const ids = new Set<string>();
  const names = new Set<string>();
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    if (ids.has(f.id)) return { [String(i)]: { id: E('validation_duplicated_field_id', 'Duplicated or invalid schema field id.') } };
    if (names.has(f.name.toLowerCase())) {
      return { [String(i)]: { name: E('validation_duplicated_field_name', 'Duplicated or invalid schema field name.') } };
    }
    ids.add(f.id);
    names.add(f.name.toLowerCase());
  }

  // what a field's options are checked against beyond themselves (a relation's target collection)
  const contextOf = (f: SchemaField): KeywordContext => {
    const old = oldById.get(f.id);
    return { collection: lookup, collectionType: c.type, previous: old && old.type === f.type ? old.options : undefined };
  };
  return byIndex((f, i) => validateField(f, input.fieldIssues[i], contextOf(f)));
}

function validateField(f: SchemaField, issues: FieldDecodeIssues | undefined, context: KeywordContext): ErrorTree | null {
  const errors: ErrorTree = {};
  const known = FIELD_TYPES.includes(f.type);
  if (known) {
    if (issues && issues.invalidOptions.length) {
      errors.options = E('validation_invalid_options', 'Failed to initialize field options.');
    } else {
      const optionErrors = validateFieldOptions(f.type, f.options, context);
      if (optionErrors) errors.options = optionErrors;
    }
  }
  const idLength = [...f.id].length;
  if (f.id === '') errors.id = REQUIRED;
  else if (idLength < 5 || idLength > 255) errors.id = E('validation_length_out_of_range', 'The length must be between 5 and 255.');

  const nameErr = (() => {
    if (f.name === '') return REQUIRED;
    if ([...f.name].length > 255) return E('validation_length_out_of_range', 'The length must be between 1 and 255.');
    if (!FIELD_NAME_RE.test(f.name)) return MATCH_INVALID;
    if (RESERVED_FIELD_NAMES.some((r) => r.toLowerCase() === f.name.toLowerCase())) return NOT_IN_INVALID;
    if (f.name.toLowerCase().includes('_via_')) return E('validation_invalid_name', "The name of the field cannot contain '_via_'.");
    return null;
  })();
  if (nameErr) errors.name = nameErr;

  if (!f.type) errors.type = REQUIRED;
  else if (!known) errors.type = IN_INVALID;
  if (isFileField(f) && f.unique) errors.unique = MUST_BE_BLANK_EMPTY;
  return Object.keys(errors).length ? errors : null;
}

function validateIndexes({ candidate: c }: ValidationInput): ErrorTree[string] | null {
  if (c.type === 'view') {
    return c.indexes.length > 0 ? E('validation_indexes_not_supported', "The collection doesn't support indexes.") : null;
  }
  if (c.indexes.length > MAX_INDEXES) return E('validation_length_too_long', `The length must be no more than ${MAX_INDEXES}.`);
  for (let i = 0; i < c.indexes.length; i++) {
    const idx = parseIndex(c.indexes[i]);
    if (!isValidIndex(idx)) return { [String(i)]: E('validation_invalid_index_expression', 'Invalid CREATE INDEX expression.') };
    if (idx.schemaName !== '' && idx.schemaName.toLowerCase() !== 'main') {
      return { [String(i)]: E('validation_invalid_index_expression', 'Invalid CREATE INDEX expression.') };
    }
  }
  return null;
}

function validateOptions(input: ValidationInput, rule: (value: string | null) => ErrorTree[string] | null): ErrorTree[string] | null {
  const { candidate: c } = input;
  if (c.type !== 'auth' && c.type !== 'view') return null;
  if (input.invalidOptions.length) return E('validation_invalid_options', 'Invalid options.');
  const o = c.options;
  const errors: ErrorTree = {};
  if (c.type === 'view') {
    if (String(o.query ?? '').trim() === '') errors.query = REQUIRED;
    else if (input.viewQueryError) {
      errors.query = E('validation_invalid_view_query', sentenize(`Invalid query - ${input.viewQueryError}`));
    }
    return Object.keys(errors).length ? errors : null;
  }

  // schemas/collections/auth-options.schema.json holds the rules the dashboard's Options tab shows
  Object.assign(errors, schemaValidator('collections/auth-options').validate(withoutNulls(o)));
  // the forms read "" as unset, which is fine for a rule (null); a manage rule may not be ""
  if (o.manageRule === '') errors.manageRule = NIL_OR_NOT_EMPTY;

  if (Object.keys(errors).length) return errors;
  const manage = rule(typeof o.manageRule === 'string' ? o.manageRule : null);
  return manage ? { manageRule: manage } : null;
}
