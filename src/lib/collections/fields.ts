// Field handling of the collection editor: the field types (src/fields/registry.ts) with labels,
// defaults, unique names, remove/restore, duplicate, drag rules and single/multiple switches.
import { FIELD_DEFINITIONS, fieldDefinition } from '../../fields/registry';
import { isMultiple } from '../../fields/shared/schema';
import type { CollectionType, FieldType, SchemaField } from './types';

export const FIELD_TYPES: ReadonlyArray<{ type: FieldType; label: string }> = FIELD_DEFINITIONS.map((d) => ({ type: d.type, label: d.label }));


/** Keys of a field's options form (schemas/fields/*) that are not options: the field's flags and the single/multiple switch. */
export const FIELD_FORM_KEYS: readonly string[] = ['required', 'presentable', 'multiple'];

export { isMultiple } from '../../fields/shared/schema';

/** System columns of every collection, plus the auth ones. */
const BASE_SYSTEM_FIELDS = ['id', 'created', 'updated'] as const;
const AUTH_SYSTEM_FIELDS = ['username', 'email', 'emailVisibility', 'verified'] as const;

export function systemFieldNames(type: CollectionType): string[] {
  return type === 'auth' ? [...BASE_SYSTEM_FIELDS, ...AUTH_SYSTEM_FIELDS] : [...BASE_SYSTEM_FIELDS];
}

/** The options a new field of a type starts with (its definition's, src/fields/<type>/field.ts). */
export const defaultOptions = (type: FieldType): Record<string, unknown> => fieldDefinition(type).defaultOptions();

let keySeq = 0;
export function randomKey(prefix = 'k'): string {
  keySeq += 1;
  return `${prefix}${Date.now().toString(36)}${keySeq.toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** The first of base, base2, base3… that no field (case-insensitive) nor system column uses. */
export function uniqueFieldName(base: string, fields: readonly Pick<SchemaField, 'name'>[], reserved: readonly string[] = []): string {
  const taken = new Set([...fields.map((f) => f.name.toLowerCase()), ...reserved.map((r) => r.toLowerCase())]);
  if (!taken.has(base.toLowerCase())) return base;
  for (let i = 2; ; i++) {
    const name = `${base}${i}`;
    if (!taken.has(name.toLowerCase())) return name;
  }
}

export function newField(type: FieldType, fields: readonly SchemaField[], collectionType: CollectionType = 'base'): SchemaField {
  return {
    id: '',
    name: uniqueFieldName('field', fields, systemFieldNames(collectionType)),
    type,
    system: false,
    required: false,
    presentable: false,
    unique: false,
    options: defaultOptions(type),
    onMountSelect: true,
    _key: randomKey('f'),
  };
}

/** A loaded field prepared for editing (originalName remembered, a stable key). */
export function editableField(field: SchemaField): SchemaField {
  return { ...field, options: { ...(field.options ?? {}) }, originalName: field.name, _key: field.id || randomKey('f') };
}

/**
 * Removing: a field with an id is marked toDelete (its name reverts to originalName), one without
 * an id disappears at once.
 */
export function removeField(fields: readonly SchemaField[], index: number): SchemaField[] {
  const field = fields[index];
  if (!field) return [...fields];
  if (!field.id) return fields.filter((_, i) => i !== index);
  return fields.map((f, i) => (i === index ? { ...f, toDelete: true, name: f.originalName ?? f.name } : f));
}

export function restoreField(fields: readonly SchemaField[], index: number): SchemaField[] {
  return fields.map((f, i) => (i === index ? { ...f, toDelete: false } : f));
}

/** Duplicate: '_copy' appended (numeric suffix when taken), inserted after the original; not for toDelete fields. */
export function duplicateField(fields: readonly SchemaField[], index: number, collectionType: CollectionType = 'base'): SchemaField[] {
  const field = fields[index];
  if (!field || field.toDelete) return [...fields];
  const copy: SchemaField = {
    ...field,
    id: '',
    system: false,
    options: JSON.parse(JSON.stringify(field.options ?? {})),
    name: uniqueFieldName(`${field.name}_copy`, fields, systemFieldNames(collectionType)),
    originalName: undefined,
    toDelete: false,
    onMountSelect: true,
    _key: randomKey('f'),
  };
  const out = [...fields];
  out.splice(index + 1, 0, copy);
  return out;
}

/** Fields marked for deletion and existing system fields stay where they are. */
export function canMoveField(field: SchemaField): boolean {
  return !field.toDelete && !(field.system && !!field.id);
}

/** Moves a field from one position to another (a no-op when either end is pinned). */
export function moveField(fields: readonly SchemaField[], from: number, to: number): SchemaField[] {
  if (from === to || from < 0 || to < 0 || from >= fields.length || to >= fields.length) return [...fields];
  if (!canMoveField(fields[from]) || !canMoveField(fields[to])) return [...fields];
  const out = [...fields];
  const [moved] = out.splice(from, 1);
  out.splice(to, 0, moved);
  return out;
}

/** The nearest index above/below a field it may move to (skipping nothing: neighbours only). */
export function moveTarget(fields: readonly SchemaField[], index: number, step: -1 | 1): number | null {
  const to = index + step;
  if (to < 0 || to >= fields.length) return null;
  if (!canMoveField(fields[index]) || !canMoveField(fields[to])) return null;
  return to;
}

/** The switch as shown: what the admin set, else what maxSelect says. */
export function multipleSwitch(field: SchemaField): boolean {
  return field.multiple ?? isMultiple(field);
}

/** The single/multiple switch: the options the type's `multiple.switchTo` gives (src/fields/<type>/field.ts). */
export function setMultiple(field: SchemaField, multiple: boolean): SchemaField {
  const sw = fieldDefinition(field.type).multiple;
  if (!sw) return field;
  const next: SchemaField = { ...field, options: sw.switchTo({ ...field.options }, multiple) };
  if (sw.keepsSwitch) next.multiple = multiple;
  return next;
}
