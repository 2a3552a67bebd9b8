// What an import would change (PocketBase 0.22 import semantics): collections are matched
// by id. Merge (deleteMissing off): an existing collection's schema is extended — imported fields
// replace same-id fields, new ones are appended, nothing is deleted. Replace (deleteMissing on):
// collections and fields missing from the import are deleted.
import { fieldsOf, type ImportCollection, type ImportField } from './parse';
import { deepEqual, isObject } from '../json';

type ChangeKind = 'added' | 'changed' | 'deleted';

export type FieldChange = {
  kind: ChangeKind;
  id: string;
  name: string;
  /** the stored name when a changed field is renamed */
  oldName?: string;
};

export type CollectionChange = {
  kind: ChangeKind;
  id: string;
  name: string;
  /** the stored name when a changed collection is renamed */
  oldName?: string;
  /** the stored definition (null for an added collection) */
  old: ImportCollection | null;
  /** the definition the server will hold after the import (null for a deleted collection) */
  new: ImportCollection | null;
  /** added, changed and (replace mode) deleted fields */
  fields: FieldChange[];
  /** changed top-level properties other than the fields ('schema' when only the order changed) */
  props: string[];
};

/** What the server fills in for a missing key: null, false, [] or {} (not '': a missing rule is
 *  null, admins only, while '' lets everyone). */
function isBlank(v: unknown): boolean {
  if (v === undefined || v === null || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (isObject(v)) return Object.keys(v).length === 0;
  return false;
}

/** A property is unchanged when equal, or when one side lacks it and the other holds a blank value. */
function sameProp(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return isBlank(a) && isBlank(b);
  return deepEqual(a, b);
}

/** Non-blank values the server gives a collection's missing keys. */
const COLLECTION_DEFAULTS: Record<string, unknown> = { type: 'base' };

/** The keys (of both objects, minus `skip`) whose values differ. */
function changedKeys(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
  skip: readonly string[] = [],
  defaults: Record<string, unknown> = {},
): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !skip.includes(k));
  const value = (o: Record<string, unknown>, k: string) => (o[k] === undefined ? defaults[k] : o[k]);
  return keys.filter((k) => !sameProp(value(a, k), value(b, k)));
}

const fieldId = (f: ImportField): string => (typeof f?.id === 'string' ? f.id : '');
const fieldName = (f: ImportField): string => (typeof f?.name === 'string' ? f.name : '');

/**
 * The collection the server will hold: in merge mode an existing schema is extended (same-id
 * fields replaced in place, new ones appended); otherwise the imported definition as it is.
 */
export function effectiveCollection(old: ImportCollection | null, imported: ImportCollection, merge: boolean): ImportCollection {
  if (!old || !merge) return imported;
  const next = fieldsOf(imported);
  const oldFields = fieldsOf(old);
  const byId = (id: string) => (id ? next.find((n) => fieldId(n) === id) : undefined);
  const schema: ImportField[] = oldFields.map((f) => byId(fieldId(f)) ?? f);
  for (const f of next) {
    const id = fieldId(f);
    if (!id || !oldFields.some((o) => fieldId(o) === id)) schema.push(f);
  }
  return { ...imported, schema };
}

/** Field changes between a stored collection and the one it becomes. */
function fieldChanges(old: ImportCollection, next: ImportCollection): FieldChange[] {
  const oldFields = fieldsOf(old);
  const newFields = fieldsOf(next);
  const out: FieldChange[] = [];
  for (const f of newFields) {
    const id = fieldId(f);
    const prev = id ? oldFields.find((o) => fieldId(o) === id) : undefined;
    if (!prev) {
      out.push({ kind: 'added', id, name: fieldName(f) });
    } else if (changedKeys(prev, f).length > 0) {
      const change: FieldChange = { kind: 'changed', id, name: fieldName(f) };
      if (fieldName(prev) !== fieldName(f)) change.oldName = fieldName(prev);
      out.push(change);
    }
  }
  for (const f of oldFields) {
    const id = fieldId(f);
    if (!newFields.some((n) => fieldId(n) === id)) out.push({ kind: 'deleted', id, name: fieldName(f) });
  }
  return out;
}

