// The pb_migrations files a restore would run (PocketBase 0.22 applies, right after restoring a
// backup, every file its data.db has not recorded): Outpost's admin-only
// GET /api/outpost/backups/{key}/migrations for the restore dialog and
// GET /api/outpost/backups/migrations for the list's counts. PocketBase has neither route (404):
// the dashboard then says nothing about migrations, as Settings › Migrations does.
import { useEffect, useState } from 'react';
import { pb } from '../../../api/client';
import type { BackupItem } from './backups-api';
import { errorMessage } from './backups-api';
import { t } from '../../../ui/i18n';

export type PendingState =
  | { kind: 'loading' }
  /** The server has no such route (PocketBase itself). */
  | { kind: 'unavailable' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; files: string[] };

interface PendingAnswer {
  key: string;
  count: number;
  files: string[];
}

interface CountsAnswer {
  items: Array<{ key: string; count: number | null }>;
}

const isNotFound = (err: unknown) => (err as { status?: number })?.status === 404;

/** The files restoring `key` would run, fetched while `key` is set (the dialog is open). */
export function usePendingMigrations(key: string | null): PendingState {
  // the answer with the key it is for: a dialog reopened on another backup never shows the last one's
  const [answer, setAnswer] = useState<{ key: string; state: PendingState } | null>(null);
  useEffect(() => {
    if (key === null) return;
    let alive = true;
    const settle = (state: PendingState) => alive && setAnswer({ key, state });
    pb.send<PendingAnswer>(`/api/outpost/backups/${encodeURIComponent(key)}/migrations`, { requestKey: null }).then(
      (res) => settle({ kind: 'ready', files: Array.isArray(res?.files) ? res.files : [] }),
      (err: unknown) => settle(isNotFound(err) ? { kind: 'unavailable' } : { kind: 'error', message: errorMessage(err) }),
    );
    return () => {
      alive = false;
      setAnswer(null);
    };
  }, [key]);
  return answer !== null && answer.key === key ? answer.state : { kind: 'loading' };
}

/**
 * How many files restoring each backup would run, asked once the list is in (never before it, so
 * the list is not held up) and again whenever it is reloaded. Failures leave the counts out.
 */
export function usePendingCounts(items: readonly BackupItem[], loading: boolean): ReadonlyMap<string, number> {
  const [counts, setCounts] = useState<ReadonlyMap<string, number>>(new Map());
  useEffect(() => {
    if (loading || items.length === 0) return;
    let alive = true;
    pb.send<CountsAnswer>('/api/outpost/backups/migrations', { requestKey: null }).then(
      (res) => {
        if (!alive) return;
        const next = new Map<string, number>();
        for (const item of res?.items ?? []) if (typeof item.count === 'number') next.set(item.key, item.count);
        setCounts(next);
      },
      // PocketBase (404) or a failure: the list simply shows no counts
      () => alive && setCounts(new Map()),
    );
    return () => {
      alive = false;
    };
  }, [items, loading]);
  return counts;
}

/** '1 migration pending', '3 migrations pending'. */
export const pendingLabel = (count: number) => t('backups.pending', { count });
