// The `_migrations` table as 0.22's tools/migrate runner keeps it: one row per applied file,
// `applied` in microseconds (older rows in seconds), the latest applied reverted first.
import type { DB } from '../db/database';

export interface AppliedRow {
  file: string;
  applied: number;
}

export function ensureMigrationsTable(db: DB): void {
  db.exec('CREATE TABLE IF NOT EXISTS `_migrations` (file VARCHAR(255) PRIMARY KEY NOT NULL, applied INTEGER NOT NULL)');
}

/** Microseconds since the epoch, increasing within the process (as Go's time.Now().UnixMicro()). */
let lastMicros = 0;
function nowMicros(): number {
  const now = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  lastMicros = now > lastMicros ? now : lastMicros + 1;
  return lastMicros;
}

export function appliedRows(db: DB): AppliedRow[] {
  return db.prepare('SELECT file, applied FROM `_migrations` ORDER BY file').all() as AppliedRow[];
}

export function isApplied(db: DB, file: string): boolean {
  return db.prepare('SELECT 1 FROM `_migrations` WHERE file = ? LIMIT 1').get(file) !== undefined;
}

export function recordApplied(db: DB, file: string): void {
  db.prepare('INSERT INTO `_migrations` (file, applied) VALUES (?, ?)').run(file, nowMicros());
}

export function recordReverted(db: DB, file: string): void {
  db.prepare('DELETE FROM `_migrations` WHERE file = ?').run(file);
}

/** The last `limit` applied files, latest first (seconds and microseconds compared alike). */
export function lastApplied(db: DB, limit: number): string[] {
  return (
    db
      .prepare("SELECT file FROM `_migrations` WHERE applied IS NOT NULL ORDER BY substr(applied||'0000000000000000', 0, 17) DESC, file DESC LIMIT ?")
      .all(limit) as Array<{ file: string }>
  ).map((r) => r.file);
}

/** The Go migrations of PocketBase itself (and of Go-built apps): not files of pb_migrations. */
export const isGoMigration = (file: string): boolean => file.endsWith('.go');

/** history-sync: drops the rows of files that no longer exist (Go migrations stay). */
export function removeMissing(db: DB, files: readonly string[]): number {
  const keep = new Set(files);
  const rows = appliedRows(db).filter((r) => !isGoMigration(r.file) && !keep.has(r.file));
  const del = db.prepare('DELETE FROM `_migrations` WHERE file = ?');
  for (const r of rows) del.run(r.file);
  return rows.length;
}

/** `_migrations` as the app reads and records it (the table is created on first use). */
export interface MigrationHistory {
  /** Every applied row, in file order. */
  applied(): AppliedRow[];
  /** Records `file` as applied now. */
  recordApplied(file: string): void;
}

export function createMigrationHistory(db: DB): MigrationHistory {
  return {
    applied() {
      ensureMigrationsTable(db);
      return appliedRows(db);
    },
    recordApplied(file) {
      ensureMigrationsTable(db);
      recordApplied(db, file);
    },
  };
}