/** Same field ids in a different order. */
function reordered(old: ImportCollection, next: ImportCollection): boolean {
  const a = fieldsOf(old).map(fieldId);
  const b = fieldsOf(next).map(fieldId);
  const common = b.filter((id) => id && a.includes(id));
  const oldOrder = a.filter((id) => common.includes(id));
  return common.some((id, i) => id !== oldOrder[i]);
}

/**
 * Every collection the import would add, change or (replace mode) delete: deleted first, then
 * changed, then added, each in list order. No entries means the configuration is up to date.
 */
export function detectChanges(
  existing: readonly ImportCollection[],
  imported: readonly ImportCollection[],
  merge: boolean,
): CollectionChange[] {
  const existingById = new Map(existing.map((c) => [c.id, c]));
  const importedIds = new Set(imported.map((c) => c.id));

  const deleted: CollectionChange[] = merge
    ? []
    : existing
        .filter((c) => !importedIds.has(c.id))
        .map((c) => ({ kind: 'deleted', id: c.id, name: c.name, old: c, new: null, fields: [], props: [] }));

  const changed: CollectionChange[] = [];
  const added: CollectionChange[] = [];
  for (const imp of imported) {
    const old = existingById.get(imp.id) ?? null;
    if (!old) {
      added.push({
        kind: 'added',
        id: imp.id,
        name: imp.name,
        old: null,
        new: imp,
        fields: fieldsOf(imp).map((f) => ({ kind: 'added', id: fieldId(f), name: fieldName(f) })),
        props: [],
      });
      continue;
    }
    const next = effectiveCollection(old, imp, merge);
    const fields = fieldChanges(old, next);
    const props = changedKeys(old, next, ['schema', 'created', 'updated'], COLLECTION_DEFAULTS);
    if (reordered(old, next)) props.push('schema');
    if (fields.length === 0 && props.length === 0) continue;
    const change: CollectionChange = { kind: 'changed', id: imp.id, name: imp.name, old, new: next, fields, props };
    if (old.name !== imp.name) change.oldName = old.name;
    changed.push(change);
  }
  return [...deleted, ...changed, ...added];
}

/**
 * What a replace import (deleteMissing) removes, for its confirmation: 'collection.*' for a whole
 * collection, 'collection.field (id)' for a field. Empty in merge mode.
 */
export function deletionList(existing: readonly ImportCollection[], imported: readonly ImportCollection[], merge: boolean): string[] {
  if (merge) return [];
  const importedById = new Map(imported.map((c) => [c.id, c]));
  const out: string[] = [];
  for (const old of existing) {
    const imp = importedById.get(old.id);
    if (!imp) {
      out.push(`${old.name}.*`);
      continue;
    }
    const newIds = new Set(fieldsOf(imp).map(fieldId).filter(Boolean));
    for (const f of fieldsOf(old)) {
      if (!newIds.has(fieldId(f))) out.push(`${old.name}.${fieldName(f)} (${fieldId(f)})`);
    }
  }
  return out;
}

/** A copy of `value` whose object keys follow `reference`'s order (extra keys last); arrays of
 *  fields are matched by id, other arrays by position. Keeps side-by-side JSON aligned. */
export function orderKeysLike(value: unknown, reference: unknown): unknown {
  if (Array.isArray(value)) {
    const ref = Array.isArray(reference) ? reference : [];
    return value.map((v, i) => {
      const id = isObject(v) && typeof v.id === 'string' && v.id ? v.id : '';
      const match = id ? ref.find((r) => isObject(r) && r.id === id) : ref[i];
      return orderKeysLike(v, match);
    });
  }
  if (!isObject(value)) return value;
  const ref = isObject(reference) ? reference : {};
  const keys = [...Object.keys(ref).filter((k) => k in value), ...Object.keys(value).filter((k) => !(k in ref))];
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = orderKeysLike(value[k], ref[k]);
  return out;
}

/** Pretty JSON (4 spaces, like the export) of a collection, keys ordered like `reference`. */
export function collectionJson(c: ImportCollection | null, reference?: ImportCollection | null): string {
  if (!c) return '';
  return JSON.stringify(reference ? orderKeysLike(c, reference) : c, null, 4);
}
