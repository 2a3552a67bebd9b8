// The one module that knows the database driver. Everything else talks to `DB` (the write
// connection, used synchronously, one statement at a time) or to a `ReadPool` (read-only
// connections in child processes, used asynchronously under a time budget).
//
// Reading under a budget — the API for any query a request starts (lists, counts, views,
// expands, rule checks, logs):
//
//   const rows = await ctx.reads.all<Row>('SELECT … WHERE x = ?', [x]);     // every row
//   const row  = await ctx.reads.get<Row>('SELECT … LIMIT 1', [id]);        // first row or undefined
//   const [n, rows] = await ctx.reads.batch([{ sql: countSql, params, mode: 'pluck' }, { sql, params }]);
//
// The budget counts from the moment a child starts the batch (time spent queued behind other
// batches is not counted). A statement still running when the budget ends is REALLY stopped: its child process is killed
// (SIGKILL) and replaced, and the promise rejects with QueryTimeoutError (the HTTP layer answers
// it with a 400 in PocketBase's envelope). Statements run one per child at a time; the pool grows
// up to `maxSize` children when all are busy, so one slow query never holds up the others, and
// the event loop never waits on SQLite for them. Reads see every write committed before they
// start (WAL). Reads that must see the uncommitted state of a write transaction stay on `DB`.
//
// A record not yet written can be checked under the budget too (the create rule): a batch given
// `pending` sees that row as if it were inserted in its table, through a TEMP view of the same
// name that shadows the table on the child's connection for that batch only.
//
// The pool itself (createReadPool) lives in read-pool.ts, its children's side in read-worker.ts.
import { createRequire } from 'node:module';
import Database from 'better-sqlite3';
import { quoteIdent as q } from '../query/sql';
import { openRows, takeChunk, DEFAULT_CHUNK_ROWS, type RowStream, type StreamOptions } from './read-stream';

export type DB = Database.Database;

// The driver's addon, named by path: left to itself the driver finds it through the `bindings`
// package (a stack trace walked and a dozen paths tried on every start), and the built server
// bundles the driver's JavaScript but not its addon (scripts/build-server.mjs). An addon built
// elsewhere (a debug build) is still found by the driver's own lookup.
const NATIVE_BINDING = addonPath();

function addonPath(): string | undefined {
  try {
    return createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node');
  } catch {
    return undefined;
  }
}

/** Opens (creating if needed) an SQLite file with the pragmas PocketBase 0.22 uses. */
/** `verbose` sees every statement the connection runs (`serve --dev` prints them). */
export function openDatabase(file: string, verbose?: (sql: unknown) => void): DB {
  const db = new Database(file, { nativeBinding: NATIVE_BINDING, verbose });
  db.pragma('busy_timeout = 10000');
  db.pragma('journal_mode = WAL');
  db.pragma('journal_size_limit = 200000000');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -16000');
  return db;
}

/** A read-only connection (the pool's children open theirs with this). */
export function openReadOnlyDatabase(file: string): DB {
  const db = new Database(file, { readonly: true, fileMustExist: true, nativeBinding: NATIVE_BINDING });
  db.pragma('busy_timeout = 10000');
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -16000');
  return db;
}

/** Runs `fn` in an IMMEDIATE transaction (writes serialised, all or nothing). */
export function transaction<T>(db: DB, fn: () => T): T {
  return db.transaction(fn).immediate();
}

/** `fn`'s value, or undefined when another process holds the write lock (`fn` did not run). */
export type TryUnitOfWork = <T>(fn: () => T) => { value: T } | undefined;

/**
 * An IMMEDIATE transaction that does not wait for another process's write lock: SQLite's own wait
 * (busy_timeout) sleeps inside the synchronous call and holds the whole event loop, where the
 * caller can retry between turns of it. Inside a transaction already, `fn` runs as a savepoint.
 */
export function tryUnitOfWork(db: DB): TryUnitOfWork {
  // a PRAGMA acts when it is compiled, so each change of the wait is prepared anew (a few µs)
  const noWait = () => db.pragma('busy_timeout = 0');
  const wait = () => db.pragma('busy_timeout = 10000');
  return (fn) => {
    if (db.inTransaction) return { value: transaction(db, fn) };
    let ran = false;
    noWait();
    try {
      return {
        value: transaction(db, () => {
          ran = true;
          // the lock is ours: what runs inside keeps the usual wait (a checkpoint, a read of the wal)
          wait();
          return fn();
        }),
      };
    } catch (err) {
      if (!ran && (err as { code?: string }).code === 'SQLITE_BUSY') return undefined;
      throw err;
    } finally {
      if (!ran) wait();
    }
  };
}

