// The one module that knows the database driver. Everything else talks to `DB`, so the
// embedded SQLite can be swapped for a compatible driver (libsql) in one place.
import Database from 'better-sqlite3';

export type DB = Database.Database;

/** Opens (creating if needed) an SQLite file with the pragmas PocketBase 0.22 uses. */
export function openDatabase(file: string): DB {
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  db.pragma('journal_mode = WAL');
  db.pragma('journal_size_limit = 200000000');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -16000');
  return db;
}

/** Runs `fn` in an IMMEDIATE transaction (writes serialised, all or nothing). */
export function transaction<T>(db: DB, fn: () => T): T {
  return db.transaction(fn).immediate();
}

/**
 * A consistent copy of an open database at `dest`, made with SQLite's online backup API while the
 * app keeps reading and writing: pages are copied a few hundred at a time between event-loop turns
 * (never a copy of the live file and its WAL).
 */
export async function backupDatabase(db: DB, dest: string): Promise<void> {
  await db.backup(dest, { progress: () => 256 });
}
