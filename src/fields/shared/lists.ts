// The value of the list-valued types (select, file, relation): one string, or unique strings when
// the field holds many; stored as text or a JSON array.
import type { FieldLike } from '../types';
import { toUniqueStrings } from './casts';
import { isMultiple } from './schema';

type Field = Pick<FieldLike, 'type' | 'options'>;

/** PrepareValue of a list field: the last item when single. */
export function prepareList(value: unknown, field: Field): unknown {
  const list = toUniqueStrings(value);
  if (isMultiple(field)) return list;
  return list.length ? list[list.length - 1] : '';
}

export const listToColumn = (value: unknown): unknown => (Array.isArray(value) ? JSON.stringify(value) : String(value ?? ''));

/** `field+` appends, `field-` removes. */
export function addOrRemove(base: unknown, modifier: '+' | '-', operand: unknown): unknown {
  if (modifier === '+') return [...toUniqueStrings(base), ...toUniqueStrings(operand)];
  const remove = new Set(toUniqueStrings(operand));
  return toUniqueStrings(base).filter((v) => !remove.has(v));
}

/** The form's value: a list when multiple, else the last item or ''. */
export function listToForm(value: unknown, field: Field): unknown {
  const list = Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? [value] : [];
  return isMultiple(field) ? list : (list[list.length - 1] ?? '');
}

/** A form value sent as is, an untouched one as the empty value. */
export const listToRequest = (value: unknown, field: Field) => ({ ok: true as const, value: value === undefined ? (isMultiple(field) ? [] : '') : value });

/** A list from a JSON array, an array, or comma-separated text (blank items dropped). */
export function castList(v: unknown): string[] {
  if (Array.isArray(v)) return v.map((x) => String(x)).filter((x) => x !== '');
  if (v === null || v === undefined) return [];
  const s = String(v).trim();
  if (s.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(s);
      if (Array.isArray(parsed)) return parsed.map((x) => String(x)).filter((x) => x !== '');
    } catch {
      /* not JSON: read it as comma-separated text */
    }
  }
  return s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
}

/** An import cell of a select or relation field. */
export const importList = (cell: unknown, field: Field): unknown => {
  const list = castList(cell);
  return isMultiple(field) ? list : (list[0] ?? '');
};

/** A value as a list of its non-empty items. */
export function toList<T = unknown>(value: unknown): T[] {
  if (value === null || value === undefined || value === '') return [];
  return (Array.isArray(value) ? value : [value]).filter((v) => v !== null && v !== undefined && v !== '') as T[];
}