/**
 * A unit of work over one connection: `fn` runs in one transaction, so what every store writes in
 * it commits or rolls back together (nested calls are savepoints). IMMEDIATE unless `mode` says
 * 'deferred' (the lock is then taken by the first write).
 */
export type UnitOfWork = <T>(fn: () => T, mode?: 'immediate' | 'deferred') => T;

export function unitOfWork(db: DB): UnitOfWork {
  return (fn, mode = 'immediate') => (mode === 'deferred' ? db.transaction(fn)() : transaction(db, fn));
}

/**
 * A consistent copy of an open database at `dest`, made with SQLite's online backup API while the
 * app keeps reading and writing: pages are copied a few hundred at a time between event-loop turns
 * (never a copy of the live file and its WAL).
 */
export async function backupDatabase(db: DB, dest: string): Promise<void> {
  await db.backup(dest, { progress: () => 256 });
}

// ---- running a batch (in a pool child, or directly) -------------------------------------------

export type Statement = Database.Statement<unknown[]>;

const PENDING_TABLE = 'temp."_outpost_pending_row"';

/** Runs `queries` in order on `db`; with `pending`, the statements see that row in its table. */
export function runBatch(db: DB, queries: ReadQuery[], pending?: PendingRow, prepare: (sql: string) => Statement = (sql) => db.prepare(sql)): unknown[] {
  if (!pending) return queries.map((query) => runQuery(prepare(query.sql), query));
  const table = q(pending.table);
  // TEMP objects live on this connection only (a read-only one may create them) and go with it
  db.exec(`CREATE TEMP TABLE ${PENDING_TABLE} AS SELECT * FROM main.${table} WHERE 0`);
  try {
    db.prepare(`INSERT INTO ${PENDING_TABLE} (${pending.columns.map(q).join(', ')}) VALUES (${pending.columns.map(() => '?').join(', ')})`).run(...pending.values);
    // unqualified names resolve to TEMP first: every reference to the table now sees the row
    db.exec(`CREATE TEMP VIEW ${table} AS SELECT * FROM main.${table} UNION ALL SELECT * FROM ${PENDING_TABLE}`);
    try {
      return queries.map((query) => runQuery(prepare(query.sql), query));
    } finally {
      db.exec(`DROP VIEW temp.${table}`);
    }
  } finally {
    db.exec(`DROP TABLE ${PENDING_TABLE}`);
  }
}

function runQuery(stmt: Statement, query: ReadQuery): unknown {
  const params = query.params ?? [];
  if (query.mode === 'pluck') return stmt.pluck(true).get(...params) ?? null;
  if (query.mode === 'get') return stmt.pluck(false).get(...params) ?? null;
  return stmt.pluck(false).all(...params);
}

// ---- what the read pool (read-pool.ts) and its children (read-worker.ts) exchange ----------------

/** One statement for the pool: `all` rows (default), the first row (`get`) or its first column (`pluck`). */
export interface ReadQuery {
  sql: string;
  params?: unknown[];
  mode?: 'all' | 'get' | 'pluck';
}

/** A row the batch sees as inserted in `table` (columns and values as an INSERT would bind them). */
export interface PendingRow {
  table: string;
  columns: string[];
  values: unknown[];
}

export interface ReadOptions {
  /** Overrides the pool's budget for this call (ms). */
  budgetMs?: number;
  /** A row not yet written that the batch's statements see in its table. */
  pending?: PendingRow;
  /**
   * The key the pool keeps the batch's cost under, instead of its SQL: another form of the same
   * read (a list's page read directly rather than looked up late) is as cheap as the form it
   * replaces, and must not count as a new, unknown read.
   */
  shape?: string;
}

/** The key a read pool keeps a batch's cost under: its statements' SQL (ReadOptions.shape overrides it). */
export const shapeOf = (queries: readonly ReadQuery[]): string => queries.map((query) => query.sql).join('\n;\n');

/** The caller went away before its read ran or finished; the read was dropped or stopped. */
export class ReadAbortedError extends Error {
  constructor() {
    super('the client went away; its read was dropped');
    this.name = 'ReadAbortedError';
  }
}

/** The budget ran out; the statement was stopped (its process killed). */
export class QueryTimeoutError extends Error {
  constructor(readonly budgetMs: number) {
    super(`the query was stopped after its ${budgetMs} ms budget`);
    this.name = 'QueryTimeoutError';
  }
}

