/**
 * Converts the `data` of a PocketBase error response (`{ email: { code, message } }`, nested for
 * objects and arrays) into rjsf's ErrorSchema, so server errors show under their fields.
 *
 * No React, no Node APIs.
 */
import type { ErrorSchema } from '@rjsf/utils';
import { isObject } from '../lib/json';
import { serverWords, t } from '../ui/i18n';


/** A leaf is a PocketBase error entry: `{code, message}`, an empty object or a bare value. */
function isLeaf(v: unknown): boolean {
  if (!isObject(v)) return !Array.isArray(v);
  const keys = Object.keys(v);
  return keys.length === 0 || 'code' in v || 'message' in v;
}

function leafMessage(v: unknown): string {
  if (typeof v === 'string' && v) return v;
  // shown in the dashboard's language through its code
  if (isObject(v) && typeof v.message === 'string' && v.message) return serverWords(v.message, typeof v.code === 'string' ? v.code : undefined);
  return t('form.invalidValue');
}

/** Walks the error data; `prefix` (a dot path) selects the part bound to one form section. */
export function serverErrorSchema(data: unknown, prefix = ''): ErrorSchema {
  let node: unknown = data;
  for (const key of prefix.split('.').filter(Boolean)) node = isObject(node) || Array.isArray(node) ? (node as any)[key] : undefined;
  const build = (value: unknown): ErrorSchema | undefined => {
    if (value === undefined || value === null) return undefined;
    if (isLeaf(value)) return { __errors: [leafMessage(value)] } as ErrorSchema;
    const out: Record<string, ErrorSchema> = {};
    for (const [k, v] of Object.entries(value as object)) {
      const child = build(v);
      if (child) out[k] = child;
    }
    return Object.keys(out).length ? (out as ErrorSchema) : undefined;
  };
  if (!isObject(node) && !Array.isArray(node)) return {};
  return build(node) ?? {};
}
