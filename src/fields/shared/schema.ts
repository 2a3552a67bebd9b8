// The pieces field definitions build their value schemas and editor options from: PocketBase
// 0.22's messages and codes carried by the engine's x-messages / x-codes keywords, the
// multiple-value rule, and the option readers.
import type { FieldLike, JsonSchema } from '../types';

export const REQUIRED_MESSAGE = 'Missing required value.';
export const REQUIRED_CODE = 'validation_required';
export const DEFAULT_FILE_MAX_SIZE = 5242880;
export const DEFAULT_JSON_MAX_SIZE = 2000000;
/** govalidator's IsEmail as the server checks it (a dotted domain is required). */
export const EMAIL_PATTERN =
  "^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$";

export type Messages = Record<string, [code: string, message: string]>;

export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
/** A number option that is set (0 counts as unset, as 0.22's docs read it). */
export const setNumber = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v !== 0 ? v : null);
export const strings = (v: unknown): string[] => (Array.isArray(v) ? (v as unknown[]).map(String) : []);
export const requiredMessage = (): Messages => ({ required: [REQUIRED_CODE, REQUIRED_MESSAGE] });

export function withMessages(schema: JsonSchema, entries: Messages): JsonSchema {
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

/** Go's %f (six decimals), as PocketBase words number limits. */
export const goFloat = (n: number) => n.toFixed(6);

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

/**
 * PocketBase's IsMultiple: a relation without maxSelect (or above 1) holds many; select and file need
 * maxSelect above 1. Only a number counts (0.22 decodes maxSelect as an integer), for the dashboard,
 * the record schema and the server alike.
 */
export function isMultiple(field: { type: string; options?: Record<string, unknown> }): boolean {
  const max = field.options?.maxSelect;
  if (field.type === 'relation') return max === null || max === undefined || (typeof max === 'number' && max > 1);
  if (field.type === 'select' || field.type === 'file') return typeof max === 'number' && max > 1;
  return false;
}

/** How many items a multi-value field may hold (undefined: no limit). */
export function maxSelectOf(field: Pick<FieldLike, 'type' | 'options'>): number | undefined {
  const max = num(field.options?.maxSelect);
  if (field.type === 'relation') return max && max > 0 ? max : undefined;
  return max && max > 0 ? max : 1;
}

/** The schema of a select or file value: one string, or a list of at most maxSelect. */
export function listSchema(field: FieldLike, item: JsonSchema): JsonSchema {
  if (!isMultiple(field)) return withMessages(item, requiredMessage());
  const max = maxSelectOf(field) ?? 1;
  return withMessages(
    { type: 'array', items: item, maxItems: max, ...(field.required ? { minItems: 1 } : {}) },
    {
      ...requiredMessage(),
      ...(field.required ? { minItems: [REQUIRED_CODE, REQUIRED_MESSAGE] as [string, string] } : {}),
      maxItems: ['validation_too_many_values', `Select no more than ${max}.`],
    },
  );
}
