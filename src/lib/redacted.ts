/** The placeholder PocketBase returns instead of a stored secret (settings are redacted). */
export const REDACTED_MASK = '******';

/** Drops properties still holding the mask, so saving never overwrites a secret with it. */
export function withoutRedacted<T>(data: T): T {
  if (Array.isArray(data)) return data.map(withoutRedacted) as T;
  if (!data || typeof data !== 'object') return data;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) if (v !== REDACTED_MASK) out[k] = withoutRedacted(v);
  return out as T;
}
