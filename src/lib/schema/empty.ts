/**
 * PocketBase's notion of a blank value for validation: "required" means non-empty, and every other
 * rule skips an empty value. Validating with empty strings dropped gives JSON Schema the same
 * reading, on the dashboard (a loaded "" and a cleared input are both missing) and on the server.
 *
 * Pure module: no React, no Node APIs.
 */

/** A copy of `data` without the object properties whose value is "" (arrays keep their items). */
export function withoutEmptyStrings<T>(data: T): T {
  if (Array.isArray(data)) return data.map((v) => withoutEmptyStrings(v)) as T;
  if (!data || typeof data !== 'object') return data;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) if (v !== '') out[k] = withoutEmptyStrings(v);
  return out as T;
}
