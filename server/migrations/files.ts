// The migration files of a pb_migrations folder as 0.22's jsvm finds them: every regular file
// whose name ends in .js or .ts (`^.*(\.js|\.ts)$`), run in file-name order.
import fs from 'node:fs';
import path from 'node:path';

const FILE_PATTERN = /^.*(\.js|\.ts)$/;

export interface MigrationFile {
  /** The name recorded in `_migrations.file`. */
  file: string;
  path: string;
}

/** 0.22's default: `<dataDir>/../pb_migrations`. */
function defaultMigrationsDir(dataDir: string): string {
  return path.join(path.resolve(dataDir), '..', 'pb_migrations');
}

/** The files in name order (Go sorts byte-wise); a missing folder has none. */
export function listMigrationFiles(dir: string): MigrationFile[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return entries
    .filter((e) => !e.isDirectory() && FILE_PATTERN.test(e.name))
    .map((e) => ({ file: e.name, path: path.join(dir, e.name) }))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** The leading unix timestamp of a file name (`1700000000_name.js`), or null. */
function timestampOf(file: string): string | null {
  return /^(\d+)_/.exec(file)?.[1] ?? null;
}

/** A file name for a new migration that sorts after every existing one (0.22 uses the current second). */
export function newMigrationName(dir: string, suffix: string, now = Date.now()): string {
  let stamp = Math.floor(now / 1000);
  for (const { file } of listMigrationFiles(dir)) {
    const t = Number(timestampOf(file) ?? 0);
    if (t >= stamp) stamp = t + 1;
  }
  return `${stamp}_${suffix}.js`;
}

/** The folder a server or command uses: `--migrationsDir` (relative to the working directory) or 0.22's default. */
export function migrationsDirOf(options: { migrationsDir?: string }, dataDir: string): string {
  return options.migrationsDir ? path.resolve(options.migrationsDir) : defaultMigrationsDir(dataDir);
}
