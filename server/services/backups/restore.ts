// Restoring a backup (0.22's RestoreBackup, made crash-safe): fetch the archive to the temp
// folder, inspect it, extract it, and only then swap the data dir's content and restart the app
// in-process (same port) through ctx.restart. Anything failing before the swap changes nothing.
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { AppContext, RestartPlan } from '../../context';
import { openDatabase, type DB } from '../../db/database';
import { archiveLimits, extractArchive, inspectArchive, InvalidArchiveError } from './archive';
import { openBackupsFs } from './fsys';
import { finishSwap, rollBack, swapDataDir } from './swap';
import { tempRoot } from './temp';

export interface PreparedRestore {
  /** The extracted backup, inside the data dir's temp folder. */
  dir: string;
  /** Removes the extracted files (when the restore does not go ahead). */
  discard(): Promise<void>;
}

/** Downloads (S3) or locates (local) the archive, checks it and extracts it; throws InvalidArchiveError. */
export async function prepareRestore(ctx: AppContext, key: string): Promise<PreparedRestore> {
  const root = await tempRoot(ctx.dataDir);
  const work = await fsp.mkdtemp(path.join(root, 'pb_restore_'));
  const discard = () => fsp.rm(work, { recursive: true, force: true });
  try {
    const fsys = openBackupsFs(ctx.dataDir, ctx.settings.get().backups.s3);
    let zip: string;
    try {
      zip = fsys.localPath(key) ?? path.join(work, 'backup.zip');
      if (!fsys.localPath(key)) await fsys.download(key, zip);
    } finally {
      fsys.close();
    }
    const { unpackedBytes } = await inspectArchive(zip);
    // a backup that cannot fit is refused before a byte is unpacked (64 MB may unpack to 64 GiB)
    const free = await freeBytes(ctx.dataDir);
    if (unpackedBytes > free) {
      throw new InvalidArchiveError(`Not enough disk space to restore the backup: it unpacks to ${megabytes(unpackedBytes)} and ${megabytes(free)} are free.`);
    }
    const dir = path.join(work, 'pb_data');
    // the sizes a zip declares may lie: what really comes out is capped by the free space too
    await extractArchive(zip, dir, { ...archiveLimits(), maxUnpackedBytes: Math.min(archiveLimits().maxUnpackedBytes, free) });
    await checkDatabase(path.join(dir, 'data.db'));
    if (!fsys.localPath(key)) await fsp.rm(zip, { force: true });
    return { dir, discard };
  } catch (err) {
    await discard();
    throw err;
  }
}

export class InvalidDatabaseError extends Error {}

/** Bytes free for this process on the data dir's file system, less a 16 MB margin for the databases. */
async function freeBytes(dir: string): Promise<number> {
  const st = await fsp.statfs(dir);
  return Math.max(0, st.bavail * st.bsize - 16 * 1024 * 1024);
}

const megabytes = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/** The extracted data.db must be an SQLite database with PocketBase's tables (also checked at upload). */
export async function checkDatabase(file: string): Promise<void> {
  const head = Buffer.alloc(16);
  const fh = await fsp.open(file, 'r');
  try {
    await fh.read(head, 0, 16, 0);
  } finally {
    await fh.close();
  }
  if (head.toString('latin1') !== 'SQLite format 3\0') throw new InvalidDatabaseError('data.db is not an SQLite database.');
  let db: DB | undefined;
  try {
    db = openDatabase(file);
    const row = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('_collections', '_admins', '_params')").get() as { n: number };
    if (row.n !== 3) throw new InvalidDatabaseError('data.db is not a PocketBase database (missing system tables).');
  } catch (err) {
    if (err instanceof InvalidDatabaseError) throw err;
    throw new InvalidDatabaseError(`data.db cannot be opened (${(err as Error).message}).`);
  } finally {
    db?.close();
  }
}

/** The swap for ctx.restart: in with the extracted content; revert puts the old one back. */
export function restorePlan(dataDir: string, prepared: PreparedRestore): RestartPlan {
  return {
    apply: async () => swapDataDir(dataDir, prepared.dir),
    revert: async () => {
      rollBack(dataDir);
      await prepared.discard();
    },
    done: () => finishSwap(dataDir),
  };
}
