// The `@request.*` side of the record resolver: the request values a rule may read, normalised
// the way PocketBase 0.22 exposes them (resolvers/record_field_resolver.go), and turned into
// bound SQL values.
import type { Collection } from '../collections/model';
import type { ResolvedField } from './field-resolver';
import { FilterError } from './filter-ast';
import { findField } from './record-fields';
import { isNumberField } from '../../src/fields/number/field';

/** What a rule may know about the request being authorised. */
export interface RequestInfo {
  method: string;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  /** The submitted body, with `field+` / `field-` already applied. */
  data: Record<string, unknown>;
  /** The auth record incl. collectionId/collectionName (and email, whatever its visibility), or null. */
  auth: Record<string, unknown> | null;
  isAdmin: boolean;
  /**
   * A scoped admin (Outpost's roles): the collections whose records it reads as an admin. Absent
   * for full admins; an expand into another collection yields nothing for it.
   */
  adminReads?: (collection: { id: string; name: string }) => boolean;
  /** `@request.context`: default, realtime, protectedFile or oauth2 (0.22). Default 'default'. */
  context?: string;
}

const MODIFIERS = ['isset', 'each', 'length'] as const;
export type Modifier = (typeof MODIFIERS)[number];

/** `name:modifier` → parts; an unknown modifier is an error (PocketBase's splitModifier). */
export function splitModifier(prop: string): { name: string; modifier: Modifier | '' } {
  const parts = prop.split(':');
  if (parts.length !== 2) return { name: prop, modifier: '' };
  if (!(MODIFIERS as readonly string[]).includes(parts[1])) throw new FilterError(`unknown modifier in ${JSON.stringify(prop)}`);
  return { name: parts[0], modifier: parts[1] as Modifier };
}

/** The tree `@request.<key>...` paths walk. */
export function staticRequestInfo(req: RequestInfo): Record<string, unknown> {
  const headers: Record<string, unknown> = {};
  // PocketBase exposes headers lowercased with '-' as '_' (@request.headers.x_token)
  for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase().replace(/-/g, '_')] = v;
  const query: Record<string, unknown> = {};
  // like echo's binding into map[string]any, a repeated query key keeps its first value
  for (const [k, v] of Object.entries(req.query ?? {})) query[k] = Array.isArray(v) ? v[0] : v;
  return {
    context: req.context ?? 'default',
    method: req.method.toUpperCase(),
    query,
    headers,
    data: req.data ?? {},
    auth: req.auth ?? null,
  };
}

function extract(tree: Record<string, unknown>, keys: string[]): { found: boolean; value: unknown } {
  let cur: unknown = tree;
  for (const key of keys) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur) || !Object.hasOwn(cur, key)) {
      return { found: false, value: undefined };
    }
    cur = (cur as Record<string, unknown>)[key];
  }
  return { found: true, value: cur };
}

export const NULL_FIELD: ResolvedField = { sql: 'NULL', params: [], literal: { value: null } };

const GO_FLOAT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A static `@request.*` value as a bound literal. `:isset` answers whether the key exists; a
 * numeric string for a number field of the collection becomes a number (multipart bodies send
 * strings); objects and arrays compare as their JSON text; booleans bind as 1/0.
 */
export function resolveStaticField(tree: Record<string, unknown>, base: Collection, path: string[]): ResolvedField {
  const keys = [...path];
  const { name, modifier } = splitModifier(keys[keys.length - 1]);
  keys[keys.length - 1] = name;
  const { found, value } = extract(tree, keys);
  if (modifier === 'isset') return { sql: found ? 'TRUE' : 'FALSE', params: [] };

  let v: unknown = value;
  if (v === null || v === undefined) return NULL_FIELD;
  if (typeof v === 'string') {
    if (isNumberField(findField(base, name)) && GO_FLOAT.test(v)) v = Number(v);
  } else if (typeof v === 'boolean') {
    v = v ? 1 : 0;
  } else if (typeof v === 'object') {
    v = JSON.stringify(v);
  } else if (typeof v !== 'number' && typeof v !== 'bigint') {
    v = String(v);
  }
  return { sql: '?', params: [v], literal: { value: v } };
}

export { toUniqueStrings } from '../../src/fields/shared/casts';
