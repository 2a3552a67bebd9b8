// The logs table: 50 per page sorted -rowid without totals,
// rows added in chunks of 10 (one task each, so a page never blocks the main thread), Load more
// while the last page was full, select-all and a bulk bar with Reset and 'Download as JSON',
// skeleton rows while loading, 'No logs found.' with Clear filters. A 400 for a filter shows no
// toast; the page shows a quiet hint instead.
import { memo, useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { handleError } from '../../api/client';
import { downloadJsonText } from '../../lib/browser-io';
import { DateZoneLabel, FormattedDate } from '../../ui/FormattedDate';
import { IconDownload } from '../../ui/icons';
import { currentLanguage, serverWords, t } from '../../ui/i18n';
import {
  bulkDownload,
  execTimeText,
  LOGS_MAX_SKELETON_ROWS,
  LOGS_RENDER_CHUNK,
  previewKeys,
  previewText,
  type LogEntry,
} from './log-format';
import { fetchLogsPage, firstLogsPage, LOGS_PER_PAGE } from './logs-first-load';
import { LogLevel } from './LogLevel';

/** Characters of a message shown in a row. */
const MESSAGE_MAX = 150;
const PREVIEW_MAX = 80;

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function isAbort(err: unknown): boolean {
  return !!(err && typeof err === 'object' && (err as { isAbort?: boolean }).isAbort);
}

function invalidFilterText(err: unknown): string {
  const msg = (err as { response?: { message?: unknown } }).response?.message;
  const generic = typeof msg !== 'string' || !msg || msg.startsWith('Something went wrong');
  return generic ? t('logs.invalidFilter') : t('logs.invalidFilterWith', { message: serverWords(msg) });
}

// The log's own field names (as the filter names them), not words: the same in every language.
const FIELD = { level: 'level', message: 'message', created: 'created' } as const;

const COUNT_MARK = '\u0000';
/** 'Selected <strong>N</strong> logs': the language's sentence with the count in bold. */
function SelectedCount({ count }: { count: number }) {
  const [before, after = ''] = t('logs.selected', { count, n: COUNT_MARK }).split(COUNT_MARK);
  return (
    <span>
      {before}
      <strong>{new Intl.NumberFormat(currentLanguage()).format(count)}</strong>
      {after}
    </span>
  );
}

type RowProps = { log: LogEntry; selected: boolean; host: string; onOpen: (log: LogEntry) => void; onToggle: (log: LogEntry) => void };

const LogRow = memo(function LogRow({ log, selected, host, onOpen, onToggle }: RowProps) {
  const onKeyDown = (e: KeyboardEvent<HTMLTableRowElement>) => {
    if (e.target !== e.currentTarget || e.key !== 'Enter') return;
    e.preventDefault();
    onOpen(log);
  };
  const isRequest = log.data?.type === 'request';
  return (
    <tr
      className={`row-handle logs-row${selected ? ' row-selected' : ''}`}
      tabIndex={0}
      data-id={log.id}
      aria-label={t('logs.openLog', { id: log.id })}
      onClick={() => onOpen(log)}
      onKeyDown={onKeyDown}
    >
      <td className="col-select" onClick={(e) => e.stopPropagation()}>
        <input type="checkbox" aria-label={t('logs.selectLog', { id: log.id })} checked={selected} onChange={() => onToggle(log)} onKeyDown={(e) => e.stopPropagation()} />
      </td>
      <td className="col-field-level">
        <LogLevel level={log.level} />
      </td>
      <td className="col-field-message">
        <span className="logs-message">{log.message.length > MESSAGE_MAX ? `${log.message.slice(0, MESSAGE_MAX)}...` : log.message}</span>
        <span className="logs-preview">
          {previewKeys(log, host).map(({ key, tone }) => (
            <span key={key} className={`logs-chip${tone ? ` logs-chip-${tone}` : ''}`}>
              {key}: {isRequest && key === 'execTime' ? execTimeText(log.data[key]) : previewText(log.data[key], PREVIEW_MAX)}
            </span>
          ))}
        </span>
      </td>
      <td className="col-field-created">
        <FormattedDate value={log.created} />
      </td>
      <td className="col-action" aria-hidden="true">
        ›
      </td>
    </tr>
  );
});

export interface LogsListProps {
  /** The filter sent (preset and normalised search joined). */
  filter: string;
  /** The user's own search: 'Clear filters' shows when it is set. */
  search: string;
  refreshKey: number;
  onOpen: (log: LogEntry) => void;
  onClearSearch: () => void;
  /** The server rejected the filter ('' once a load succeeds). */
  onInvalidFilter: (message: string) => void;
  /** The rows currently listed (the detail panel opens from them without a fetch). */
  onRowsChange?: (logs: readonly LogEntry[]) => void;
  /** A load ended (its first rows are being shown, or it failed). */
  onSettled?: () => void;
}

export function LogsList({ filter, search, refreshKey, onOpen, onClearSearch, onInvalidFilter, onRowsChange, onSettled }: LogsListProps) {
  const [logs, setLogs] = useState<LogEntry[]>([]);
  const [page, setPage] = useState(1);
  const [lastLoadCount, setLastLoadCount] = useState(0);
  const [loading, setLoading] = useState(true);
  const [selected, setSelected] = useState<ReadonlyMap<string, LogEntry>>(() => new Map());
  const generation = useRef(0);
  const host = typeof window === 'undefined' ? '' : window.location.host;

  const load = useCallback(
    async (pageNo: number, gen: number) => {
      setLoading(true);
      try {
        const result = await (pageNo === 1 ? firstLogsPage(filter) : fetchLogsPage(pageNo, filter));
        if (gen !== generation.current) return;
        const items = result.items ?? [];
        setLoading(false);
        setPage(result.page);
        setLastLoadCount(items.length);
        onInvalidFilter('');
        if (pageNo <= 1) setLogs([]);
        if (items.length === 0) onSettled?.();
        // add the rows in chunks, one task each; a newer load stops this one
        for (let i = 0; i < items.length; i += LOGS_RENDER_CHUNK) {
          if (gen !== generation.current) return;
          const chunk = items.slice(i, i + LOGS_RENDER_CHUNK);
          setLogs((list) => {
            const seen = new Set(list.map((l) => l.id));
            return [...list, ...chunk.filter((l) => !seen.has(l.id))];
          });
          if (i === 0) onSettled?.();
          if (i + LOGS_RENDER_CHUNK < items.length) await nextTask();
        }
      } catch (err) {
        if (isAbort(err) || gen !== generation.current) return;
        onSettled?.();
        setLoading(false);
        setLogs([]);
        setSelected(new Map());
        setLastLoadCount(0);
        console.warn(err);
        if ((err as { status?: number }).status === 400 && filter) onInvalidFilter(invalidFilterText(err));
        handleError(err, { silent400: !!filter });
      }
    },
    [filter, onInvalidFilter, onSettled],
  );

  // a new filter or a refresh starts again from an empty page 1
  useEffect(() => {
    const gen = ++generation.current;
    setLogs([]);
    setSelected(new Map());
    setPage(1);
    setLastLoadCount(0);
    void load(1, gen);
  }, [load, refreshKey]);

  useEffect(() => {
    onRowsChange?.(logs);
  }, [logs, onRowsChange]);

  const toggle = useCallback((log: LogEntry) => {
    setSelected((s) => {
      const next = new Map(s);
      if (next.has(log.id)) next.delete(log.id);
      else next.set(log.id, log);
      return next;
    });
  }, []);
  const allSelected = logs.length > 0 && selected.size === logs.length;
  const toggleAll = () => setSelected(allSelected ? new Map() : new Map(logs.map((l) => [l.id, l])));

  const download = () => {
    const file = bulkDownload([...selected.values()]);
    if (file) downloadJsonText(JSON.stringify(file.value, null, 2), file.name);
  };

  const canLoadMore = lastLoadCount >= LOGS_PER_PAGE;
  return (
    <div className="logs-list">
      <div className="table-wrapper logs-table-wrapper">
        <table className="table logs-table" aria-label={t('page.logs')} aria-busy={loading || undefined}>
          <thead>
            <tr>
              <th className="col-select" scope="col">
                <input type="checkbox" aria-label={t('logs.selectAll')} checked={allSelected} disabled={logs.length === 0} onChange={toggleAll} />
              </th>
              <th className="col-field-level" scope="col">
                {FIELD.level}
              </th>
              <th className="col-field-message" scope="col">
                {FIELD.message}
              </th>
              <th className="col-field-created" scope="col">
                {FIELD.created} <DateZoneLabel />
              </th>
              <th className="col-action" scope="col">
                <span className="visually-hidden">{t('logs.open')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {loading &&
              logs.length === 0 &&
              Array.from({ length: LOGS_MAX_SKELETON_ROWS }, (_, i) => (
                <tr key={`skeleton${i}`} className="row-skeleton" aria-hidden="true">
                  <td colSpan={5}>
                    <span className="skeleton-line" />
                  </td>
                </tr>
              ))}
            {!loading && logs.length === 0 && (
              <tr>
                <td colSpan={5}>
                  <div className="empty-state logs-empty">
                    <p className="empty-state-title">{t('logs.noLogs')}</p>
                    {search && (
                      <button type="button" className="btn btn-secondary btn-sm" onClick={onClearSearch}>
                        {t('logs.clearFilters')}
                      </button>
                    )}
                  </div>
                </td>
              </tr>
            )}
            {logs.map((log) => (
              <LogRow key={log.id} log={log} selected={selected.has(log.id)} host={host} onOpen={onOpen} onToggle={toggle} />
            ))}
          </tbody>
        </table>
      </div>

      {logs.length > 0 && canLoadMore && (
        <div className="logs-load-more">
          <button
            type="button"
            className={`btn btn-secondary${loading ? ' btn-loading' : ''}`}
            disabled={loading}
            onClick={() => void load(page + 1, generation.current)}
          >
            {t('logs.loadMore')}
          </button>
        </div>
      )}

      {selected.size > 0 && (
        <div className="logs-bulkbar" role="region" aria-label={t('logs.bulkActions')}>
          <SelectedCount count={selected.size} />
          <button type="button" className="btn btn-transparent btn-sm" onClick={() => setSelected(new Map())}>
            {t('logs.reset')}
          </button>
          <div className="flex-fill" />
          <button type="button" className="btn btn-secondary btn-sm" onClick={download}>
            <IconDownload size={14} />
            <span>{t('logs.downloadJson')}</span>
          </button>
        </div>
      )}
    </div>
  );
}
