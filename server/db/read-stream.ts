// Rows in chunks from the read pool (ReadPool.stream, for the SQL console): a statement whose result
// may be far larger than one message, read by a pool child chunk by chunk. After each chunk the
// child waits until the consumer asks for the next one, so a slow reader (a CSV download) holds
// no more than a chunk or two in memory, and the budget counts only the time the child spends
// computing rows (the pool pauses it while the child waits). SQLite's own judgement comes first:
// a statement it does not call read-only (`sqlite3_stmt_readonly`) is refused before it runs.
import type { DB } from './database';

/** The pool asks a child to start a stream. */
export interface StreamRequest {
  id: number;
  stream: { sql: string; chunkRows: number };
}
/** After a chunk the child waits: `next` for the following chunk, `stop` to end the statement. */
export interface StreamControl {
  id: number;
  control: 'next' | 'stop';
}
export interface RowChunk {
  /** The result's column names (first chunk only). */
  columns?: string[];
  rows: unknown[][];
  /** No rows left (the statement is finished). */
  done: boolean;
}
export type StreamReply = { id: number; ok: true; chunk: RowChunk; cpuMs: number } | { id: number; ok: false; message: string; code?: string; cpuMs: number };

/** Error codes of a statement refused before it runs. */
export const NOT_READ_ONLY = 'OUTPOST_NOT_READ_ONLY';
export const NO_ROWS = 'OUTPOST_NO_ROWS';

/** What the consumer of ReadPool.stream reads. */
export interface RowStream {
  readonly columns: string[];
  /** The next rows (each an array of values in column order); null once every row was read. */
  next(): Promise<unknown[][] | null>;
  /** Ends the statement early (the child is freed for other reads). Idempotent. */
  close(): void;
}

export interface StreamOptions {
  /** Overrides the caller's budget (ms): time spent computing rows, not waiting for the reader. */
  budgetMs?: number;
  /** Rows per chunk at most (default 500; a chunk also ends past ~256 KB of values). */
  chunkRows?: number;
}

export const DEFAULT_CHUNK_ROWS = 500;
const CHUNK_BYTES = 256 * 1024;

/** A statement prepared for streaming: refused unless SQLite says it only reads and returns rows. */
export function openRows(db: DB, sql: string): { columns: string[]; rows: IterableIterator<unknown[]> } {
  const stmt = db.prepare(sql);
  if (!stmt.readonly) throw Object.assign(new Error('SQLite reports that the statement writes to the database'), { code: NOT_READ_ONLY });
  if (!stmt.reader) throw Object.assign(new Error('the statement returns no rows'), { code: NO_ROWS });
  return { columns: stmt.columns().map((c) => c.name), rows: stmt.raw(true).iterate() as IterableIterator<unknown[]> };
}

/** A value as it crosses the pipe (JSON): a blob becomes its SQL literal, x'0aff'. */
const wire = (v: unknown): unknown => (Buffer.isBuffer(v) ? `x'${v.toString('hex')}'` : v);

/** The next chunk of `rows`: up to `max` rows or about CHUNK_BYTES of values. */
export function takeChunk(rows: IterableIterator<unknown[]>, max: number): { rows: unknown[][]; done: boolean } {
  const out: unknown[][] = [];
  let bytes = 0;
  while (out.length < max && bytes < CHUNK_BYTES) {
    const r = rows.next();
    if (r.done) return { rows: out, done: true };
    const row = r.value.map(wire);
    for (const v of row) bytes += typeof v === 'string' ? v.length : 8;
    out.push(row);
  }
  return { rows: out, done: false };
}

/** The child's side: one open stream at most (a child runs one job at a time). */
export function streamRunner(db: () => DB, send: (reply: StreamReply) => void): { start(msg: StreamRequest): void; control(msg: StreamControl): void } {
  let open: { id: number; rows: IterableIterator<unknown[]>; chunkRows: number } | null = null;
  const end = () => {
    open?.rows.return?.();
    open = null;
  };
  const cpuClock = () => {
    const start = process.cpuUsage();
    return () => {
      const used = process.cpuUsage(start);
      return (used.user + used.system) / 1000;
    };
  };
  const fail = (id: number, err: unknown, cpuMs: number) => {
    end();
    const e = err as { message?: string; code?: string };
    send({ id, ok: false, message: String(e?.message ?? err), code: typeof e?.code === 'string' ? e.code : undefined, cpuMs });
  };
  const chunk = (columns?: string[]) => {
    const current = open!;
    const cpu = cpuClock();
    try {
      const { rows, done } = takeChunk(current.rows, current.chunkRows);
      if (done) open = null;
      send({ id: current.id, ok: true, chunk: { ...(columns ? { columns } : {}), rows, done }, cpuMs: cpu() });
    } catch (err) {
      fail(current.id, err, cpu());
    }
  };
  return {
    start(msg) {
      end();
      const cpu = cpuClock();
      try {
        const { columns, rows } = openRows(db(), msg.stream.sql);
        open = { id: msg.id, rows, chunkRows: Math.max(1, msg.stream.chunkRows) };
        chunk(columns);
      } catch (err) {
        fail(msg.id, err, cpu());
      }
    },
    control(msg) {
      if (!open || open.id !== msg.id) return;
      if (msg.control === 'stop') end();
      else chunk();
    },
  };
}

/**
 * The parent's side of one stream: the chunks the child sent and the consumer's reads. The next
 * chunk is asked for as soon as the consumer takes one (`more`), so the child computes it while
 * the consumer writes the last; `end` frees the child when the consumer stops early.
 */
export function rowStream(first: RowChunk, more: () => void, end: () => void): { stream: RowStream; push(chunk: RowChunk): void; fail(err: Error): void } {
  const ready: unknown[][][] = [first.rows];
  let finished = first.done;
  let asked = false;
  let failure: Error | null = null;
  let waiting: { resolve: (rows: unknown[][] | null) => void; reject: (err: Error) => void } | null = null;
  let closed = false;

  const take = (): unknown[][] | null => {
    const rows = ready.shift() ?? null;
    if (!finished && !asked) {
      asked = true;
      more();
    }
    return rows;
  };

  const stream: RowStream = {
    columns: first.columns ?? [],
    next() {
      if (closed) return Promise.resolve(null);
      if (ready.length) return Promise.resolve(take());
      if (failure) return Promise.reject(failure);
      if (finished) return Promise.resolve(null);
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject };
        if (!asked) {
          asked = true;
          more();
        }
      });
    },
    close() {
      if (closed) return;
      closed = true;
      ready.length = 0;
      if (!finished) {
        finished = true;
        end();
      }
    },
  };
  return {
    stream,
    push(chunk) {
      asked = false;
      if (chunk.done) finished = true;
      if (closed) return;
      ready.push(chunk.rows);
      if (waiting) {
        const w = waiting;
        waiting = null;
        w.resolve(take());
      }
    },
    fail(err) {
      finished = true;
      failure = err;
      if (waiting) {
        const w = waiting;
        waiting = null;
        w.reject(err);
      }
    },
  };
}
