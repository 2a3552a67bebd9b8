// The Logs page's first list page and its stats, asked for by the router as the app starts on
// #/logs (while the page's code loads), so the first rows and the chart wait for no round trip of
// their own. Each answer is taken once, by the first load whose filter matches, while fresh (an
// app that left #/logs before the page showed must not show those rows on a later visit); any
// other load asks the server itself (same request keys: a later request cancels an unused one).
import { pb } from '../../api/client';
import { currentLocation } from '../../shell/navigation';
import { loadChart } from './chart-loader';
import type { LogEntry } from './log-format';
import { includeAdminsOf, logsFilter } from './logs-filter';

type HourlyStats = Awaited<ReturnType<typeof pb.logs.getStats>>;
type LogsPage = { page: number; items: LogEntry[] };

export const LOGS_PER_PAGE = 50;
const LOGS_PATH = '/logs';
const LIST_REQUEST_KEY = 'logs_list';
const STATS_REQUEST_KEY = 'logs_stats';
/** An early answer older than this is not used. */
const EARLY_MAX_AGE_MS = 10_000;

/** The first page of logs for `filter`, as the list asks for it. */
export function fetchLogsPage(page: number, filter: string): Promise<LogsPage> {
  return pb.logs.getList(page, LOGS_PER_PAGE, { sort: '-rowid', skipTotal: true, filter, requestKey: LIST_REQUEST_KEY }) as unknown as Promise<LogsPage>;
}

function fetchLogsStats(filter: string): Promise<HourlyStats> {
  return pb.logs.getStats({ filter, requestKey: STATS_REQUEST_KEY });
}

interface Early<T> {
  filter: string;
  answer: Promise<T>;
  askedAt: number;
}

let earlyList: Early<LogsPage> | null = null;
let earlyStats: Early<HourlyStats> | null = null;

function early<T>(filter: string, ask: (filter: string) => Promise<T>): Early<T> {
  const answer = ask(filter);
  // an answer nobody takes must not surface as an unhandled rejection
  answer.catch(() => undefined);
  return { filter, answer, askedAt: performance.now() };
}

/** The early answer if it was asked for `filter` and is still fresh, else null. */
function takeFresh<T>(taken: Early<T> | null, filter: string): Promise<T> | null {
  return taken?.filter === filter && performance.now() - taken.askedAt < EARLY_MAX_AGE_MS ? taken.answer : null;
}

/** Starts both requests when the Logs page is the one being opened (called once, as the app starts). */
export function startFirstLoad(): void {
  const { path, query } = currentLocation();
  if (path !== LOGS_PATH || !pb.authStore.isValid) return;
  const filter = logsFilter(query.filter ?? '', includeAdminsOf(query));
  earlyList = early(filter, (f) => fetchLogsPage(1, f));
  earlyStats = early(filter, fetchLogsStats);
  // the chart's code downloads while the page renders, not after its first rows
  earlyStats.answer.then(
    () => void loadChart().catch(() => undefined),
    () => undefined,
  );
}

/** The early first page for `filter` (once, while fresh), else a new request. */
export function firstLogsPage(filter: string): Promise<LogsPage> {
  const taken = takeFresh(earlyList, filter);
  earlyList = null;
  return taken ?? fetchLogsPage(1, filter);
}

/** The early stats for `filter` (once, while fresh), else a new request. */
export function logsStats(filter: string): Promise<HourlyStats> {
  const taken = takeFresh(earlyStats, filter);
  earlyStats = null;
  return taken ?? fetchLogsStats(filter);
}
