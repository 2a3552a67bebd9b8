// The collections sidebar and page helpers: order (auth, base, view, each by name), search,
// pinned ids, compact mode, and the records sort reset.
import { systemFieldNames } from './fields';
import type { CollectionModel } from './types';

const COMPACT_THRESHOLD = 20;
export const DEFAULT_RECORDS_SORT = '-created';

const TYPE_ORDER: Record<string, number> = { auth: 0, base: 1, view: 2 };

export function sortCollections<T extends Pick<CollectionModel, 'type' | 'name'>>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => {
    const t = (TYPE_ORDER[a.type] ?? 3) - (TYPE_ORDER[b.type] ?? 3);
    if (t !== 0) return t;
    return a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });
  });
}

export function searchCollections<T extends Pick<CollectionModel, 'name' | 'id'>>(list: readonly T[], search: string): T[] {
  const q = search.trim().toLowerCase();
  if (!q) return [...list];
  return list.filter((c) => c.name.toLowerCase().includes(q) || c.id.toLowerCase() === q);
}

export const isCompact = (count: number): boolean => count > COMPACT_THRESHOLD;

/**
 * A records sort that names fields the collection lacks resets to -created (or to '' when the
 * collection has no created column, e.g. a view without it).
 */
export function normalizeRecordsSort(sort: string | undefined, collection: Pick<CollectionModel, 'type' | 'schema'> | null): string {
  const fallback = !collection || collection.type !== 'view' || collection.schema.some((f) => f.name === 'created') ? DEFAULT_RECORDS_SORT : '';
  if (!collection) return sort || fallback;
  if (!sort) return fallback;
  const known = new Set([
    ...(collection.type === 'view' ? ['id'] : systemFieldNames(collection.type)),
    ...collection.schema.map((f) => f.name),
    '@random',
    '@rowid',
  ]);
  const ok = sort
    .split(',')
    .map((s) => s.trim().replace(/^[-+]/, ''))
    .filter(Boolean)
    .every((name) => known.has(name.split('.')[0]));
  return ok ? sort : fallback;
}
