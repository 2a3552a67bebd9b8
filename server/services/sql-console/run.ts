// Runs an SQL console statement: the statement's own check (statement.ts), the secret columns
// asked of SQLite's compiled program (the collections store's check, the one views get), then
// the rows streamed from a read-only connection of the read pool under the caller's budget
// (ReadPool.stream: refused there too unless SQLite calls the statement read-only).
import { QueryTimeoutError, ReadAbortedError, ReadQueryError, type ReadPool } from '../../db/database';
import { NOT_READ_ONLY, NO_ROWS, type RowStream } from '../../db/read-stream';
import type { CollectionStore } from '../../collections/store';
import { readOnlyStatement, StatementRefused, type StatementKind } from './statement';
import { requireRoleReads, type ReadsTable } from './role-reads';

/** Rows the console's screen gets at most; the CSV export has them all. */
export const SCREEN_ROWS = 10_000;

/** SQLite refused or failed the statement (a syntax error, a missing table, a runtime error). */
export class StatementFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StatementFailed';
  }
}

export interface ConsoleRun {
  kind: StatementKind;
  columns: string[];
  rows: RowStream;
}

interface Deps {
  reads: ReadPool;
  collections: CollectionStore;
}

/** The sentence the secret check gives, reworded for the console. */
function secretRefusal(reason: string): StatementRefused {
  const m = /column "(.+)" of "(.+)"$/.exec(reason);
  const what = m ? `the column "${m[1]}" of "${m[2]}"` : reason;
  return new StatementRefused('secret', `This statement reads ${what}, a secret that neither the console nor a view may read.`);
}

const failed = (err: unknown) => new StatementFailed(err instanceof Error ? err.message : String(err));

/**
 * Starts `sql`; resolves once its first rows are in. `roleReads`: the admin has a role, which
 * limits the tables read (role-reads.ts). Throws StatementRefused (it may not run here),
 * StatementFailed (SQLite's error), QueryTimeoutError (stopped at the budget) or ReadAbortedError.
 */
export async function startConsoleRun(deps: Deps, sql: string, roleReads?: ReadsTable): Promise<ConsoleRun> {
  const statement = readOnlyStatement(sql);
  if (statement.query !== null) {
    let secret: string | null;
    try {
      secret = deps.collections.secretReadOf(statement.query);
    } catch (err) {
      throw failed(err);
    }
    if (secret) throw secretRefusal(secret);
  }
  if (roleReads) {
    const tablesReadBy = (query: string) => {
      try {
        return deps.collections.tablesReadBy(query);
      } catch (err) {
        throw failed(err);
      }
    };
    requireRoleReads(statement, tablesReadBy, roleReads);
  }
  try {
    const rows = await deps.reads.stream(sql);
    return { kind: statement.kind, columns: rows.columns, rows };
  } catch (err) {
    throw consoleError(err);
  }
}

/** A read pool error as the console reports it (what is not SQLite's passes through). */
export function consoleError(err: unknown): unknown {
  if (err instanceof QueryTimeoutError || err instanceof ReadAbortedError || err instanceof StatementRefused) return err;
  if (err instanceof ReadQueryError) {
    if (err.code === NOT_READ_ONLY) return new StatementRefused('not_read_only', 'SQLite reports that this statement writes: only read-only statements can run here.');
    if (err.code === NO_ROWS) return new StatementRefused('not_read_only', 'This statement returns no rows: only queries and read-only pragmas can run here.');
    return new StatementFailed(err.message);
  }
  return err;
}
