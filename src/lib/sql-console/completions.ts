// What the SQL console's editor completes: the tables of the collections and PocketBase's own, and
// their columns, as SQLite has them (the secret columns, which the console refuses, are left out).
import type { CollectionModel } from '../collections/types';

export interface SqlCompletion {
  value: string;
  meta: 'table' | 'column';
  /** The tables that have the column. */
  tables?: string[];
}

/** PocketBase 0.22's system tables and the columns the console may read. */
const SYSTEM_TABLES: Record<string, string[]> = {
  _admins: ['id', 'avatar', 'email', 'lastResetSentAt', 'created', 'updated'],
  _collections: ['id', 'system', 'type', 'name', 'schema', 'indexes', 'listRule', 'viewRule', 'createRule', 'updateRule', 'deleteRule', 'options', 'created', 'updated'],
  _externalAuths: ['id', 'collectionId', 'recordId', 'provider', 'created', 'updated'],
  _migrations: ['file', 'applied'],
  _params: ['id', 'key', 'created', 'updated'],
};
const AUTH_COLUMNS = ['username', 'email', 'emailVisibility', 'verified', 'lastResetSentAt', 'lastVerificationSentAt'];

/** Every table with its columns. */
export function sqlTables(collections: readonly { readonly name: string; readonly type: CollectionModel['type']; readonly schema: readonly { readonly name: string }[] }[]): Map<string, string[]> {
  const tables = new Map(Object.entries(SYSTEM_TABLES));
  for (const c of collections) {
    const base = c.type === 'view' ? ['id'] : ['id', 'created', 'updated'];
    tables.set(c.name, [...base, ...(c.type === 'auth' ? AUTH_COLUMNS : []), ...c.schema.map((f) => f.name)]);
  }
  return tables;
}

/**
 * The completions after `before` (the line up to the cursor): a table's columns after `table.`,
 * else every table and every column.
 */
export function sqlCompletions(tables: ReadonlyMap<string, string[]>, before: string): SqlCompletion[] {
  const qualified = /([A-Za-z_][\w]*)\.\w*$/.exec(before);
  if (qualified) {
    const name = [...tables.keys()].find((t) => t.toLowerCase() === qualified[1].toLowerCase());
    // an alias (`FROM posts p … p.`) is not followed: every column then
    if (name) return tables.get(name)!.map((value) => ({ value, meta: 'column', tables: [name] }));
  }
  const columns = new Map<string, string[]>();
  for (const [table, cols] of tables) for (const col of cols) columns.set(col, [...(columns.get(col) ?? []), table]);
  return [
    ...[...tables.keys()].map((value): SqlCompletion => ({ value, meta: 'table' })),
    ...[...columns].map(([value, owners]): SqlCompletion => ({ value, meta: 'column', tables: owners })),
  ];
}
