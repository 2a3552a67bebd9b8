// Record values as PocketBase 0.22 normalises them (models/schema SchemaField.PrepareValue and
// PrepareValueWithModifier, models.Record.ReplaceModifers), for values read from the database and
// values submitted by a client alike; each type's rules are its definition's (./registry.ts):
//
//   text, editor, email, url, date   string ('' when empty; dates as 2006-01-02 15:04:05.000Z)
//   number                           finite number (0 when empty)
//   bool                             boolean
//   select, file, relation           single: string ('' when empty); multiple: string[] (unique)
//   json                             raw JSON text, or null (stored as NULL)
import { castString, toUniqueStrings } from './shared/casts';
import { fieldDefinition } from './registry';
import type { FieldLike } from './types';

export type RecordData = Record<string, unknown>;
type Field = Pick<FieldLike, 'type' | 'options'>;

/** PrepareValue: any submitted or stored value → the field's normalised value. */
export const prepareValue = (field: Field, value: unknown): unknown => fieldDefinition(field.type).prepare(value, field);

/** A stored column value → the normalised value (NULLs and old column types tolerated). */
export function valueFromColumn(field: Field, raw: unknown): unknown {
  const def = fieldDefinition(field.type);
  return def.fromColumn ? def.fromColumn(raw, field) : def.prepare(raw, field);
}

/** The normalised value → what goes into the column. */
export const valueToColumn = (field: Field, value: unknown): unknown => fieldDefinition(field.type).toColumn(value);

/** The value as it appears in API output (json fields parsed back into values). */
export function valueToOutput(field: Field, value: unknown): unknown {
  const def = fieldDefinition(field.type);
  if (def.toOutput) return def.toOutput(value);
  return Array.isArray(value) ? [...value] : value;
}

/** The empty value of a field (what a new record starts with). */
export const zeroValue = (field: Field): unknown => prepareValue(field, undefined);

/** Field value modifiers (`field+`, `field-`). */
const MODIFIERS = ['+', '-'] as const;

/** Whether a data map has `field+` / `field-` keys. */
export function hasModifierKeys(data: RecordData): boolean {
  return Object.keys(data).some((k) => k.endsWith('+') || k.endsWith('-'));
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The legacy deletions `field.<name>` / `field.<index>` set to ''/null of an upload field, applied to `clone`. */
function legacyFileDeletions(field: FieldLike, current: RecordData, clone: RecordData): void {
  const key = field.name;
  const oldNames = toUniqueStrings(Object.hasOwn(clone, key) ? clone[key] : current[key]);
  const toDelete: string[] = [];
  for (const name of oldNames) {
    const suffixed = `${key}.${name}`;
    if (Object.hasOwn(clone, suffixed) && castString(clone[suffixed]) === '') {
      toDelete.push(name);
      delete clone[suffixed];
    }
  }
  const indexed = new RegExp(`^${escapeRegExp(key)}\\.\\d+$`);
  for (const k of Object.keys(clone)) {
    if (!indexed.test(k) || castString(clone[k]) !== '') continue;
    const index = Number(k.slice(key.length + 1));
    if (!Number.isSafeInteger(index) || index < 0 || index >= oldNames.length) continue;
    toDelete.push(oldNames[index]);
    delete clone[k];
  }
  if (toDelete.length) clone[key] = prepareValue(field, oldNames.filter((n) => !toDelete.includes(n)));
}

/**
 * ReplaceModifers: resolves `field+` / `field-` against the submitted value (when present) or the
 * record's current one, plus the legacy file deletions `field.<name>` / `field.<index>` set to
 * ''/null. Returns a new map; the input is left untouched.
 */
export function replaceModifiers(collection: { schema: readonly FieldLike[] }, current: RecordData, data: RecordData): RecordData {
  const clone: RecordData = { ...data };
  if (Object.keys(clone).length === 0) return clone;
  for (const field of collection.schema) {
    const key = field.name;
    const def = fieldDefinition(field.type);
    for (const m of MODIFIERS) {
      if (!Object.hasOwn(clone, key + m)) continue;
      if (!Object.hasOwn(clone, key)) clone[key] = current[key];
      const base = clone[key];
      clone[key] = def.prepare(def.modify ? def.modify(base, m, clone[key + m]) : base, field);
      delete clone[key + m];
    }
    if (def.uploads) legacyFileDeletions(field, current, clone);
  }
  return clone;
}
