/**
 * The one mapper from ajv errors to PocketBase's error tree: `{field: {code, message}}`, nested for
 * nested properties (`{meta: {appUrl: {…}}}`), keys sorted as Go encodes maps. Settings, records,
 * collections and field options all answer through it; the words come from the schema's
 * `x-codes` / `x-messages` (./schema-words.ts), so the API and the dashboard word an error the same.
 *
 * Pure module: no React, no Node APIs, no rjsf (ajv only as a type).
 */
import type { ErrorObject } from 'ajv';
import { codeOf, keywordPriority, messageOf, WRAPPER_KEYWORDS, type KeywordFailure } from './schema-words.js';
import { isObject } from '../json';

export interface FieldError {
  code: string;
  message: string;
}
export type ErrorTree = { [key: string]: FieldError | ErrorTree };

/** The part of an ajv error the mapper reads. */
export type SchemaError = Pick<ErrorObject, 'keyword' | 'instancePath' | 'schemaPath' | 'params'> & { data?: unknown };

export interface ErrorTreeOptions {
  /** The validated document, for messages naming the failing value (when ajv was not verbose). */
  data?: unknown;
  /** Report at the top-level property only (a record's field), however deep the failure. */
  flat?: boolean;
}

const isLeaf = (v: unknown): v is FieldError => isObject(v) && typeof v.code === 'string';

function valueAt(doc: unknown, path: readonly string[]): unknown {
  let node = doc;
  for (const key of path) node = isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
  return node;
}

function failureOf(e: SchemaError, data: unknown): KeywordFailure {
  const path = e.instancePath.split('/').filter(Boolean).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = e.params as Record<string, unknown>;
  const missing = e.keyword === 'required' || e.keyword === 'dependencies' ? params.missingProperty : undefined;
  const full = missing === undefined ? path : [...path, String(missing)];
  // a property dependency ("b is required when a is set") reads like any other missing value
  const keyword = e.keyword === 'dependencies' ? 'required' : e.keyword;
  return { keyword, path: full, params, schemaPath: e.schemaPath, value: e.data !== undefined ? e.data : valueAt(data, path) };
}

/** Sets the first error for a path, unless a parent already failed as a whole. */
function setLeaf(out: ErrorTree, path: readonly string[], leaf: FieldError): void {
  let node = out;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (isLeaf(next)) return;
    node = (node[key] ??= {}) as ErrorTree;
  }
  const last = path[path.length - 1];
  if (node[last] === undefined) node[last] = leaf;
}

/** Go encodes error maps with sorted keys. */
export function sortErrorTree<T extends ErrorTree>(tree: T): T {
  const out: ErrorTree = {};
  for (const key of Object.keys(tree).sort()) {
    const v = tree[key];
    out[key] = isLeaf(v) ? v : sortErrorTree(v);
  }
  return out as T;
}

/** PocketBase's error tree for ajv's errors against `schema`: each property reports its most basic failure. */
export function errorTree(schema: Record<string, unknown>, errors: readonly SchemaError[], options: ErrorTreeOptions = {}): ErrorTree {
  const failures = errors
    .filter((e) => !WRAPPER_KEYWORDS.has(e.keyword))
    .map((e) => failureOf(e, options.data))
    .filter((f) => f.path.length > 0)
    .sort((a, b) => keywordPriority(a.keyword) - keywordPriority(b.keyword));
  const out: ErrorTree = {};
  for (const f of failures) {
    setLeaf(out, options.flat ? f.path.slice(0, 1) : f.path, { code: codeOf(schema, f), message: messageOf(schema, f) });
  }
  return sortErrorTree(out);
}
