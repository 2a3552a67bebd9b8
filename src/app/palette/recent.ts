// The records opened lately (newest first), kept locally for the command palette.
import { parseHash } from '../../shell/navigation';

export type RecentRecord = { collectionId: string; id: string };
const RECENT_STORAGE_KEY = 'outpost_recent_records';
const MAX_RECENT = 8;

export function readRecent(): RecentRecord[] {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(RECENT_STORAGE_KEY) ?? '[]');
    if (!Array.isArray(list)) return [];
    return list
      .filter((r): r is RecentRecord => !!r && typeof r.collectionId === 'string' && typeof r.id === 'string')
      .slice(0, MAX_RECENT);
  } catch {
    return [];
  }
}

/** Remembers the record the URL points at (#/collections?collectionId=…&recordId=…). */
export function rememberFromHash(hash: string): void {
  const { path, query } = parseHash(hash);
  if (path !== '/collections' || !query.collectionId || !/^[a-z0-9]{15}$/.test(query.recordId ?? '')) return;
  const entry = { collectionId: query.collectionId, id: query.recordId };
  const list = [entry, ...readRecent().filter((r) => r.id !== entry.id)].slice(0, MAX_RECENT);
  try {
    localStorage.setItem(RECENT_STORAGE_KEY, JSON.stringify(list));
  } catch {
    /* storage full or disabled: nothing to remember */
  }
}
