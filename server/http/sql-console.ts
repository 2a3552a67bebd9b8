// Outpost-only, for full admins (the dashboard's SQL console; PocketBase 0.22 has none: 404):
//   POST /api/outpost/sql      {sql} → NDJSON: {kind, columns}, then {rows} chunks (the first
//                              10,000 rows), then {done, rowCount, truncated, ms} or {error}
//   POST /api/outpost/sql/csv  {sql} → the whole result as CSV, streamed
// One read-only statement (server/services/sql-console/). A refused statement, SQLite's error and
// a statement stopped at the budget answer 400 in PocketBase's envelope, with `data.sql` for the
// editor; the request log keeps the statement and why in `details` (the Logs page). An error after
// rows went out ends the NDJSON with an {error} line and cuts the CSV short (the download fails
// instead of looking complete); the request log has it too.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { ApiError, adminOnly, badRequest, fieldError } from '../core/errors';
import { QueryTimeoutError } from '../db/database';
import { validateBody } from '../core/body-validator';
import { bindForm } from './form-bind';
import { consoleError, SCREEN_ROWS, startConsoleRun, StatementFailed, type ConsoleRun } from '../services/sql-console/run';
import { StatementRefused } from '../services/sql-console/statement';
import type { ReadsTable } from '../services/sql-console/role-reads';
import { scopedAccess } from './permissions';
import { csvLine } from '../services/sql-console/csv';

const LOAD_FAILED = 'Failed to load the submitted data.';
/** How much of the statement the request log keeps. */
const LOGGED_SQL_CHARS = 2000;

/**
 * Who may use the console: admins (a role must grant its area: the route's permission, enforced
 * before this runs).
 */
function requireSqlConsole(req: FastifyRequest): void {
  if (req.auth?.kind !== 'admin' || !req.auth.admin) throw adminOnly();
}

/** For an admin with a role: whether it reads the records kept in a table (only collections' tables). */
function roleReadsOf(ctx: AppContext, req: FastifyRequest): ReadsTable | undefined {
  const access = scopedAccess(req);
  if (!access) return undefined;
  return (table) => {
    const collection = ctx.collections.cached().byName.get(table.toLowerCase());
    return !!collection && access.records(collection, 'read');
  };
}

/** An error of the console as the API answers it (and the request log keeps it). */
function apiErrorOf(err: unknown, sql: string): unknown {
  const statement = sql.length > LOGGED_SQL_CHARS ? `${sql.slice(0, LOGGED_SQL_CHARS)}…` : sql;
  if (err instanceof StatementRefused) {
    return badRequest(err.message, { sql: fieldError(`sql_${err.reason}`, err.message) }, { sqlConsole: 'refused', reason: err.reason, statement });
  }
  if (err instanceof StatementFailed) return badRequest(err.message, { sql: fieldError('sql_failed', err.message) }, { sqlConsole: 'failed', statement });
  if (err instanceof QueryTimeoutError) {
    const message = `The query was stopped: it ran past your time budget of ${formatSeconds(err.budgetMs)}.`;
    return badRequest(message, { sql: fieldError('sql_stopped', message) }, { sqlConsole: 'stopped', budgetMs: err.budgetMs, statement });
  }
  return err;
}

const formatSeconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

function readSql(req: FastifyRequest): string {
  const form = bindForm(req, { sql: 'string' }, LOAD_FAILED);
  validateBody('requests/sql/run', form);
  return form.sql ?? '';
}

async function start(ctx: AppContext, req: FastifyRequest): Promise<{ sql: string; run: ConsoleRun; t0: number }> {
  requireSqlConsole(req);
  const sql = readSql(req);
  const t0 = performance.now();
  try {
    return { sql, run: await startConsoleRun(ctx, sql, roleReadsOf(ctx, req)), t0 };
  } catch (err) {
    throw apiErrorOf(err, sql);
  }
}

/** Records an error that came after the answer started, for the request log. */
function noteFailure(req: FastifyRequest, err: unknown): ApiError {
  const e = err instanceof ApiError ? err : badRequest('Something went wrong while processing your request.', {}, String(err));
  req.failure = { message: e.message, details: e.details };
  return e;
}

