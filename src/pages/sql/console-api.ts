// The SQL console's two requests (Outpost's POST /api/outpost/sql and /api/outpost/sql/csv, see
// server/http/sql-console.ts), read as streams: rows appear as they arrive, the CSV is written out
// as it arrives. fetch, not the SDK: the SDK reads whole bodies.
import { handleError, pb } from '../../api/client';
import { countCsvRows, lineSplitter } from '../../lib/sql-console/ndjson';
import { serverWords, t } from '../../ui/i18n';
import type { ExportSink } from '../records/io/export-sinks';

export type ResultKind = 'query' | 'plan' | 'pragma';

export interface RunSummary {
  rowCount: number;
  truncated: boolean;
  ms: number;
}

/** A refusal, SQLite's error or a stop at the budget (the API's 400), or a failure after rows came. */
export class ConsoleError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** `sql_write`, `sql_secret`, `sql_stopped`, … (server/services/sql-console/statement.ts) */
    readonly code: string,
  ) {
    super(message);
    this.name = 'ConsoleError';
  }
}

/** The server has no console (PocketBase 0.22 answers 404). */
export class NoConsoleError extends Error {}

async function post(path: string, sql: string, signal: AbortSignal): Promise<Response> {
  const res = await fetch(pb.buildUrl(path), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: pb.authStore.token },
    body: JSON.stringify({ sql }),
    signal,
  });
  if (res.ok) return res;
  const body = (await res.json().catch(() => ({}))) as { message?: string; data?: { sql?: { code?: string; message?: string } } };
  if (res.status === 404) throw new NoConsoleError(t('sql.noConsole'));
  if (res.status !== 400) {
    // 401 signs out, 403 goes home, as every other request
    handleError({ status: res.status, response: body, message: body.message });
    throw new ConsoleError(body.message ? serverWords(body.message) : t('sql.requestFailed', { status: res.status }), res.status, '');
  }
  const code = body.data?.sql?.code ?? '';
  const message = body.data?.sql?.message ?? body.message;
  throw new ConsoleError(message ? serverWords(message, code || undefined) : t('sql.refusedDefault'), 400, code);
}

export interface RunHandlers {
  onHead(kind: ResultKind, columns: string[]): void;
  onRows(rows: unknown[][]): void;
}

/** Runs `sql`: the head, then rows as they come; resolves with the summary (rejects with ConsoleError). */
export async function runSql(sql: string, signal: AbortSignal, on: RunHandlers): Promise<RunSummary> {
  const res = await post('/api/outpost/sql', sql, signal);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const lines = lineSplitter();
  const handle = (line: string): RunSummary | null => {
    const msg = JSON.parse(line) as Record<string, unknown>;
    if (Array.isArray(msg.columns)) on.onHead(msg.kind as ResultKind, msg.columns as string[]);
    else if (Array.isArray(msg.rows)) on.onRows(msg.rows as unknown[][]);
    else if (msg.error) {
      const e = msg.error as { message?: string; data?: { sql?: { code?: string } } };
      const code = e.data?.sql?.code ?? '';
      throw new ConsoleError(e.message ? serverWords(e.message, code || undefined) : t('sql.failedDefault'), 400, code);
    } else if (msg.done) return { rowCount: Number(msg.rowCount), truncated: msg.truncated === true, ms: Number(msg.ms) };
    return null;
  };
  for (;;) {
    const { value, done } = await reader.read();
    for (const line of done ? lines.end() : lines.push(value)) {
      const summary = handle(line);
      if (summary) return summary;
    }
    if (done) throw new ConsoleError(t('sql.cut'), 0, '');
  }
}

/** Streams the CSV of `sql` into `sink`; `onProgress` gets the rows and bytes written so far. */
export async function exportCsv(sql: string, sink: ExportSink, signal: AbortSignal, onProgress: (rows: number, bytes: number) => void): Promise<number> {
  const res = await post('/api/outpost/sql/csv', sql, signal);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let lines = 0;
  let bytes = 0;
  let endsInCr = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      bytes += value.length;
      const text = decoder.decode(value, { stream: true });
      // a CRLF may be split between two chunks
      lines += countCsvRows(text) + (endsInCr && text.startsWith('\n') ? 1 : 0);
      if (text) endsInCr = text.endsWith('\r');
      await sink.write(text);
      onProgress(Math.max(0, lines - 1), bytes);
    }
  } catch (err) {
    if (signal.aborted) throw err;
    // the server cuts the answer when the statement fails midway (a stop at the budget)
    throw new ConsoleError(t('sql.exportStopped'), 0, '');
  }
  const tail = decoder.decode();
  if (tail) await sink.write(tail);
  return Math.max(0, lines - 1);
}
