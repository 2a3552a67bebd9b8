// Views must not publish secrets. A view query may not read _admins, _params, _externalAuths,
// _migrations or SQLite's own tables, nor the passwordHash / tokenKey columns of auth collections
// (PocketBase 0.22 allows it; a guest could then read what signs admin tokens).
//
// What a query reads is asked of SQLite, not guessed from its text: EXPLAIN lists the compiled
// program, whose OpenRead instructions name the b-tree (table or index, by root page) each cursor
// reads and whose Column instructions name the column. Aliases, subqueries, CTEs, other views and
// covering indexes therefore cannot hide a read.
import type { DB } from '../db/database';
import type { Collection } from './model';

const FORBIDDEN_TABLES = ['_admins', '_params', '_externalauths', '_migrations'];
const SECRET_COLUMNS = ['passwordhash', 'tokenkey'];

/** Instructions whose p1 is a cursor that reads, seeks or walks rows (counting alone is fine). */
const CURSOR_OPCODES = new Set([
  'Column', 'Rewind', 'Next', 'Prev', 'Last', 'SeekGE', 'SeekGT', 'SeekLE', 'SeekLT', 'SeekScan', 'IdxGE', 'IdxGT', 'IdxLE', 'IdxLT',
  'IdxRowid', 'DeferredSeek', 'Found', 'NotFound', 'NoConflict', 'IfNoHope', 'Sort', 'SeekRowid', 'NotExists',
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

const isForbiddenTable = (name: string): boolean => {
  const lower = name.toLowerCase();
  return FORBIDDEN_TABLES.includes(lower) || lower.startsWith('sqlite_');
};

/**
 * Why `query` may not be a view query (a sentence naming the table or column), or null. Throws the
 * driver's error when the query does not compile.
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
  const cursors = new Map<number, SchemaObject>();
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

  const secret = (name: string, object: SchemaObject) => `the view may not read the column "${name}" of "${object.tbl}"`;
  for (const ins of program) {
    if ((ins.opcode === 'OpenRead' || ins.opcode === 'OpenWrite' || ins.opcode === 'ReopenIdx') && ins.p3 === 0) {
      const object = byRoot.get(ins.p2);
      if (!object) continue;
      if (isForbiddenTable(object.tbl)) return `the view may not read the table "${object.tbl}"`;
      cursors.set(ins.p1, object);
      continue;
    }
    const object = CURSOR_OPCODES.has(ins.opcode) ? cursors.get(ins.p1) : undefined;
    if (!object || !auth.has(object.tbl.toLowerCase())) continue;
    if (ins.opcode === 'Column') {
      const name = namesOf(object)[ins.p2] ?? '';
      if (SECRET_COLUMNS.includes(name.toLowerCase())) return secret(name, object);
    } else if (object.type === 'index') {
      // seeking or walking an index over a secret compares or orders by it (an oracle)
      const name = namesOf(object).find((n) => SECRET_COLUMNS.includes(n.toLowerCase()));
      if (name) return secret(name, object);
    }
  }
  return null;
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
