// #/sql: the SQL console (full admins; src/state/permissions.ts). One read-only statement at a time
// against Outpost's POST /api/outpost/sql: rows stream into a virtualised grid (the first 10,000),
// EXPLAIN QUERY PLAN shows as a tree, Export CSV streams every row to a file with its progress.
// Saved queries and the history are kept per admin in this browser (console-store.ts says why).
// PocketBase 0.22 has no console (404): the page then says so.
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { usePageTitle } from '../../shell/page-title';
import { Breadcrumbs } from '../../shell/SettingsLayout';
import { confirm } from '../../shell/confirm';
import { addInfoToast, addSuccessToast } from '../../shell/toasts';
import { IconDownload } from '../../ui/icons';
import { useAuth } from '../../state/auth';
import { collectionsState, ensureCollections } from '../../state/collections';
import { canUseSqlConsole } from '../../state/permissions';
import { sqlTables } from '../../lib/sql-console/completions';
import { blobSink } from '../records/io/export-sinks';
import { ConsoleError, exportCsv, NoConsoleError, runSql, type ResultKind, type RunSummary } from './console-api';
import { addHistory, clearHistory, deleteSaved, listHistory, listSaved, type HistoryEntry, type SavedQuery } from './console-store';
import { ResultsGrid } from './ResultsGrid';
import { PlanTree } from './PlanTree';
import { SaveQueryPopup } from './SaveQueryPopup';
import './sql-console.css';
import { FormattedDate } from '../../ui/FormattedDate';
import { currentLanguage, t } from '../../ui/i18n';

const SqlEditor = lazy(() => import('./SqlEditor'));

const EDITOR_ID = 'sql-console-editor';
const HELP_ID = 'sql-console-help';
const SAMPLE = 'SELECT name, type, system FROM _collections ORDER BY name;';

type Result =
  | { status: 'idle' }
  | { status: 'running'; sql: string; kind: ResultKind | null; columns: string[]; rows: unknown[][] }
  | { status: 'done'; sql: string; kind: ResultKind; columns: string[]; rows: unknown[][]; summary: RunSummary }
  | { status: 'error'; sql: string; message: string; code: string; kind: ResultKind | null; columns: string[]; rows: unknown[][] };

type ExportState = { rows: number; bytes: number; total: number | null };

