// The audit trail's tables in data.db (so an entry commits or rolls back with the change it
// describes): `_outpostAudit` holds the entries, `_outpostAuditOptions` the per-collection history
// switch. Both are Outpost's own tables: PocketBase 0.22 ignores them, so pb_data stays a valid
// 0.22 pb_data (0.22 would drop an unknown key of a base collection's `options` when it saves).
import { openDatabase, type DB, type Statement } from '../db/database';

export interface AuditEntry {
  /** The row id: entries are numbered in the order they were written. */
  id: number;
  created: string;
  /** What kind of thing changed. */
  area: 'record' | 'collection' | 'settings' | 'admin' | 'role' | 'backup';
  action: string;
  collectionId: string;
  collectionName: string;
  /** The changed thing's id (record, collection, admin) or name (backup). */
  target: string;
  actorKind: 'admin' | 'authRecord' | 'guest' | 'system';
  actorId: string;
  actorEmail: string;
  actorCollection: string;
  ip: string;
  requestId: string;
  /** JSON: { path: { old, new } } (secrets redacted). */
  changes: string;
}

export const AUDIT_COLUMNS = [
  'created', 'area', 'action', 'collectionId', 'collectionName', 'target',
  'actorKind', 'actorId', 'actorEmail', 'actorCollection', 'ip', 'requestId', 'changes',
] as const;

// One b-tree and no index: an entry is appended to the table's last page, keyed by its rowid (the
// order entries were written in, which the lists, time filters and the retention walk). Every page
// a write dirties goes to the WAL at its commit: an index on (collectionId, target) for the record
// history made an entry cost 2.5x (178 against 71 µs per committed entry in-process), so the
// History tab's look-up scans the trail instead, newest first, in the read pool.
const DDL = [
  `CREATE TABLE IF NOT EXISTS _outpostAudit (
    id INTEGER PRIMARY KEY, created TEXT NOT NULL, area TEXT NOT NULL, action TEXT NOT NULL,
    collectionId TEXT DEFAULT '' NOT NULL, collectionName TEXT DEFAULT '' NOT NULL, target TEXT DEFAULT '' NOT NULL,
    actorKind TEXT NOT NULL, actorId TEXT DEFAULT '' NOT NULL, actorEmail TEXT DEFAULT '' NOT NULL,
    actorCollection TEXT DEFAULT '' NOT NULL, ip TEXT DEFAULT '' NOT NULL, requestId TEXT DEFAULT '' NOT NULL,
    changes JSON DEFAULT '{}' NOT NULL)`,
  'CREATE TABLE IF NOT EXISTS _outpostAuditOptions (collectionId TEXT PRIMARY KEY, history BOOLEAN DEFAULT FALSE NOT NULL)',
];

export interface AuditStore {
  insert(entry: Omit<AuditEntry, 'id'>): void;
  /** Deletes entries created before `before` (a stored date); returns how many. */
  prune(before: string): number;
  /** Collection ids whose records keep their history. */
  historyCollections(): Set<string>;
  setHistory(collectionId: string, on: boolean): void;
}

/** Creates the tables (on the first write: opening a pb_data never changes it). */
function ensureAuditTables(db: DB): void {
  for (const sql of DDL) db.exec(sql);
}

export const missingAuditTable = (err: unknown): boolean => err instanceof Error && /no such table: (main\.)?_outpostAudit/.test(err.message);

export function createAuditStore(db: DB): AuditStore {
  const sql = `INSERT INTO _outpostAudit (${AUDIT_COLUMNS.join(', ')}) VALUES (${AUDIT_COLUMNS.map(() => '?').join(', ')})`;
  let insert: Statement | undefined;
  /** Runs `fn`; when our tables are missing, creates them and runs it again (in the caller's transaction). */
  const withTables = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (err) {
      if (!missingAuditTable(err)) throw err;
      insert = undefined;
      ensureAuditTables(db);
      return fn();
    }
  };
  /** `fn`'s answer, or `empty` while the tables do not exist. */
  const orEmpty = <T>(fn: () => T, empty: T): T => {
    try {
      return fn();
    } catch (err) {
      if (missingAuditTable(err)) return empty;
      throw err;
    }
  };
  return {
    insert(e) {
      withTables(() => (insert ??= db.prepare(sql)).run(...AUDIT_COLUMNS.map((c) => e[c])));
    },
    // entries are in time order by rowid: everything before the first one at or after `before` goes
    prune: (before) =>
      orEmpty(
        () =>
          db
            .prepare(
              'DELETE FROM _outpostAudit WHERE id < coalesce((SELECT id FROM _outpostAudit WHERE created >= ? ORDER BY id LIMIT 1), (SELECT max(id) + 1 FROM _outpostAudit))',
            )
            .run(before).changes,
        0,
      ),
    historyCollections: () =>
      orEmpty(() => new Set((db.prepare('SELECT collectionId FROM _outpostAuditOptions WHERE history').pluck().all() as unknown[]).map(String)), new Set<string>()),
    setHistory(collectionId, on) {
      withTables(() => {
        if (on) db.prepare('INSERT INTO _outpostAuditOptions (collectionId, history) VALUES (?, 1) ON CONFLICT (collectionId) DO UPDATE SET history = 1').run(collectionId);
        else db.prepare('DELETE FROM _outpostAuditOptions WHERE collectionId = ?').run(collectionId);
      });
    },
  };
}

/** Runs `fn` with the audit store of another data.db (an extracted backup about to be restored). */
export function withAuditStoreOf(file: string, fn: (store: AuditStore) => void): void {
  const db = openDatabase(file);
  try {
    fn(createAuditStore(db));
  } finally {
    db.close();
  }
}
