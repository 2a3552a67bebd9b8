// The differences an entry keeps: { path: { old, new } }, only what changed, secrets masked.
import type { Collection } from '../collections/model';
import { isSecretColumn, isSecretSetting, maskSecret } from './secrets';

interface Change {
  old: unknown;
  new: unknown;
}
export type Changes = Record<string, Change>;

const same = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Columns the write stamps itself (noise in a history). */
const STAMPS = new Set(['created', 'updated']);

/** A record's or admin's columns: old → new (null for a create's old, a delete's new). */
export function rowDiff(old: Record<string, unknown> | null, next: Record<string, unknown> | null): Changes {
  const out: Changes = {};
  const keys = new Set([...Object.keys(old ?? {}), ...Object.keys(next ?? {})]);
  for (const key of keys) {
    if (STAMPS.has(key)) continue;
    const a = old ? old[key] ?? null : null;
    const b = next ? next[key] ?? null : null;
    if (old && next && same(a, b)) continue;
    if (!old && (b === null || b === '')) continue;
    if (!next && (a === null || a === '')) continue;
    out[key] = isSecretColumn(key) ? { old: maskSecret(a), new: maskSecret(b) } : { old: a, new: b };
  }
  return out;
}

const RULES = ['listRule', 'viewRule', 'createRule', 'updateRule', 'deleteRule'];

/** A collection's changes: its own keys, and `schema.<field>` per field (matched by field id). */
export function collectionDiff(old: Collection | null, next: Collection | null): Changes {
  const out: Changes = {};
  const flat = (c: Collection | null): Record<string, unknown> => {
    if (!c) return {};
    const { schema, created: _c, updated: _u, ...rest } = c;
    const o: Record<string, unknown> = { ...rest };
    for (const f of schema) o[`schema.${f.id}`] = f;
    return o;
  };
  const a = flat(old);
  const b = flat(next);
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (same(a[key], b[key])) continue;
    const field = (key.startsWith('schema.') ? ((b[key] ?? a[key]) as { name?: string }) : null);
    out[field ? `schema.${field.name ?? key.slice(7)}` : key] = { old: a[key] ?? null, new: b[key] ?? null };
  }
  return out;
}

/** 'rules' when only API rules changed (the trail's own action for them), else 'update'. */
export const collectionUpdateAction = (changes: Changes): string =>
  Object.keys(changes).length > 0 && Object.keys(changes).every((k) => RULES.includes(k)) ? 'rules' : 'update';

/** The settings document's changed leaves (arrays are leaves), secrets masked. */
export function settingsDiff(old: unknown, next: unknown): Changes {
  const out: Changes = {};
  const walk = (a: unknown, b: unknown, path: string[]) => {
    const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
    if (isObj(a) || isObj(b)) {
      const ao = isObj(a) ? a : {};
      const bo = isObj(b) ? b : {};
      for (const k of new Set([...Object.keys(ao), ...Object.keys(bo)])) walk(ao[k], bo[k], [...path, k]);
      return;
    }
    if (same(a, b)) return;
    out[path.join('.')] = isSecretSetting(path) ? { old: maskSecret(a), new: maskSecret(b) } : { old: a ?? null, new: b ?? null };
  };
  walk(old, next, []);
  return out;
}
