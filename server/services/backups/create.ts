// Making a backup: a consistent snapshot of data.db and logs.db (SQLite's online backup, so the
// app keeps serving reads and writes), hard links to the storage files as they are right after
// the snapshot (a file deleted or replaced meanwhile keeps its snapshot content), then one zip
// streamed from those to a temp file and handed to the backups storage. The temp folder is
// removed whatever happens.
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../../context';
import { backupDatabase } from '../../db/database';
import { EXCLUDED_ROOT_ENTRIES, writeArchive, type ArchiveSource } from './archive';
import { openBackupsFs } from './fsys';
import { tempRoot } from './temp';

/** Database files the snapshots replace (the live ones and their WAL/SHM are never archived). */
const DB_FILES = new Set(['data.db', 'data.db-wal', 'data.db-shm', 'data.db-journal', 'logs.db', 'logs.db-wal', 'logs.db-shm', 'logs.db-journal']);

export async function createBackup(ctx: AppContext, key: string): Promise<void> {
  const root = await tempRoot(ctx.dataDir);
  const work = await fsp.mkdtemp(path.join(root, 'pb_backup_'));
  try {
    const sources: ArchiveSource[] = [];
    for (const name of ['data.db', 'logs.db'] as const) {
      const file = path.join(work, name);
      await backupDatabase(name === 'data.db' ? ctx.db : ctx.logsDb, file);
      sources.push({ name, file, mtime: new Date() });
    }
    await linkTree(ctx.dataDir, path.join(work, 'files'), '', sources);
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

/**
 * Mirrors the data dir's regular files (minus databases, backups and temp) into `dest` as hard
 * links, adding each to `sources`. Symlinks and special files are skipped; a file that vanishes
 * while walking is simply not part of the backup.
 */
async function linkTree(srcRoot: string, destRoot: string, rel: string, sources: ArchiveSource[]): Promise<void> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fsp.readdir(path.join(srcRoot, rel), { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const childRel = rel ? `${rel}/${e.name}` : e.name;
    if (!rel && (EXCLUDED_ROOT_ENTRIES.includes(e.name) || DB_FILES.has(e.name))) continue;
    const src = path.join(srcRoot, ...childRel.split('/'));
    const dest = path.join(destRoot, ...childRel.split('/'));
    if (e.isDirectory()) {
      await linkTree(srcRoot, destRoot, childRel, sources);
    } else if (e.isFile()) {
      await fsp.mkdir(path.dirname(dest), { recursive: true });
      try {
        await fsp.link(src, dest);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') continue;
        // file systems without hard links: a copy
        try {
          await fsp.copyFile(src, dest);
        } catch {
          continue;
        }
      }
      const st = await fsp.stat(dest);
      sources.push({ name: childRel, file: dest, mtime: st.mtime });
    }
  }
}
