// Views must not publish secrets, and only secrets are refused, column by column: the
// passwordHash and tokenKey of every auth table (_admins and the auth collections), the settings
// document in _params.value (it holds the token-signing, SMTP, S3 and OAuth2 secrets) and the
// provider account ids in _externalAuths.providerId (and ANALYZE's index key samples). Everything
// else, _admins' id, email, avatar and dates included, may be read, as PocketBase 0.22 allows (its
// own tests make views over _admins); 0.22 refuses nothing, so this part is ours.
//
// What a query reads is asked of SQLite, not guessed from its text: EXPLAIN lists the compiled
// program, whose OpenRead instructions name the b-tree (table or index, by root page) each cursor
// reads and whose Column instructions name the column. Aliases, subqueries, CTEs, joins, other
// views and covering indexes therefore cannot hide a read.
import type { DB } from '../db/database';
import type { Collection } from './model';

const AUTH_SECRETS = ['passwordhash', 'tokenkey'];
/** Secret columns of the system tables (lower case); auth tables get AUTH_SECRETS. */
const SYSTEM_SECRETS: ReadonlyMap<string, readonly string[]> = new Map([
  ['_admins', AUTH_SECRETS],
  ['_params', ['value']],
  ['_externalauths', ['providerid']],
  // ANALYZE's samples are whole index keys, e.g. of the tokenKey indexes
  ['sqlite_stat3', ['sample']],
  ['sqlite_stat4', ['sample']],
]);

/** Instructions that read a row's whole record (a copy of every column, secrets included). */
const RECORD_OPCODES = new Set(['RowData', 'RowCell']);
/**
 * Instructions that read an index entry (a column, the rowid, a deferred seek to the table row) or
 * compare keys with it (seeks). Only these (and no mere stepping) make an index over a secret a
 * leak: `select 1 as id from _admins` walks the smallest index, which can be the one on tokenKey,
 * and reads nothing of it. (Many other opcodes' p1 is a number, not a cursor.)
 */
const INDEX_READ_OPCODES = new Set([
  'Column', 'IdxRowid', 'DeferredSeek', 'RowData', 'RowCell', 'SeekGE', 'SeekGT', 'SeekLE', 'SeekLT', 'SeekScan',
  'IdxGE', 'IdxGT', 'IdxLE', 'IdxLT', 'Found', 'NotFound', 'NoConflict', 'IfNoHope',
]);

interface Instruction {
  opcode: string;
  p1: number;
  p2: number;
  p3: number;
}

interface SchemaObject {
  type: string;
  name: string;
  tbl: string;
}

/**
 * Why `query` may not be a view query (a sentence naming the secret column and its table), or
 * null. Throws the driver's error when the query does not compile.
 */
