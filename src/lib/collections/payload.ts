// Collections as the editor holds them, and the request body it sends: defaults of new collections, duplicating, switching type, renaming, the payload
// without toDelete fields or client-only properties, and whether anything changed.
import { editableField, randomKey } from './fields';
import { duplicateIndex, renameIndexColumn, renameIndexTable } from './indexes';
import type { CollectionModel, CollectionType, SchemaField, StoredSchemaField } from './types';

const DEFAULT_MIN_PASSWORD_LENGTH = 8;

function defaultAuthOptions(): Record<string, unknown> {
  return {
    allowEmailAuth: true,
    allowOAuth2Auth: true,
    allowUsernameAuth: true,
    exceptEmailDomains: null,
    manageRule: null,
    minPasswordLength: DEFAULT_MIN_PASSWORD_LENGTH,
    onlyEmailDomains: null,
    onlyVerified: false,
    requireEmail: false,
  };
}

/** A blank collection of a type (the server binds a create request onto a blank 'base' one). */
export function newCollection<F extends StoredSchemaField | SchemaField = SchemaField>(type: CollectionType = 'base'): CollectionModel<F> {
  return {
    id: '',
    created: '',
    updated: '',
    name: '',
    type,
    system: false,
    schema: [],
    indexes: [],
    listRule: null,
    viewRule: null,
    createRule: null,
    updateRule: null,
    deleteRule: null,
    options: type === 'auth' ? defaultAuthOptions() : type === 'view' ? { query: '' } : {},
  };
}

/** A loaded collection prepared for the editor (a deep copy; fields remember their names). */
export function editableCollection(c: CollectionModel): CollectionModel {
  const copy = JSON.parse(JSON.stringify(c)) as CollectionModel;
  copy.schema = (copy.schema ?? []).map(editableField);
  copy.indexes = [...(copy.indexes ?? [])];
  copy.options = { ...(copy.options ?? {}) };
  return copy;
}

/** Switching the type of a new collection: view drops create/update/delete rules and indexes. */
export function changeType(c: CollectionModel, type: CollectionType): CollectionModel {
  const next: CollectionModel = { ...c, type };
  if (type === 'view') {
    next.createRule = null;
    next.updateRule = null;
    next.deleteRule = null;
    next.indexes = [];
    next.options = { query: typeof c.options.query === 'string' ? c.options.query : '' };
  } else if (type === 'auth') {
    next.options = { ...defaultAuthOptions(), ...pick(c.options, Object.keys(defaultAuthOptions())) };
  } else {
    next.options = {};
  }
  return next;
}

function pick(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (k in o) out[k] = o[k];
  return out;
}

/** Renaming the collection rewrites the table name in all its indexes. */
export function renameCollection(c: CollectionModel, name: string): CollectionModel {
  return { ...c, name, indexes: c.indexes.map((i) => renameIndexTable(i, name)) };
}

/** Renaming a field rewrites the index columns that refer to its previous name. */
export function renameField(c: CollectionModel, index: number, name: string): CollectionModel {
  const field = c.schema[index];
  if (!field) return c;
  const old = field.name;
  const schema = c.schema.map((f, i) => (i === index ? { ...f, name } : f));
  return { ...c, schema, indexes: c.indexes.map((s) => renameIndexColumn(s, old, name)) };
}

/** Duplicate: no id or timestamps, name + '_duplicate', field ids cleared, indexes renamed for the new table. */
export function duplicateCollection(c: CollectionModel): CollectionModel {
  const copy = editableCollection(c);
  copy.id = '';
  copy.created = '';
  copy.updated = '';
  copy.system = false;
  copy.name = `${c.name}_duplicate`;
  copy.schema = copy.schema
    .filter((f) => !f.toDelete)
    .map((f) => ({ ...f, id: '', originalName: undefined, toDelete: false, _key: randomKey('f') }));
  copy.indexes = copy.indexes.map((i) => duplicateIndex(i, copy.name));
  return copy;
}

const CLIENT_FIELD_KEYS = ['originalName', 'toDelete', 'onMountSelect', '_key', 'multiple'] as const;

function fieldPayload(f: SchemaField): Record<string, unknown> {
  const out: Record<string, unknown> = { ...f, options: { ...(f.options ?? {}) } };
  for (const k of CLIENT_FIELD_KEYS) delete out[k];
  if (out.nullable === undefined) delete out.nullable;
  return out;
}

/** The request body: fields marked toDelete dropped, client-only properties stripped. */
export function collectionPayload(c: CollectionModel): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: c.name,
    type: c.type,
    schema: c.type === 'view' ? [] : c.schema.filter((f) => !f.toDelete).map(fieldPayload),
    indexes: c.type === 'view' ? [] : [...c.indexes],
    listRule: c.listRule,
    viewRule: c.viewRule,
    createRule: c.type === 'view' ? null : c.createRule,
    updateRule: c.type === 'view' ? null : c.updateRule,
    deleteRule: c.type === 'view' ? null : c.deleteRule,
    options: { ...c.options },
  };
  if (c.id) body.id = c.id;
  return body;
}

/** Index of each kept field in the payload's schema (fields marked toDelete have none). */
export function payloadIndexes(schema: readonly SchemaField[]): (number | null)[] {
  let n = 0;
  return schema.map((f) => (f.toDelete ? null : n++));
}

function stable(v: unknown): string {
  return JSON.stringify(v, (_k, value) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.keys(value).sort().filter((k) => value[k] !== undefined).map((k) => [k, value[k]]))
      : value,
  );
}

/** Unsaved changes: the payloads differ (a restored field or a re-typed equal value counts as none). */
export function hasChanges(original: CollectionModel | null, draft: CollectionModel): boolean {
  if (!original) return true;
  const a = collectionPayload(original);
  const b = collectionPayload(draft);
  if (draft.type === 'view') {
    // a view's schema is the server's inference, never edited
    a.schema = b.schema = [];
  }
  return stable(a) !== stable(b);
}