const isAbort = (err: unknown) => (err as { name?: string })?.name === 'AbortError';
/** A size in KB or MB, the number as the language writes it (units are the same in every language). */
function formatBytes(n: number): string {
  const mb = n >= 1024 * 1024;
  const digits = mb ? 1 : 0;
  const value = new Intl.NumberFormat(currentLanguage(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(mb ? n / 1024 / 1024 : n / 1024);
  return `${value} ${mb ? 'MB' : 'KB'}`;
}
/** A history time as the dashboard shows dates by default (UTC, yyyy-MM-dd HH:mm:ss). */
const fileStamp = (d: Date) => d.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '_');

function statusText(result: Result): string {
  switch (result.status) {
    case 'idle':
      return '';
    case 'running':
      return result.rows.length ? t('sql.runningRows', { count: result.rows.length }) : t('sql.running');
    case 'error':
      return result.rows.length ? t('sql.stoppedAfter', { count: result.rows.length }) : '';
    case 'done': {
      const { rowCount, truncated, ms } = result.summary;
      if (truncated) return t('sql.truncated', { count: rowCount, ms });
      return t(result.kind === 'plan' ? 'sql.planSteps' : 'sql.rows', { count: rowCount, ms });
    }
  }
}

function Results({ result }: { result: Result }) {
  if (result.status === 'idle') return <p className="txt-hint sql-results-empty">{t('sql.idle')}</p>;
  const { kind, columns, rows } = result;
  return (
    <>
      {result.status === 'error' && (
        <div className="alert alert-danger sql-error" role="alert">
          {result.code === 'sql_stopped' ? <strong>{t('sql.stopped')} </strong> : result.code.startsWith('sql_') && result.code !== 'sql_failed' ? <strong>{t('sql.refused')} </strong> : null}
          {result.message}
        </div>
      )}
      {kind === 'plan' && rows.length > 0 && <PlanTree rows={rows} />}
      {kind !== null && kind !== 'plan' && columns.length > 0 && (
        <>
          <ResultsGrid columns={columns} rows={rows} label={t('sql.resultsLabel', { count: rows.length })} />
          {rows.length === 0 && result.status === 'done' && <p className="txt-hint sql-results-empty">{t('sql.noRows')}</p>}
        </>
      )}
    </>
  );
}

export default function SqlConsolePage() {
  usePageTitle(t('page.sqlConsole'));
  const { admin } = useAuth();
  const adminId = admin?.id ?? '';
  const { collections } = useSnapshot(collectionsState);
  const [sql, setSql] = useState(() => (adminId && listHistory(adminId)[0]?.sql) || SAMPLE);
  const [result, setResult] = useState<Result>({ status: 'idle' });
  const [unavailable, setUnavailable] = useState(false);
  const [saved, setSaved] = useState<SavedQuery[]>(() => (adminId ? listSaved(adminId) : []));
  const [history, setHistory] = useState<HistoryEntry[]>(() => (adminId ? listHistory(adminId) : []));
  const [exporting, setExporting] = useState<ExportState | null>(null);
  const [saveOpen, setSaveOpen] = useState(false);
  /** Runs started (the results area says which one it shows: data-run, data-state). */
  const [runs, setRuns] = useState(0);
  const running = useRef<AbortController | null>(null);
  const exportRun = useRef<AbortController | null>(null);

  useEffect(() => {
    // completion needs the collections; other screens may not have loaded them
    void ensureCollections().catch(() => undefined);
    return () => {
      running.current?.abort();
      exportRun.current?.abort();
    };
  }, []);

  const tables = useMemo(() => sqlTables(collections), [collections]);
  const tablesRef = useRef(tables);
  tablesRef.current = tables;
  const getTables = useCallback(() => tablesRef.current, []);

  const refreshLists = () => {
    setSaved(listSaved(adminId));
    setHistory(listHistory(adminId));
  };

  const run = useCallback(async () => {
    const text = sql;
    if (!text.trim() || !adminId) return;
    running.current?.abort();
    const ac = new AbortController();
    running.current = ac;
    let kind: ResultKind | null = null;
    let columns: string[] = [];
    let rows: unknown[][] = [];
    let frame = 0;
    const show = () => {
      frame = 0;
      if (running.current === ac) setResult({ status: 'running', sql: text, kind, columns, rows });
    };
    setResult({ status: 'running', sql: text, kind: null, columns: [], rows: [] });
    setRuns((n) => n + 1);
    try {
      const summary = await runSql(text, ac.signal, {
        onHead: (k, c) => {
          kind = k;
          columns = c;
        },
        onRows: (more) => {
          rows = rows.concat(more);
          // one render per frame however many chunks arrive
          if (!frame) frame = requestAnimationFrame(show);
        },
      });
      cancelAnimationFrame(frame);
      if (running.current !== ac) return;
      setResult({ status: 'done', sql: text, kind: kind ?? 'query', columns, rows, summary });
      addHistory(adminId, { sql: text, at: new Date().toISOString(), ok: true, rows: summary.rowCount, ms: summary.ms });
    } catch (err) {
      cancelAnimationFrame(frame);
      if (running.current !== ac) return;
      if (isAbort(err)) {
        setResult({ status: 'error', sql: text, message: t('sql.cancelled'), code: '', kind, columns, rows });
        return;
      }
      if (err instanceof NoConsoleError) {
        setUnavailable(true);
        setResult({ status: 'idle' });
        return;
      }
      const message = err instanceof Error ? err.message : String(err);
      setResult({ status: 'error', sql: text, message, code: err instanceof ConsoleError ? err.code : '', kind, columns, rows });
      addHistory(adminId, { sql: text, at: new Date().toISOString(), ok: false });
    } finally {
      if (running.current === ac) running.current = null;
      setHistory(listHistory(adminId));
    }
  }, [sql, adminId]);

  const startExport = async () => {
    if (exportRun.current || !sql.trim()) return;
    const text = sql;
    const ac = new AbortController();
    exportRun.current = ac;
    // the total is known when the last run of this statement gave every row
    const total = result.status === 'done' && result.sql === text && !result.summary.truncated ? result.summary.rowCount : null;
    const sink = blobSink(`query_${fileStamp(new Date())}.csv`, 'csv');
    setExporting({ rows: 0, bytes: 0, total });
    try {
      const count = await exportCsv(text, sink, ac.signal, (rows, bytes) => setExporting({ rows, bytes, total }));
      await sink.close();
      addSuccessToast(t('sql.exported', { count }));
    } catch (err) {
      await sink.abort();
      if (isAbort(err)) addInfoToast(t('sql.exportCancelled'));
      else if (err instanceof NoConsoleError) setUnavailable(true);
      else setResult({ status: 'error', sql: text, message: err instanceof Error ? err.message : String(err), code: err instanceof ConsoleError ? err.code : '', kind: null, columns: [], rows: [] });
    } finally {
      exportRun.current = null;
      setExporting(null);
    }
  };

  const removeSaved = (q: SavedQuery) =>
    confirm(t('sql.deleteConfirm', { name: q.name }), () => {
      deleteSaved(adminId, q.id);
      refreshLists();
    });

  if (!canUseSqlConsole(admin)) {
    return (
      <main className="page-wrapper sql-page">
        <header className="page-header">
          <Breadcrumbs items={[t('page.sqlConsole')]} />
        </header>
        <div className="page-content">
          <p className="txt-hint">{t('sql.notAllowed')}</p>
        </div>
      </main>
    );
  }

  const isRunning = result.status === 'running';
  const pct = exporting?.total ? Math.min(100, Math.round((exporting.rows / exporting.total) * 100)) : null;
  const currentName = saved.find((q) => q.sql === sql)?.name ?? '';

  return (
    <main className="page-wrapper sql-page">
      <header className="page-header">
        <Breadcrumbs items={[t('page.sqlConsole')]} />
      </header>
      <div className="page-content sql-content">
        {unavailable ? (
          <p className="txt-hint">{t('sql.unavailable')}</p>
        ) : (
          <>
            <section className="sql-main" aria-label={t('sql.mainLabel')}>
              <label className="sql-editor-label" htmlFor={EDITOR_ID}>
                {t('sql.statement')}
              </label>
              <div className="sql-editor">
                <Suspense
                  fallback={<textarea id={EDITOR_ID} className="sf-input sql-editor-fallback" rows={6} value={sql} aria-describedby={HELP_ID} onChange={(e) => setSql(e.target.value)} />}
                >
                  <SqlEditor id={EDITOR_ID} value={sql} onChange={setSql} onRun={() => void run()} tables={getTables} describedBy={HELP_ID} />
                </Suspense>
              </div>
              <p id={HELP_ID} className="txt-hint sql-help">
                {t('sql.help', { count: 10_000 })}
              </p>
              <div className="sql-toolbar">
                <button type="button" className={`btn btn-primary${isRunning ? ' btn-loading' : ''}`} onClick={() => void run()} disabled={isRunning || !sql.trim()} aria-keyshortcuts="Control+Enter">
                  <span>{t('sql.run')}</span>
                </button>
                {isRunning && (
                  <button type="button" className="btn btn-secondary" onClick={() => running.current?.abort()}>
                    <span>{t('sql.cancel')}</span>
                  </button>
                )}
                <button type="button" className="btn btn-secondary" onClick={() => void startExport()} disabled={exporting !== null || !sql.trim()}>
                  <IconDownload /> <span>{t('sql.exportCsv')}</span>
                </button>
                <button type="button" className="btn btn-transparent" onClick={() => setSaveOpen(true)} disabled={!sql.trim()}>
                  <span>{t('sql.saveQuery')}</span>
                </button>
                <div className="flex-fill" />
                <span className="txt-hint sql-status" role="status">
                  {statusText(result)}
                </span>
              </div>
              {exporting && (
                <div className="sql-export">
                  {pct === null ? <progress aria-label={t('sql.exportProgress')} /> : <progress aria-label={t('sql.exportProgress')} max={100} value={pct} />}
                  <span className="txt-muted" role="status">
                    {pct === null
                      ? t('sql.exportingBytes', { count: exporting.rows, size: formatBytes(exporting.bytes) })
                      : t('sql.exportingOf', { rows: exporting.rows, count: exporting.total ?? 0, pct })}
                  </span>
                  <button type="button" className="btn btn-sm btn-secondary" onClick={() => exportRun.current?.abort()}>
                    <span>{t('sql.cancelExport')}</span>
                  </button>
                </div>
              )}
              <div className="sql-results" data-run={runs} data-state={result.status}>
                <Results result={result} />
              </div>
            </section>

            <aside className="sql-side" aria-label={t('sql.sideLabel')}>
              <h2 className="sql-side-title">{t('sql.savedQueries')}</h2>
              {saved.length === 0 ? (
                <p className="txt-hint">{t('sql.noSaved')}</p>
              ) : (
                <ul className="sql-list">
                  {saved.map((q) => (
                    <li key={q.id} className="sql-list-item">
                      <button type="button" className="sql-list-load" onClick={() => setSql(q.sql)} title={q.sql}>
                        <span className="sql-list-name">{q.name}</span>
                        <span className="sql-list-sql">{q.sql}</span>
                      </button>
                      <button type="button" className="btn btn-transparent btn-sm" aria-label={t('sql.deleteSavedLabel', { name: q.name })} onClick={() => removeSaved(q)}>
                        <span>{t('sql.delete')}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              )}
              <h2 className="sql-side-title">{t('sql.history')}</h2>
              {history.length === 0 ? (
                <p className="txt-hint">{t('sql.noHistory')}</p>
              ) : (
                <>
                  <ul className="sql-list">
                    {history.map((h) => (
                      <li key={h.at + h.sql} className="sql-list-item">
                        <button type="button" className="sql-list-load" onClick={() => setSql(h.sql)} title={h.sql}>
                          <span className="sql-list-sql">{h.sql}</span>
                          <span className="sql-list-meta">
                            <FormattedDate value={h.at} withZone /> · {h.ok ? t('sql.historyRows', { count: h.rows ?? 0 }) : t('sql.historyFailed')}
                          </span>
                        </button>
                      </li>
                    ))}
                  </ul>
                  <button
                    type="button"
                    className="btn btn-transparent btn-sm"
                    onClick={() => {
                      clearHistory(adminId);
                      refreshLists();
                    }}
                  >
                    <span>{t('sql.clearHistory')}</span>
                  </button>
                </>
              )}
            </aside>
          </>
        )}
      </div>
      <SaveQueryPopup open={saveOpen} adminId={adminId} sql={sql} initialName={currentName} onClose={() => setSaveOpen(false)} onSaved={refreshLists} />
    </main>
  );
}
