/**
 * Schema defaults for loaded data: a property whose value is missing (or "", which reads as missing,
 * see empty.ts) takes its schema `default`, in nested objects and in conditional branches too. Run
 * on the loaded copy before it becomes the form's pristine data, so a default (e.g. the SMTP AUTH
 * method PLAIN for a stored "") does not count as an unsaved change.
 *
 * Pure module: no React, no Node APIs.
 */
import { isObject } from '../lib/json';
type Json = Record<string, unknown>;

function resolve(root: Json, node: unknown): Json | undefined {
  if (!isObject(node)) return undefined;
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
    const target = node.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((n, k) => (isObject(n) ? n[k] : undefined), root);
    const { $ref: _ref, ...rest } = node;
    return { ...(resolve(root, target) ?? {}), ...rest };
  }
  return node;
}

/** Every `properties` map of a schema node and its branches. */
function propertyMaps(root: Json, node: Json, out: Json[] = [], depth = 0): Json[] {
  if (depth > 8) return out;
  if (isObject(node.properties)) out.push(node.properties);
  for (const k of ['then', 'else']) {
    const b = resolve(root, node[k]);
    if (b) propertyMaps(root, b, out, depth + 1);
  }
  for (const k of ['allOf', 'anyOf', 'oneOf']) {
    if (Array.isArray(node[k])) for (const b of node[k] as unknown[]) {
      const r = resolve(root, b);
      if (r) propertyMaps(root, r, out, depth + 1);
    }
  }
  if (isObject(node.dependencies)) for (const d of Object.values(node.dependencies)) {
    const r = resolve(root, d);
    if (r) propertyMaps(root, r, out, depth + 1);
  }
  return out;
}

export function applyDefaults<T>(schema: object, data: T, root: Json = schema as Json): T {
  const node = resolve(root, schema);
  if (!node || !isObject(data)) return data;
  const out: Json = { ...data };
  for (const props of propertyMaps(root, node)) {
    for (const [key, raw] of Object.entries(props)) {
      const p = resolve(root, raw);
      if (!p) continue;
      if ((out[key] === undefined || out[key] === '') && p.default !== undefined && p.default !== '') out[key] = structuredClone(p.default);
      if (isObject(out[key]) && (p.type === 'object' || isObject(p.properties))) out[key] = applyDefaults(p, out[key], root);
    }
  }
  return out as T;
}
