// What the SQL console may read for an admin with a role (issue 36's roles meet issue 37's console):
// the tables of the collections whose records the role reads, and nothing else, as for a view query
// such an admin writes (server/http/collections.ts). A statement over another collection, _admins'
// emails, the audit trail or the roles would hand it what its role withholds. What a query reads is
// asked of SQLite's compiled program (tablesReadBy), so views, CTEs and subqueries cannot hide a
// table. A full admin is never judged here.
import { readsNoTable, StatementRefused, type ReadOnlyStatement } from './statement';

/** Whether the role reads the records kept in `table` (false for a table that is no collection's). */
export type ReadsTable = (table: string) => boolean;

const refusal = (table: string) =>
  new StatementRefused('role', `Your role may not read "${table}": the console reads only the collections whose records your role lists.`);

/** Throws StatementRefused('role') unless every table `statement` reads is one the role reads. */
export function requireRoleReads(statement: ReadOnlyStatement, tablesReadBy: (query: string) => string[], reads: ReadsTable): void {
  if (statement.pragma) {
    const { name, argument } = statement.pragma;
    if (argument === null) {
      if (readsNoTable(name)) return;
      throw new StatementRefused('role', `Your role may not run PRAGMA ${name} without naming a collection: it reads every table.`);
    }
    // table_info(x), index_list(x), …: x must be a collection the role reads (an index's name is no collection's)
    if (!reads(argument)) throw refusal(argument);
    return;
  }
  if (statement.query === null) return;
  for (const table of tablesReadBy(statement.query)) {
    if (!reads(table)) throw refusal(table);
  }
}
