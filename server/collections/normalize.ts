// PocketBase 0.22 decodes every stored or submitted field's options into a typed Go struct and
// encodes it back, so the wire (and what it stores) always has exactly the keys of that struct, in
// struct order, with Go zero values for missing keys. This module does the same for fields and
// for collection options, and reports values whose JSON type the Go struct would refuse.
import { fieldDefinition } from '../../src/fields/registry';
import { normalizeDateTime } from '../../src/fields/shared/casts';
import type { OptionKind } from '../../src/fields/types';
import { FIELD_TYPES, type Collection, type CollectionType, type FieldType, type SchemaField } from './model';
import { isObject, sortKeys } from '../../src/lib/json';
import { FIELD_FORM_KEYS } from '../../src/lib/collections/fields';
import { schemaValidator } from '../core/schema-validator';

export { normalizeDateTime };

const ZERO: Record<OptionKind, unknown> = { int: 0, 'int?': null, 'float?': null, bool: false, string: '', 'strings?': null, date: '' };

const isFieldType = (value: unknown): value is FieldType => FIELD_TYPES.includes(value as FieldType);

/** Decodes one option value as Go would; `undefined` means the JSON type does not fit. */
function decodeOption(kind: OptionKind, value: unknown): unknown {
  if (value === undefined) return ZERO[kind];
  // Go leaves a null non-pointer value at its zero value.
  if (value === null) return ZERO[kind];
  switch (kind) {
    case 'int':
    case 'int?':
      return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
    case 'float?':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'bool':
      return typeof value === 'boolean' ? value : undefined;
    case 'string':
      return typeof value === 'string' ? value : undefined;
    case 'strings?':
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? [...value] : undefined;
    case 'date':
      return typeof value === 'string' ? normalizeDateTime(value) : undefined;
  }
}

/**
 * Options a schema file declares beyond 0.22's struct (an option a maintainer added by editing
 * schemas/fields/<type>.* or schemas/collections/auth-options.*): kept as sent; the schema validates them.
 */
function schemaOnlyOptions(form: string, known: ReadonlySet<string>): string[] {
  const props = schemaValidator(form).schema.properties;
  return isObject(props) ? Object.keys(props).filter((key) => !known.has(key)) : [];
}

export interface DecodedOptions {
  options: Record<string, unknown>;
  /** Keys whose submitted value had a JSON type the Go struct refuses. */
  invalid: string[];
}

/** The typed options of a field, in struct order; unknown keys dropped. */
function decodeFieldOptions(type: FieldType, raw: unknown): DecodedOptions {
  const source = isObject(raw) ? raw : {};
  const options: Record<string, unknown> = {};
  const invalid: string[] = [];
  if (raw !== undefined && raw !== null && !isObject(raw)) invalid.push('');
  const struct = fieldDefinition(type).optionKinds;
  for (const [key, kind] of struct) {
    const value = decodeOption(kind, source[key]);
    if (value === undefined) {
      invalid.push(key);
      options[key] = ZERO[kind];
    } else {
      options[key] = value;
    }
  }
  const known = new Set([...struct.map(([key]) => key), ...FIELD_FORM_KEYS]);
  // after the struct's keys
  for (const key of schemaOnlyOptions(`fields/${type}`, known)) if (source[key] !== undefined) options[key] = source[key];
  return { options, invalid };
}