/** An SQLite error raised in a child (same message and code as the driver's SqliteError). */
export class ReadQueryError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'SqliteError';
  }
}

export interface ReadPool {
  /** The default budget of one call, in ms. */
  readonly budgetMs: number;
  all<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: ReadOptions): Promise<T[]>;
  get<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: ReadOptions): Promise<T | undefined>;
  /** Several statements on one connection, in order, under one budget (e.g. a list's count + page). */
  batch(queries: ReadQuery[], options?: ReadOptions): Promise<unknown[]>;
  /**
   * One statement's rows in chunks, for results too large for one answer (the SQL console; see
   * read-stream.ts). Refused (ReadQueryError, code NOT_READ_ONLY / NO_ROWS) unless SQLite says it
   * only reads and returns rows. Resolves once the first chunk is in; close() what you do not read.
   */
  stream(sql: string, options?: StreamOptions): Promise<RowStream>;
  /** Pids of the children running a batch now (tests check a stopped query's process is gone). */
  busyPids(): number[];
  /** Kills every child; pending calls reject. */
  close(): Promise<void>;
}

export interface ReadPoolOptions {
  /** Budget per call in ms (PocketBase 0.22's default query timeout is 30 s). */
  budgetMs?: number;
  /** Children kept alive once started (default 2; they start on first use). */
  minSize?: number;
  /** Children at most, while all are busy (default 4). */
  maxSize?: number;
  /** Run reads known to be fast in this process (default true; see read-admission.ts FAST_MS). */
  mainReads?: boolean;
  /** In a cluster: a client's costly reads counted across its members (read-admission.ts). */
  leases?: CostlyLeases;
}

/**
 * Slots for costly reads shared by the members of a cluster: `admit` resolves once the client
 * `key` holds fewer than `share` of them everywhere, to the function that gives the slot back; a
 * slot not given back within `ttlMs` (its member died) is taken back.
 */
export interface CostlyLeases {
  admit(key: string, share: number, ttlMs: number): Promise<() => void>;
}

/** Messages between the pool and its children (read-worker.ts). */
export interface WorkerRequest {
  id: number;
  queries: ReadQuery[];
  pending?: PendingRow;
}
/** `cpuMs`: the CPU time the child spent on the statements (what the shape costs; see createReadPool's message handler). */
export type WorkerReply = { id: number; ok: true; results: unknown[]; cpuMs: number } | { id: number; ok: false; message: string; code?: string; cpuMs: number };


/**
 * A ReadPool over `db` itself, in this process and without a budget: for unit tests on an
 * in-memory database, and for reads that must see a write transaction's uncommitted rows.
 * Never use it for queries a request shapes (filters, views): they belong in the real pool.
 */
export function directReads(db: DB): ReadPool {
  const batch = async (queries: ReadQuery[], opts: ReadOptions = {}): Promise<unknown[]> => {
    try {
      return runBatch(db, queries, opts.pending);
    } catch (err) {
      const e = err as { message?: string; code?: string };
      throw new ReadQueryError(String(e?.message ?? err), typeof e?.code === 'string' ? e.code : undefined);
    }
  };
  const sqliteError = (err: unknown) => {
    const e = err as { message?: string; code?: string };
    return new ReadQueryError(String(e?.message ?? err), typeof e?.code === 'string' ? e.code : undefined);
  };
  return {
    budgetMs: Infinity,
    batch,
    async stream(sql, opts = {}) {
      let open: ReturnType<typeof openRows>;
      try {
        open = openRows(db, sql);
      } catch (err) {
        throw sqliteError(err);
      }
      let done = false;
      return {
        columns: open.columns,
        next: async () => {
          if (done) return null;
          try {
            const chunk = takeChunk(open.rows, opts.chunkRows ?? DEFAULT_CHUNK_ROWS);
            done = chunk.done;
            return chunk.rows.length || !done ? chunk.rows : null;
          } catch (err) {
            done = true;
            throw sqliteError(err);
          }
        },
        close: () => {
          done = true;
          open.rows.return?.();
        },
      };
    },
    all: async <T>(sql: string, params: unknown[] = []) => (await batch([{ sql, params }]))[0] as T[],
    get: async <T>(sql: string, params: unknown[] = []) => ((await batch([{ sql, params, mode: 'get' }]))[0] ?? undefined) as T | undefined,
    busyPids: () => [],
    close: async () => {},
  };
}