export function secretReadOf(db: DB, query: string, authTables: readonly string[]): string | null {
  const program = db.prepare(`EXPLAIN ${query}`).all() as Instruction[];
  const byRoot = new Map<number, SchemaObject>([[1, { type: 'table', name: 'sqlite_schema', tbl: 'sqlite_schema' }]]);
  for (const o of db.prepare('SELECT type, name, tbl_name AS tbl, rootpage FROM sqlite_schema WHERE rootpage > 0').all() as Array<
    SchemaObject & { rootpage: number }
  >) {
    byRoot.set(o.rootpage, o);
  }
  const auth = new Set(authTables.map((t) => t.toLowerCase()));
  const secretsOf = (table: string): readonly string[] => {
    const lower = table.toLowerCase();
    return SYSTEM_SECRETS.get(lower) ?? (auth.has(lower) ? AUTH_SECRETS : []);
  };
  const columnNames = new Map<string, string[]>();
  const namesOf = (o: SchemaObject): string[] => {
    let names = columnNames.get(o.name);
    if (!names) {
      names =
        o.type === 'index'
          ? (db.prepare('SELECT seqno, name FROM pragma_index_xinfo(?) ORDER BY seqno').all(o.name) as Array<{ name: string | null }>).map(
              (r) => r.name ?? '',
            )
          : (db.prepare('SELECT cid, name FROM pragma_table_xinfo(?) ORDER BY cid').all(o.name) as Array<{ name: string }>).map((r) => r.name);
      columnNames.set(o.name, names);
    }
    return names;
  };
  const isSecret = (o: SchemaObject, column: string) => secretsOf(o.tbl).includes(column.toLowerCase());
  const refusal = (column: string, o: SchemaObject) => `the view may not read the column "${column}" of "${o.tbl}"`;

  const cursors = new Map<number, SchemaObject>();
  for (const ins of program) {
    if ((ins.opcode === 'OpenRead' || ins.opcode === 'OpenWrite' || ins.opcode === 'ReopenIdx') && ins.p3 === 0) {
      const object = byRoot.get(ins.p2);
      if (object && secretsOf(object.tbl).length > 0) cursors.set(ins.p1, object);
      else cursors.delete(ins.p1);
      continue;
    }
    const object = cursors.get(ins.p1);
    if (!object) continue;
    if (object.type === 'index') {
      // reading an entry of an index over a secret, or seeking in it, reads or compares the secret
      // (or yields rows in its order)
      if (!INDEX_READ_OPCODES.has(ins.opcode)) continue;
      const secret = namesOf(object).find((n) => isSecret(object, n));
      if (secret) return refusal(secret, object);
    } else if (ins.opcode === 'Column') {
      const name = namesOf(object)[ins.p2] ?? '';
      if (isSecret(object, name)) return refusal(name, object);
    } else if (RECORD_OPCODES.has(ins.opcode)) {
      const secret = namesOf(object).find((n) => isSecret(object, n));
      if (secret) return refusal(secret, object);
    }
  }
  return null;
}

/**
 * The tables `query` reads (by name, as SQLite stores them; an index counts as its table), asked
 * of the compiled program as secretReadOf does. Throws the driver's error when it does not compile.
 */
export function tablesReadBy(db: DB, query: string): string[] {
  const program = db.prepare(`EXPLAIN ${query}`).all() as Instruction[];
  const byRoot = new Map<number, string>([[1, 'sqlite_schema']]);
  for (const o of db.prepare('SELECT tbl_name AS tbl, rootpage FROM sqlite_schema WHERE rootpage > 0').all() as Array<{ tbl: string; rootpage: number }>) {
    byRoot.set(o.rootpage, o.tbl);
  }
  const tables = new Set<string>();
  for (const ins of program) {
    // p3 0: a b-tree of the main schema (temporary tables of the statement itself are not read)
    if ((ins.opcode === 'OpenRead' || ins.opcode === 'ReopenIdx') && ins.p3 === 0) {
      const table = byRoot.get(ins.p2);
      if (table) tables.add(table);
    }
  }
  return [...tables];
}

/** The auth collections' table names (from the lookup's list and the stored collections). */
export function authTableNames(db: DB, collections: readonly Collection[] = []): string[] {
  const stored = db.prepare("SELECT name FROM _collections WHERE type = 'auth'").pluck().all() as string[];
  return [...new Set([...stored, ...collections.filter((c) => c.type === 'auth').map((c) => c.name)])];
}

const refusedByList = new WeakMap<readonly Collection[], Map<string, string>>();

/**
 * The view collections that read secrets, by id with the reason, for a list of collections (as
 * cached by the store: computed once per list, so once per change). Each refusal is logged once.
 */
export function refusedViews(db: DB, collections: readonly Collection[]): Map<string, string> {
  let refused = refusedByList.get(collections);
  if (refused) return refused;
  refused = new Map();
  const auth = authTableNames(db, collections);
  for (const c of collections) {
    if (c.type !== 'view') continue;
    let reason: string | null;
    try {
      reason = secretReadOf(db, `SELECT * FROM "${c.name.replace(/"/g, '""')}"`, auth);
    } catch {
      continue; // a broken view fails on its own
    }
    if (reason) {
      refused.set(c.id, reason);
      console.error(`[views] the view collection "${c.name}" is refused and not served: ${reason}`);
    }
  }
  refusedByList.set(collections, refused);
  return refused;
}