export interface DecodedField {
  field: SchemaField;
  /** The submitted type when it is not one of the 11 (the field keeps it for error reporting). */
  unknownType: boolean;
  invalidOptions: string[];
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const bool = (v: unknown): boolean => v === true;

/** A schema field as 0.22 encodes it (key order of its Go struct). */
export function decodeField(raw: unknown): DecodedField {
  const source = isObject(raw) ? raw : {};
  const type = str(source.type);
  const known = isFieldType(type);
  const decoded = known ? decodeFieldOptions(type, source.options) : { options: {}, invalid: [] };
  return {
    field: {
      system: bool(source.system),
      id: str(source.id),
      name: str(source.name),
      type: type as FieldType,
      required: bool(source.required),
      presentable: bool(source.presentable),
      unique: bool(source.unique),
      options: decoded.options,
    },
    unknownType: !known,
    invalidOptions: decoded.invalid,
  };
}

/** Whether a select/file/relation field holds several values (stored as a JSON array): the dashboard's rule. */
export { isMultiple } from '../../src/lib/collections/fields';

const AUTH_OPTION_KINDS: ReadonlyArray<readonly [string, OptionKind]> = [
  ['allowEmailAuth', 'bool'],
  ['allowOAuth2Auth', 'bool'],
  ['allowUsernameAuth', 'bool'],
  ['exceptEmailDomains', 'strings?'],
  ['manageRule', 'string'],
  ['minPasswordLength', 'int'],
  ['onlyEmailDomains', 'strings?'],
  ['onlyVerified', 'bool'],
  ['requireEmail', 'bool'],
];
const AUTH_OPTION_KEYS: ReadonlySet<string> = new Set(AUTH_OPTION_KINDS.map(([key]) => key));

/**
 * Collection options as 0.22 returns them: decoded into the type's struct and re-encoded through
 * a map, so the keys come out alphabetical. manageRule stays null when unset.
 */
export function decodeCollectionOptions(type: CollectionType, raw: unknown): DecodedOptions {
  const source = isObject(raw) ? raw : {};
  const invalid: string[] = [];
  if (raw !== undefined && raw !== null && !isObject(raw)) invalid.push('');
  if (type === 'view') {
    const query = decodeOption('string', source.query);
    if (query === undefined) invalid.push('query');
    return { options: { query: query ?? '' }, invalid };
  }
  if (type !== 'auth') return { options: {}, invalid };
  const options: Record<string, unknown> = {};
  for (const [key, kind] of AUTH_OPTION_KINDS) {
    if (key === 'manageRule') {
      const v = source.manageRule;
      if (v !== undefined && v !== null && typeof v !== 'string') invalid.push(key);
      options[key] = typeof v === 'string' ? v : null;
      continue;
    }
    const value = decodeOption(kind, source[key]);
    if (value === undefined) invalid.push(key);
    options[key] = value ?? ZERO[kind];
  }
  for (const key of schemaOnlyOptions('collections/auth-options', AUTH_OPTION_KEYS)) if (source[key] !== undefined) options[key] = source[key];
  return { options: sortKeys(options), invalid };
}

const ruleOf = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A `_collections` row (JSON columns as text) as the API returns it. */
export function collectionFromRow(row: Record<string, unknown>): Collection {
  const type = (['base', 'auth', 'view'].includes(String(row.type)) ? row.type : 'base') as CollectionType;
  const schema: SchemaField[] = [];
  for (const raw of parseJsonArray(row.schema)) {
    const decoded = decodeField(raw);
    // 0.22 silently drops stored fields of an unknown type.
    if (!decoded.unknownType) schema.push(decoded.field);
  }
  return {
    id: String(row.id),
    created: str(row.created),
    updated: str(row.updated),
    name: String(row.name),
    type,
    system: row.system === 1 || row.system === true || row.system === '1',
    schema,
    indexes: parseJsonArray(row.indexes).filter((v): v is string => typeof v === 'string'),
    listRule: ruleOf(row.listRule),
    viewRule: ruleOf(row.viewRule),
    createRule: ruleOf(row.createRule),
    updateRule: ruleOf(row.updateRule),
    deleteRule: ruleOf(row.deleteRule),
    options: decodeCollectionOptions(type, parseJsonObject(row.options)).options,
  };
}

function parseJsonArray(text: unknown): unknown[] {
  try {
    const v = typeof text === 'string' ? JSON.parse(text) : text;
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

function parseJsonObject(text: unknown): unknown {
  try {
    return typeof text === 'string' ? JSON.parse(text) : text;
  } catch {
    return {};
  }
}

/** The wire/JSON form of a collection, keys in 0.22's order (a fresh object, safe to mutate). */
export function collectionJson(c: Collection): Collection {
  return {
    id: c.id,
    created: c.created,
    updated: c.updated,
    name: c.name,
    type: c.type,
    system: c.system,
    schema: c.schema.map((f) => ({ ...f, options: { ...f.options } })),
    indexes: [...c.indexes],
    listRule: c.listRule,
    viewRule: c.viewRule,
    createRule: c.createRule,
    updateRule: c.updateRule,
    deleteRule: c.deleteRule,
    options: { ...c.options },
  };
}

/** Field JSON without its id, to compare two definitions (system field changes, view schemas). */
export const fieldSignature = (f: SchemaField): string => JSON.stringify({ ...f, id: '' });
