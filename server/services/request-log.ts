// The logs.db writer. Entries are buffered and written in one transaction per batch (200 entries,
// or 3 s after the last one, or on close) so request handling never waits on the log database.
// Retention follows settings.logs: maxDays 0 keeps nothing, entries below minLevel are dropped,
// and old or below-level rows are pruned on every settings change, and (as 0.22 does) with the
// first batch written after start and then at most every 6 hours — not at start itself, so
// opening an old data dir shows its logs until something new is logged.
import crypto from 'node:crypto';
import type { AppContext } from '../context';
import { formatPbDate } from '../query/macros';
import type { LogRow } from './log-store';
import { sortKeys } from '../../src/lib/json';
import { isOutOfSpace, noteOutOfSpace, noteWriteSucceeded } from './disk-space';

interface LogEntry {
  level: number;
  message: string;
  data: Record<string, unknown>;
  /** Defaults to the moment the entry is added. */
  created?: Date;
  /** The entry's id when it was given out before (a request's id, which its audit entries name). */
  id?: string;
}

export interface LogWriter {
  /** Queues an entry (dropped when logs are off or below minLevel). Never throws. */
  add(entry: LogEntry): void;
  /** Writes the queued entries now. */
  flush(): void;
  /** Entries waiting for the next flush. */
  readonly pending: number;
}

const LOG_BATCH_SIZE = 200;
const LOG_FLUSH_DELAY_MS = 3000;
const LOG_PRUNE_INTERVAL_MS = 6 * 60 * 60 * 1000;
/** Older entries in a batch may land in an hour the stats keep as closed (logs-read.ts). */
const LATE_ENTRY_MS = 30_000;

export const LOG_LEVELS = { debug: -4, info: 0, warn: 4, error: 8 } as const;

const writers = new WeakMap<AppContext, LogWriter>();

/** The app's log writer (created by startRequestLogs), for modules that want to log. */
export function getLogWriter(ctx: AppContext): LogWriter | undefined {
  return writers.get(ctx);
}

/** Creates the app's writer and its prune schedule; both stop (after a last flush) on close. */
export function startRequestLogs(ctx: AppContext, opts: { batchSize?: number; delayMs?: number } = {}): LogWriter {
  const batchSize = opts.batchSize ?? LOG_BATCH_SIZE;
  const delayMs = opts.delayMs ?? LOG_FLUSH_DELAY_MS;
  let queue: LogRow[] = [];
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let lastPruneAt = 0;

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (queue.length === 0) return;
    const rows = queue;
    queue = [];
    try {
      ctx.logs.insertBatch(rows);
      // an entry dated into an hour the stats already counted as closed (a late batch) resets them
      if (rows.some((row) => Date.parse(row.created.replace(' ', 'T')) < Date.now() - LATE_ENTRY_MS)) ctx.logs.invalidateStats();
      noteWriteSucceeded(ctx);
    } catch (err) {
      // a full disk or locked db must not take the server down; the batch is lost (a full disk is
      // said once, not once per batch)
      if (isOutOfSpace(err)) noteOutOfSpace(ctx, 'logs.db', err);
      else console.error('[logs] failed to write %d log entries:', rows.length, err);
    }
    if (Date.now() - lastPruneAt >= LOG_PRUNE_INTERVAL_MS) prune();
  };

  const writer: LogWriter = {
    add(entry) {
      try {
        if (closed) return;
        const { maxDays, minLevel } = ctx.settings.get().logs;
        if (!maxDays || entry.level < minLevel) return;
        queue.push({
          id: entry.id ?? newLogId(),
          level: entry.level,
          message: entry.message,
          data: JSON.stringify(sortKeys(entry.data)),
          created: formatPbDate(entry.created ?? new Date()),
        });
        if (queue.length >= batchSize) {
          // write on the next tick, outside whatever request hook called us
          if (timer) clearTimeout(timer);
          timer = setTimeout(flush, 0);
        } else {
          if (timer) clearTimeout(timer);
          timer = setTimeout(flush, delayMs);
        }
        timer.unref();
      } catch (err) {
        console.error('[logs] failed to queue a log entry:', err);
      }
    },
    flush,
    get pending() {
      return queue.length;
    },
  };
  writers.set(ctx, writer);

  function prune() {
    lastPruneAt = Date.now();
    try {
      pruneLogs(ctx);
    } catch (err) {
      console.error('[logs] failed to prune logs:', err);
    }
  }
  const unsubscribe = ctx.settings.subscribe(({ logs }) => {
    // queued entries obey the new settings too, or they would land after the prune
    queue = logs.maxDays ? queue.filter((row) => row.level >= logs.minLevel) : [];
    prune();
  });
  const interval = setInterval(prune, LOG_PRUNE_INTERVAL_MS);
  interval.unref();

  ctx.onClose.push(() => {
    closed = true;
    clearInterval(interval);
    unsubscribe();
    flush();
  });
  return writer;
}

/**
 * Deletes entries created maxDays or more ago, or below minLevel (what 0.22's settings save does;
 * maxDays 0 therefore clears the table). Returns the number of rows deleted.
 */
export function pruneLogs(ctx: AppContext, now = new Date()): number {
  const { maxDays, minLevel } = ctx.settings.get().logs;
  const before = formatPbDate(new Date(now.getTime() - Math.max(0, Number(maxDays) || 0) * 86_400_000));
  return ctx.logs.prune(before, Number(minLevel) || 0);
}

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** 15 random [a-z0-9], like every PocketBase model id. */
export function newLogId(): string {
  let id = '';
  for (let i = 0; i < 15; i++) id += ID_ALPHABET[crypto.randomInt(ID_ALPHABET.length)];
  return id;
}

/**
 * Logs a background failure (a mail that could not be sent, a task that threw) to the console and
 * to logs.db, so an admin reading the Logs page sees it. Never throws.
 */
export function logBackgroundError(ctx: AppContext, message: string, err: unknown, data: Record<string, unknown> = {}): void {
  const detail = err instanceof Error ? err.message : String(err);
  console.error(`[server] ${message}: ${detail}`);
  try {
    getLogWriter(ctx)?.add({ level: LOG_LEVELS.error, message, data: { ...data, error: detail } });
  } catch {
    /* logging must never fail the caller */
  }
}
