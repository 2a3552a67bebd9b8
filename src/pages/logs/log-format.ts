// The Logs page's rules as pure functions:
// levels, the detail keys in order, the previews and the download names (the filter: logs-filter.ts).
import { t } from '../../ui/i18n';

export interface LogEntry {
  id: string;
  created: string;
  updated: string;
  level: number;
  message: string;
  data: Record<string, unknown>;
}

/** Rows of a fetched page are added to the table in chunks of this size. */
export const LOGS_RENDER_CHUNK = 10;
export const LOGS_MAX_SKELETON_ROWS = 10;
/** Autocomplete keys: level, message and the data keys of request logs. */
export const LOGS_AUTOCOMPLETE_KEYS: readonly string[] = [
  'level',
  'message',
  'data.',
  ...['type', 'auth', 'status', 'method', 'url', 'execTime', 'referer', 'remoteIp', 'userIp', 'userAgent', 'error', 'details'].map((k) => `data.${k}`),
];
export const LOG_VIEW_REQUEST_KEY = 'log_view';
export const PRODUCT_VERSION = '0.22.12';
export const DOCS_URL = 'https://pocketbase.io/docs/';
export const RELEASES_URL = 'https://github.com/pocketbase/pocketbase/releases';

export const LOG_LEVELS: ReadonlyArray<{ level: number; label: string }> = [
  { level: -4, label: 'DEBUG' },
  { level: 0, label: 'INFO' },
  { level: 4, label: 'WARN' },
  { level: 8, label: 'ERROR' },
];

export function levelLabel(level: number): string {
  return LOG_LEVELS.find((l) => l.level === level)?.label ?? 'UNKN';
}

// Detail rows come first in this order, then the entry's other keys as they are.
const PRIORITY_KEYS = ['execTime', 'type', 'auth', 'status', 'method', 'url', 'referer', 'remoteIp', 'userIp', 'userAgent', 'error', 'details'];

export function detailKeys(data: Record<string, unknown> | null | undefined): string[] {
  if (!data || typeof data !== 'object') return [];
  const keys = PRIORITY_KEYS.filter((k) => data[k] !== undefined);
  for (const k of Object.keys(data)) if (!keys.includes(k)) keys.push(k);
  return keys;
}

/** 'N/A' applies to null, '', empty arrays and empty objects. */
export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value as object).length === 0;
  return false;
}

const DATE_SEPARATORS = /[-:. ]/g;

/** log_20240103090155630Z.json */
export function logFileName(log: Pick<LogEntry, 'created'>): string {
  return `log_${log.created.replace(DATE_SEPARATORS, '')}.json`;
}

/**
 * The bulk download: one entry saves as its own file; several as an array sorted newest first,
 * named `{N}_logs_{oldest}_to_{newest}.json`.
 */
export function bulkDownload(selected: readonly LogEntry[]): { name: string; value: LogEntry | LogEntry[] } | null {
  const sorted = [...selected].sort((a, b) => (a.created < b.created ? 1 : a.created > b.created ? -1 : 0));
  if (sorted.length === 0) return null;
  if (sorted.length === 1) return { name: logFileName(sorted[0]), value: sorted[0] };
  const to = sorted[0].created.replace(DATE_SEPARATORS, '');
  const from = sorted[sorted.length - 1].created.replace(DATE_SEPARATORS, '');
  return { name: `${sorted.length}_logs_${from}_to_${to}.json`, value: sorted };
}

/** 'Found 1 log' / 'Found N logs' (the language's plural forms). */
export function foundLogsText(total: number): string {
  return t('logs.found', { count: total });
}

/** A request's execTime with its unit ('12ms'). */
export function execTimeText(value: unknown): string {
  return t('logs.execTime', { value: typeof value === 'number' ? value : String(value) });
}

/** Text of a value for a one-line preview, cut to `max` characters. */
export function previewText(value: unknown, max: number): string {
  let text: string;
  if (isEmptyValue(value)) text = '-';
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** The short data labels under a list row's message (request logs: status, execTime, auth, userIp, a foreign referer; then error and details). */
export function previewKeys(log: LogEntry, host: string): Array<{ key: string; tone?: 'danger' | 'warning' }> {
  const data = log.data ?? {};
  const keys: Array<{ key: string; tone?: 'danger' | 'warning' }> = [];
  if (data.type === 'request') {
    for (const key of ['status', 'execTime', 'auth', 'userIp']) if (data[key] !== undefined) keys.push({ key });
    if (typeof data.referer === 'string' && data.referer && !data.referer.includes(host)) keys.push({ key: 'referer' });
  } else {
    for (const key of Object.keys(data)) {
      if (key !== 'error' && key !== 'details' && keys.length < 6) keys.push({ key });
    }
  }
  if (data.error) keys.push({ key: 'error', tone: 'danger' });
  if (data.details) keys.push({ key: 'details', tone: 'warning' });
  return keys;
}
