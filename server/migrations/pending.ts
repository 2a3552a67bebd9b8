// Which pb_migrations files a pb_data other than the open one has not applied (a backup's data.db,
// before it is restored). Its `_migrations` rows are read on a worker thread (the SQLite driver is
// synchronous: a hostile or damaged database must never hold the event loop), under a time budget
// after which the worker is terminated; the rows are capped in number and length. The files are
// then those of the folder, in the order `migrate up` runs them, whose names are not among them.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { listMigrationFiles } from './files';

/**
 * The database cannot tell what it applied (not PocketBase's, no `_migrations`, unreadable);
 * `transient`: it ran out of time, which may say more about the machine's load than the file.
 */
export class UnreadableHistoryError extends Error {
  constructor(
    message: string,
    readonly transient = false,
  ) {
    super(message);
  }
}

/** More rows than any real history holds: such a table is refused rather than read whole. */
const MAX_ROWS = 100_000;
/** Longer names cannot be files of a folder (255 bytes on every common file system). */
const MAX_NAME = 255;
/** An idle worker is ended after this long (the next read starts another, ~40 ms). */
const IDLE_MS = 30_000;

// The worker's code: plain CommonJS evaluated by Node (no file of its own to find from the sources
// or the bundle). It opens each file read-only, reads, closes, and answers one message per job.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
parentPort.on('message', ({ id, file, maxRows, maxName }) => {
  let db;
  let reply;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, nativeBinding: workerData.binding });
    const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('_migrations', '_collections', '_params')").pluck().all());
    if (!tables.has('_collections') || !tables.has('_params')) reply = { id, ok: false, kind: 'foreign' };
    else if (!tables.has('_migrations')) reply = { id, ok: false, kind: 'noTable' };
    else {
      const files = [];
      for (const file of db.prepare('SELECT substr(file, 1, ?) FROM _migrations LIMIT ?').pluck().iterate(maxName + 1, maxRows + 1)) files.push(file);
      reply = { id, ok: true, files };
    }
  } catch (err) {
    reply = { id, ok: false, kind: 'error', message: String((err && err.message) || err) };
  } finally {
    try { if (db) db.close(); } catch {}
  }
  parentPort.postMessage(reply);
});
`;

type Reply = { id: number; ok: true; files: unknown[] } | { id: number; ok: false; kind: 'foreign' | 'noTable' | 'error'; message?: string };

interface Job {
  resolve(files: unknown[]): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

interface WorkerState {
  worker: Worker;
  jobs: Map<number, Job>;
  idle?: NodeJS.Timeout;
}

let current: WorkerState | null = null;
let seq = 0;

function driverPaths(): { driver: string; binding?: string } {
  const require = createRequire(import.meta.url);
  let binding: string | undefined;
  try {
    binding = require.resolve('better-sqlite3/build/Release/better_sqlite3.node');
  } catch {
    /* the driver's own lookup finds it */
  }
  return { driver: require.resolve('better-sqlite3'), binding };
}

function worker(): WorkerState {
  if (current) return current;
  const w = new Worker(WORKER_SOURCE, { eval: true, workerData: driverPaths() });
  const state: WorkerState = { worker: w, jobs: new Map() };
  const failAll = (err: Error) => {
    if (current === state) current = null;
    for (const job of state.jobs.values()) {
      clearTimeout(job.timer);
      job.reject(err);
    }
    state.jobs.clear();
    clearTimeout(state.idle);
  };
  w.on('message', (reply: Reply) => {
    const job = state.jobs.get(reply.id);
    if (!job) return;
    state.jobs.delete(reply.id);
    clearTimeout(job.timer);
    if (reply.ok) job.resolve(reply.files);
    else if (reply.kind === 'foreign') job.reject(new UnreadableHistoryError('data.db is not a PocketBase database (missing system tables).'));
    else if (reply.kind === 'noTable') job.reject(new UnreadableHistoryError('data.db has no _migrations table, so it cannot tell which migrations it has applied.'));
    else job.reject(new UnreadableHistoryError(`data.db cannot be read (${reply.message ?? 'unknown error'}).`));
    settle(state);
  });
  w.on('error', (err) => failAll(new UnreadableHistoryError(`data.db cannot be read (${err.message}).`, true)));
  w.on('exit', () => failAll(new UnreadableHistoryError('data.db cannot be read (the reader stopped).', true)));
  current = state;
  return state;
}

/** An idle worker keeps no process alive and ends after IDLE_MS. */
function settle(state: WorkerState): void {
  clearTimeout(state.idle);
  if (state.jobs.size > 0) {
    state.worker.ref();
    return;
  }
  state.worker.unref();
  state.idle = setTimeout(() => {
    if (current === state) current = null;
    void state.worker.terminate();
  }, IDLE_MS);
  state.idle.unref();
}

/**
 * The `file` column of the `_migrations` table of the SQLite file `dbFile` (opened read-only);
 * throws UnreadableHistoryError when the file is not a PocketBase database with that table, or
 * when the read outlives `budgetMs` (the worker is then terminated).
 */
export async function readAppliedMigrations(dbFile: string, budgetMs: number): Promise<string[]> {
  const state = worker();
  const id = ++seq;
  const rows = await new Promise<unknown[]>((resolve, reject) => {
    const timer = setTimeout(() => {
      state.jobs.delete(id);
      reject(new UnreadableHistoryError(`Reading data.db took longer than ${Math.round(budgetMs / 1000)} s.`, true));
      // the statement may still run: that worker goes (its other jobs fail as transient)
      if (current === state) current = null;
      void state.worker.terminate();
    }, budgetMs);
    state.jobs.set(id, { resolve, reject, timer });
    settle(state);
    state.worker.postMessage({ id, file: dbFile, maxRows: MAX_ROWS, maxName: MAX_NAME });
  });
  if (rows.length > MAX_ROWS) throw new UnreadableHistoryError(`data.db's _migrations table has more than ${MAX_ROWS} rows.`);
  return rows.filter((f): f is string => typeof f === 'string' && Buffer.byteLength(f) <= MAX_NAME);
}

/** The files of `dir` not in `applied`, in the order `migrate up` would run them. */
export function pendingMigrationFiles(dir: string, applied: ReadonlySet<string>): string[] {
  return listMigrationFiles(dir)
    .map((f) => f.file)
    .filter((file) => !applied.has(file));
}