async function* ndjson(req: FastifyRequest, sql: string, run: ConsoleRun, t0: number): AsyncGenerator<string> {
  const line = (v: unknown) => JSON.stringify(v) + '\n';
  let count = 0;
  let truncated = false;
  try {
    yield line({ kind: run.kind, columns: run.columns });
    for (;;) {
      let rows: unknown[][] | null;
      try {
        rows = await run.rows.next();
      } catch (err) {
        const e = noteFailure(req, apiErrorOf(consoleError(err), sql));
        yield line({ error: e.toJSON(), rowCount: count });
        return;
      }
      if (rows === null) break;
      if (count + rows.length > SCREEN_ROWS) {
        rows = rows.slice(0, SCREEN_ROWS - count);
        truncated = true;
      }
      count += rows.length;
      if (rows.length) yield line({ rows });
      if (truncated) break;
    }
    yield line({ done: true, rowCount: count, truncated, ms: Math.round((performance.now() - t0) * 10) / 10 });
  } finally {
    run.rows.close();
  }
}

async function* csv(req: FastifyRequest, reply: FastifyReply, sql: string, run: ConsoleRun): AsyncGenerator<string> {
  try {
    yield csvLine(run.columns);
    for (;;) {
      let rows: unknown[][] | null;
      try {
        rows = await run.rows.next();
      } catch (err) {
        // the body so far is not the result: cut the answer so the download fails. A response cut
        // short never 'finish'es: Fastify runs onResponse (the request log) on its 'error' instead
        const failure = noteFailure(req, apiErrorOf(consoleError(err), sql));
        if (reply.raw.listenerCount('error') > 0) reply.raw.emit('error', failure);
        reply.raw.destroy();
        return;
      }
      if (rows === null) return;
      if (rows.length) yield rows.map(csvLine).join('');
    }
  } finally {
    run.rows.close();
  }
}

const fileStamp = (d: Date) => d.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '_');

/**
 * How long a reader may take nothing before its statement is ended: while the reader waits, the
 * budget pauses but the statement keeps its read-pool child, so a stalled download (a stuck tab, a
 * client reading nothing) would hold that child, and the costly reads of everyone else, for ever.
 */
const stallMsOf = (budgetMs: number) => Math.max(2 * budgetMs, 5000);

/**
 * `source` passed on, but cut when the reader has not asked for more within `stallMs` of a chunk
 * (Readable.from asks as the socket drains): the statement ends, its child is freed, the answer is
 * cut short (the download fails rather than looking complete) and the request log says why.
 */
async function* stallGuarded(req: FastifyRequest, reply: FastifyReply, run: ConsoleRun, stallMs: number, source: AsyncGenerator<string>): AsyncGenerator<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    for await (const chunk of source) {
      timer = setTimeout(() => {
        run.rows.close();
        const failure = noteFailure(req, badRequest(`The download was stopped: it took nothing for ${formatSeconds(stallMs)}.`, {}, { sqlConsole: 'stalled', stallMs }));
        if (reply.raw.listenerCount('error') > 0) reply.raw.emit('error', failure);
        reply.raw.destroy();
      }, stallMs);
      yield chunk;
      clearTimeout(timer);
    }
  } finally {
    clearTimeout(timer);
  }
}

function stream(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, run: ConsoleRun, source: AsyncGenerator<string>): FastifyReply {
  const body = stallGuarded(req, reply, run, stallMsOf(ctx.reads.budgetMs), source);
  return reply.header('cache-control', 'no-store').send(Readable.from(body, { objectMode: false }));
}

export function registerSqlConsole(app: FastifyInstance, ctx: AppContext): void {
  // never compressed: each chunk must reach the dashboard as it is written (rows, progress)
  app.post('/api/outpost/sql', { compress: false }, async (req, reply) => {
    const { sql, run, t0 } = await start(ctx, req);
    return stream(ctx, req, reply.type('application/x-ndjson; charset=utf-8'), run, ndjson(req, sql, run, t0));
  });

  app.post('/api/outpost/sql/csv', { compress: false }, async (req, reply) => {
    const { sql, run } = await start(ctx, req);
    reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="query_${fileStamp(new Date())}.csv"`);
    return stream(ctx, req, reply, run, csv(req, reply, sql, run));
  });
}
