// Making a backup: a consistent snapshot of data.db and logs.db (SQLite's online backup, so the
// app keeps serving reads and writes), hard links to the storage files as they are right after
// the snapshot (a file deleted or replaced meanwhile keeps its snapshot content), then one zip
// streamed from those to a temp file and handed to the backups storage. The temp folder is
// removed whatever happens.
import type { Dirent } from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { AppContext } from '../../context';
import { backupDatabase, type DB } from '../../db/database';
import { EXCLUDED_ROOT_ENTRIES, writeArchive, type ArchiveSource } from './archive';
import { openBackupsFs } from './fsys';
import { tempRoot } from './temp';

/** Database files the snapshots replace (the live ones and their WAL/SHM are never archived). */
const DB_FILES = new Set(['data.db', 'data.db-wal', 'data.db-shm', 'data.db-journal', 'logs.db', 'logs.db-wal', 'logs.db-shm', 'logs.db-journal']);

/**
 * Copies one of the app's databases to `dest` while the app keeps using it (SQLite's online
 * backup). Built by the composition root (server/app.ts) over its connections: the backups are
 * the one module besides the stores that needs them.
 */
export type DatabaseSnapshot = (name: 'data.db' | 'logs.db', dest: string) => Promise<void>;

export function databaseSnapshot(db: DB, logsDb: DB): DatabaseSnapshot {
  return (name, dest) => backupDatabase(name === 'data.db' ? db : logsDb, dest);
}

export async function createBackup(ctx: AppContext, snapshot: DatabaseSnapshot, key: string): Promise<void> {
  const root = await tempRoot(ctx.dataDir);
  const work = await fsp.mkdtemp(path.join(root, 'pb_backup_'));
  try {
    const sources: ArchiveSource[] = [];
    for (const name of ['data.db', 'logs.db'] as const) {
      const file = path.join(work, name);
      await snapshot(name, file);
      sources.push({ name, file, mtime: new Date() });
    }
    await linkTree(ctx.dataDir, path.join(work, 'files'), sources);
    const zipFile = path.join(work, 'backup.zip');
    await writeArchive(sources, zipFile);
    const fsys = openBackupsFs(ctx.dataDir, ctx.settings.get().backups.s3);
    try {
      await fsys.putFile(key, zipFile);
    } finally {
      fsys.close();
    }
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}

const deflateRaw = promisify(zlib.deflateRaw);

/** Hard links made at once (each is a few syscalls on the thread pool). */
const LINK_CONCURRENCY = 16;

/**
 * Mirrors the data dir's regular files (minus databases, backups and temp) into `dest` as hard
 * links, adding each to `sources`. Symlinks and special files are skipped; a file that vanishes
 * while walking is simply not part of the backup.
 */
async function linkTree(srcRoot: string, destRoot: string, sources: ArchiveSource[]): Promise<void> {
  const files: string[] = [];
  const walk = async (rel: string) => {
    let entries: Dirent[];
    try {
      entries = await fsp.readdir(path.join(srcRoot, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (!rel && (EXCLUDED_ROOT_ENTRIES.includes(e.name) || DB_FILES.has(e.name))) continue;
      if (e.isDirectory()) await walk(childRel);
      else if (e.isFile()) files.push(childRel);
    }
  };
  await walk('');

  const linked = new Array<ArchiveSource | null>(files.length).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const i = next++;
      const rel = files[i];
      const src = path.join(srcRoot, ...rel.split('/'));
      const dest = path.join(destRoot, ...rel.split('/'));
      await fsp.mkdir(path.dirname(dest), { recursive: true });
      try {
        await fsp.link(src, dest);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        // file systems without hard links: a copy
        try {
          await fsp.copyFile(src, dest);
        } catch {
          continue;
        }
      }
      const st = await fsp.stat(dest);
      linked[i] = { name: rel, file: dest, mtime: st.mtime, store: isCompressed(rel) || (await looksIncompressible(dest, st.size)) };
    }
  };
  await Promise.all(Array.from({ length: LINK_CONCURRENCY }, worker));
  for (const s of linked) if (s) sources.push(s);
}

const SAMPLE_BYTES = 64 * 1024;

/**
 * Whether deflate would save less than 5% on the file's first 64 KB (random or encrypted data,
 * media without a known extension): such files are stored, which makes backups several times
 * faster on a small CPU and the archive barely bigger.
 */
async function looksIncompressible(file: string, size: number): Promise<boolean> {
  if (size < SAMPLE_BYTES) return false;
  const fh = await fsp.open(file, 'r');
  try {
    const sample = Buffer.alloc(SAMPLE_BYTES);
    const { bytesRead } = await fh.read(sample, 0, SAMPLE_BYTES, 0);
    const packed = await deflateRaw(sample.subarray(0, bytesRead), { level: 1 });
    return packed.length > bytesRead * 0.95;
  } catch {
    return false;
  } finally {
    await fh.close();
  }
}

/** Formats that deflate cannot shrink are stored as they are (faster, same archive for readers). */
const COMPRESSED = /\.(zip|gz|tgz|bz2|xz|zst|br|7z|rar|png|jpe?g|gif|webp|avif|heic|mp4|m4v|mov|webm|mkv|mp3|m4a|aac|ogg|opus|flac|woff2?)$/i;
const isCompressed = (name: string): boolean => COMPRESSED.test(name);
