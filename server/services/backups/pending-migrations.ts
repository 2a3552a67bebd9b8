// The pb_migrations files that would run after a backup is restored: 0.22 applies, right after the
// restart, every file of the folder the restored data.db has not recorded (a collection created
// after the backup comes back, as its automigrate file runs). What a backup applied is read once
// (its data.db streamed out of the zip, ./peek.ts; its `_migrations` rows read in a child process,
// ../../migrations/pending.ts) and kept per backup key, size and date, so listing many backups
// again costs a directory read; the folder itself is read at every call (files come and go).
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../../context';
import { pendingMigrationFiles, readAppliedMigrations, UnreadableHistoryError } from '../../migrations/pending';
import type { S3Settings } from '../settings';
import { InvalidArchiveError } from './archive';
import { openBackupsFs, type BackupsFs } from './fsys';
import { isBackupKey } from './names';
import { extractDatabase, PeekUnavailableError, peekLimits } from './peek';
import { tempRoot } from './temp';

/** No backup of that key in the storage the settings name. */
export class BackupNotFoundError extends Error {}

/** What a backup can never tell (kept in the cache, as the backup it describes does not change). */
export class BackupHistoryError extends Error {}

/** A failure of the moment (time budget, storage, disk): not kept, the next call tries again. */
export class BackupHistoryUnavailableError extends Error {}

type History = { applied: ReadonlySet<string> } | { error: string };

/** Entries kept (a history is a few hundred short names; a refused backup, one message). */
const CACHE_SIZE = 256;
const cache = new Map<string, Promise<History>>();

/** Backups read at once (each is a streamed copy and a child process). */
const CONCURRENCY = 2;
let running = 0;
const waiting: Array<() => void> = [];

async function limited<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

const storageId = (dataDir: string, s3: S3Settings) => (s3.enabled ? `s3:${s3.endpoint}|${s3.region}|${s3.bucket}` : `local:${dataDir}`);

interface BackupRef {
  key: string;
  size: number;
  modified: Date;
}

/** What the backup applied, from the cache or read now (one read per backup at a time). */
function history(ctx: AppContext, fsys: BackupsFs, s3: S3Settings, b: BackupRef): Promise<History> {
  const id = [storageId(ctx.dataDir, s3), b.key, b.size, b.modified.getTime()].join('\0');
  const hit = cache.get(id);
  if (hit) {
    // most recently used last
    cache.delete(id);
    cache.set(id, hit);
    return hit;
  }
  const read = limited(() => readHistory(ctx, fsys, b));
  cache.set(id, read);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  // a failure of the moment is forgotten at once
  read.catch(() => cache.get(id) === read && cache.delete(id));
  return read;
}

async function readHistory(ctx: AppContext, fsys: BackupsFs, b: BackupRef): Promise<History> {
  const limits = peekLimits();
  const work = await fsp.mkdtemp(path.join(await tempRoot(ctx.dataDir), 'pb_peek_'));
  try {
    const db = await extractDatabase(fsys, b.key, b.size, work, limits);
    return { applied: new Set(await readAppliedMigrations(db, limits.timeoutMs)) };
  } catch (err) {
    if (err instanceof UnreadableHistoryError && !err.transient) return { error: err.message };
    if (err instanceof InvalidArchiveError) return { error: err.message };
    if (err instanceof PeekUnavailableError || err instanceof UnreadableHistoryError) throw new BackupHistoryUnavailableError(err.message);
    throw new BackupHistoryUnavailableError(`The backup cannot be read now (${(err as Error).message}).`);
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}

function pendingOf(h: History, dir: string): string[] {
  if ('error' in h) throw new BackupHistoryError(h.error);
  return pendingMigrationFiles(dir, h.applied);
}

async function withFs<T>(ctx: AppContext, fn: (fsys: BackupsFs, s3: S3Settings) => Promise<T>): Promise<T> {
  const s3 = ctx.settings.get().backups.s3;
  const fsys = openBackupsFs(ctx.dataDir, s3);
  try {
    return await fn(fsys, s3);
  } finally {
    fsys.close();
  }
}

/** The files of `dir` that restoring `key` would run, in their order. */
export function pendingForBackup(ctx: AppContext, dir: string, key: string): Promise<string[]> {
  return withFs(ctx, async (fsys, s3) => {
    const info = isBackupKey(key) ? await fsys.stat(key) : null;
    if (!info) throw new BackupNotFoundError(key);
    return pendingOf(await history(ctx, fsys, s3, info), dir);
  });
}

export interface PendingCount {
  key: string;
  /** null: the backup cannot tell (see `message`). */
  count: number | null;
  message?: string;
}

/** For every backup of the storage: how many files restoring it would run. */
export function pendingCounts(ctx: AppContext, dir: string): Promise<PendingCount[]> {
  return withFs(ctx, async (fsys, s3) => {
    const items = await fsys.list();
    return Promise.all(
      items.map(async (b): Promise<PendingCount> => {
        try {
          return { key: b.key, count: pendingOf(await history(ctx, fsys, s3, b), dir).length };
        } catch (err) {
          return { key: b.key, count: null, message: (err as Error).message };
        }
      }),
    );
  });
}
