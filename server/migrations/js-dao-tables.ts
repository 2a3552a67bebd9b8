// The Dao's table and view helpers (0.22's daos/table.go and daos/view.go): plain SQLite work on
// the run's connection. As in 0.22 they are raw: a table dropped here is not a collection deleted.
import type { AppContext } from '../context';
import type { DB } from '../db/database';
import { invalidateCollections } from '../collections/store';
import { q } from '../collections/ddl';
import { trimViewQuery } from '../collections/sync';

type Row = Record<string, unknown>;

export function tableMethods(ctx: AppContext, db: DB): Record<string, unknown> {
  const changed = <T>(value: T): T => {
    invalidateCollections(ctx);
    return value;
  };
  const info = (name: unknown) => db.prepare(`PRAGMA table_info(${q(String(name))})`).all() as Row[];
  return {
    hasTable: (name: unknown) =>
      db.prepare("SELECT 1 FROM sqlite_schema WHERE type IN ('table', 'view') AND name = ? COLLATE NOCASE LIMIT 1").get(String(name)) !== undefined,
    tableColumns: (name: unknown) => info(name).map((r) => String(r.name)),
    // TableInfoRow's JSON names (pk, cid, name, type, notnull, dflt_value) and goja's (pk, index, ...)
    tableInfo(name: unknown) {
      const rows = info(name);
      if (!rows.length) throw new Error(`empty table info probably due to invalid or missing table ${String(name)}`);
      return rows.map((r) => ({ ...r, index: r.cid, notNull: r.notnull === 1, defaultValue: r.dflt_value }));
    },
    tableIndexes(name: unknown) {
      const rows = db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL AND tbl_name = ? COLLATE NOCASE").all(String(name)) as Row[];
      return Object.fromEntries(rows.map((r) => [String(r.name), String(r.sql)]));
    },
    deleteTable: (name: unknown) => changed(void db.exec(`DROP TABLE IF EXISTS ${q(String(name))}`)),
    deleteView: (name: unknown) => changed(void db.exec(`DROP VIEW IF EXISTS ${q(String(name))}`)),
    saveView(name: unknown, query: unknown) {
      const select = trimViewQuery(String(query ?? ''));
      db.exec(`DROP VIEW IF EXISTS ${q(String(name))}`);
      // one statement only: prepare refuses several
      db.prepare(`CREATE VIEW ${q(String(name))} AS SELECT * FROM (${select})`).run();
      // CREATE VIEW resolves nothing; reading its columns does
      info(name);
      invalidateCollections(ctx);
    },
    vacuum: () => void db.exec('VACUUM'),
  };
}
