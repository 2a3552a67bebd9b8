// The records import popup: file → preview of the first rows with the column-to-field mapping →
// every row judged with the record schema (errors listed per row before anything is written) →
// batched import with progress and Cancel → summary with the failures as a download.
import { useEffect, useMemo, useRef, useState } from 'react';
import Papa from 'papaparse';
import { IconAlert } from '../../../ui/icons';
import { OverlayPanel } from '../../../ui/OverlayPanel';
import { downloadBlob } from '../../../lib/browser-io';
import type { CollectionModel } from '../../../lib/collections/types';
import {
  autoMapping,
  columnsOf,
  errorsText,
  importTargets,
  IMPORT_PREVIEW_ROWS,
  parseJsonRows,
  rowData,
  rowJudge,
  type ColumnMapping,
  type DataValidator,
  type RawRow,
} from '../../../lib/records-io/import-rows';
import { FORMULA_CELL, unescapeFormulaCell } from '../../../lib/records-io/csv-formulas';
import { runImport, type ImportFailure, type ImportRow, type ImportSummary } from './import-run';
import { fieldErrorWords, t } from '../../../ui/i18n';
import { DEFAULT_WORDS } from '../../../lib/schema/schema-words';
import { formatCount, tCount } from '../../../ui/counts';
import { tRich } from '../../../ui/rich-text';

export type ImportPanelProps = {
  open: boolean;
  onClose: () => void;
  collection: CollectionModel;
  onImported: () => void;
  /** An import starts writing (true) or has ended (false). */
  onRunning: (running: boolean) => void;
};

type Parsed = { name: string; rows: RawRow[]; columns: string[] };
type Checked = { valid: ImportRow[]; invalid: ImportFailure[] };

/** A row's field errors with the messages in the dashboard's language (through their codes, as the editor shows them). */
function inLanguage(errors: Record<string, { code?: string; message?: unknown } | undefined>): Record<string, { message?: unknown } | undefined> {
  return Object.fromEntries(Object.entries(errors).map(([k, e]) => [k, e && { message: typeof e.message === 'string' ? fieldErrorWords(e.message, e.code, DEFAULT_WORDS) : e.message }]));
}

/** Errors listed in the preview (the rest are counted, and all are in the failures download). */
const SHOWN_ERRORS = 50;
/** Rows judged between yields to the event loop. */
const CHECK_SLICE = 2000;

async function parseFile(file: File): Promise<Parsed> {
  if (/\.json$/i.test(file.name) || file.type === 'application/json') {
    const rows = parseJsonRows(await file.text());
    return { name: file.name, rows, columns: columnsOf(rows) };
  }
  return new Promise((resolve, reject) => {
    Papa.parse<RawRow>(file, {
      header: true,
      skipEmptyLines: 'greedy',
      // a cell our CSV export escaped against formula injection gets its value back
      transform: unescapeFormulaCell,
      complete: (res) => {
        const columns = (res.meta.fields ?? []).filter((f) => f !== '');
        if (!columns.length) reject(new Error(t('recordsIo.noHeader')));
        else resolve({ name: file.name, rows: res.data, columns });
      },
      error: (err) => reject(err),
    });
  });
}

let compiler: Promise<(schema: Record<string, unknown>) => DataValidator> | undefined;
/**
 * The record schema's validator, as the record editor gets it: interpreted, not compiled, because
 * the dashboard's CSP forbids the code ajv generates at run time (same verdicts and error shape).
 */
function recordCompiler() {
  return (compiler ??= import('../../../engine/interpret-schema').then((m) => (schema) => m.interpretSchema(schema) as unknown as DataValidator));
}

export default function ImportPanel({ open, onClose, collection, onImported, onRunning }: ImportPanelProps) {
  const targets = useMemo(() => importTargets(collection), [collection]);
  const [parsed, setParsed] = useState<Parsed | null>(null);
  const [fileError, setFileError] = useState('');
  const [mapping, setMapping] = useState<ColumnMapping>({});
  const [checked, setChecked] = useState<Checked | null>(null);
  // the preview marks the rows that will not be imported (line numbers as in the errors list)
  const rowErrors = useMemo(() => new Map((checked?.invalid ?? []).map((f) => [f.line, f.reason])), [checked]);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [summary, setSummary] = useState<ImportSummary | null>(null);
  const cancelRef = useRef(false);
  const [cancelling, setCancelling] = useState(false);

  useEffect(() => {
    if (!open || progress) return;
    setParsed(null);
    setFileError('');
    setChecked(null);
    setSummary(null);
    // a fresh start each time the popup opens
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const onFile = async (file: File | undefined) => {
    setFileError('');
    setParsed(null);
    setChecked(null);
    setSummary(null);
    if (!file) return;
    try {
      const p = await parseFile(file);
      if (!p.rows.length) throw new Error(t('recordsIo.noRows'));
      setParsed(p);
      setMapping(autoMapping(p.columns, targets));
    } catch (err) {
      setFileError(err instanceof Error ? err.message : t('recordsIo.unreadable'));
    }
  };

  // every row judged whenever the mapping changes, in slices so the page stays responsive
  useEffect(() => {
    if (!parsed) return;
    let stale = false;
    setChecked(null);
    void (async () => {
      const judge = rowJudge(collection, await recordCompiler());
      const valid: ImportRow[] = [];
      const invalid: ImportFailure[] = [];
      for (let i = 0; i < parsed.rows.length; i++) {
        if (i % CHECK_SLICE === CHECK_SLICE - 1) {
          await new Promise((r) => setTimeout(r, 0));
          if (stale) return;
        }
        const data = rowData(parsed.rows[i], mapping, targets);
        const errors = judge.errors(data);
        // line numbers as a spreadsheet shows them (the CSV header is line 1)
        const line = i + 2;
        if (Object.keys(errors).length) invalid.push({ line, reason: errorsText(inLanguage(errors), { invalid: t('recordsIo.invalidValue'), failed: t('recordsIo.requestFailed') }) });
        else valid.push({ line, data });
      }
      if (!stale) setChecked({ valid, invalid });
    })();
    return () => {
      stale = true;
    };
  }, [parsed, mapping, collection, targets]);

  const start = async () => {
    if (!checked || progress) return;
    cancelRef.current = false;
    setCancelling(false);
    setProgress({ done: 0, total: checked.valid.length });
    onRunning(true);
    try {
      const result = await runImport({
        collectionId: collection.id,
        rows: checked.valid,
        cancelled: () => cancelRef.current,
        onProgress: (done, total) => setProgress({ done, total }),
      });
      result.failed = [...checked.invalid, ...result.failed].sort((a, b) => a.line - b.line);
      setSummary(result);
      if (result.created || result.updated) onImported();
    } finally {
      setProgress(null);
      onRunning(false);
    }
  };

  const cancel = () => {
    cancelRef.current = true;
    setCancelling(true);
  };

  const downloadFailures = () => {
    if (!summary || !parsed) return;
    const rows = summary.failed.map((f) => ({ line: f.line, reason: f.reason, ...parsed.rows[f.line - 2] }));
    downloadBlob(
      new Blob([Papa.unparse(rows, { columns: ['line', 'reason', ...parsed.columns], escapeFormulae: FORMULA_CELL })], { type: 'text/csv;charset=utf-8' }),
      `${collection.name}_import_failures.csv`,
    );
  };

  const running = progress !== null;
  const mapped = Object.values(mapping).filter(Boolean).length;
  let footer;
  if (running) {
    footer = (
      <button type="button" className="btn btn-secondary" onClick={cancel} disabled={cancelling}>
        <span>{cancelling ? t('recordsIo.cancelling') : t('recordWidget.cancel')}</span>
      </button>
    );
  } else if (summary) {
    footer = (
      <button type="button" className="btn btn-primary" onClick={onClose}>
        <span>{t('recordsIo.done')}</span>
      </button>
    );
  } else {
    footer = (
      <>
        <button type="button" className="btn btn-transparent" onClick={onClose}>
          <span>{t('common.close')}</span>
        </button>
        <button type="button" className="btn btn-primary" disabled={!checked || !checked.valid.length || !mapped} onClick={() => void start()}>
          <span>{checked ? tCount('recordsIo.importRows', checked.valid.length) : t('recordsIo.import')}</span>
        </button>
      </>
    );
  }

  return (
    <OverlayPanel
      open={open}
      onRequestClose={onClose}
      beforeHide={() => !running}
      header={t('recordsIo.importTitle', { name: collection.name })}
      size="lg"
      className="records-import-panel"
      footer={footer}
    >
      {running && (
        <div className="records-io-progress">
          <progress max={progress.total || 1} value={progress.done} aria-label={t('recordsIo.importProgress')} />
          <p className="txt-muted" role="status">
            {t('recordsIo.importedOf', { done: formatCount(progress.done), total: formatCount(progress.total) })}
            {cancelling ? t('recordsIo.stopping') : ''}
          </p>
        </div>
      )}

      {summary && !running && (
        <div className="records-import-summary" role="status">
          <p>
            {summary.cancelled ? t('recordsIo.importCancelled') : t('recordsIo.importFinished')}
            {tRich('recordsIo.summary', {
              created: <strong>{formatCount(summary.created)}</strong>,
              updated: <strong>{formatCount(summary.updated)}</strong>,
              failed: <strong>{formatCount(summary.failed.length)}</strong>,
            })}
          </p>
          {summary.failed.length > 0 && (
            <>
              <ul className="records-import-errors" aria-label={t('recordsIo.failedRows')}>
                {summary.failed.slice(0, SHOWN_ERRORS).map((f) => (
                  <li key={f.line}>
                    {t('recordsIo.rowError', { line: String(f.line), reason: f.reason })}
                  </li>
                ))}
              </ul>
              <button type="button" className="btn btn-secondary btn-sm" onClick={downloadFailures}>
                <span>{t('recordsIo.downloadFailures')}</span>
              </button>
            </>
          )}
        </div>
      )}

      {!running && !summary && (
        <>
          <div className="form-field">
            <label htmlFor="records-import-file">{t('recordsIo.file')}</label>
            <input id="records-import-file" type="file" accept=".csv,.json,text/csv,application/json" onChange={(e) => void onFile(e.currentTarget.files?.[0])} />
            <div className="help-block">
              {t('recordsIo.fileHelp')}
            </div>
            {fileError && (
              <div className="help-block help-block-error" role="alert">
                {fileError}
              </div>
            )}
          </div>

          {parsed && (
            <>
              <h3 className="section-title">{tCount('recordsIo.previewTitle', parsed.rows.length)}</h3>
              {/* focusable, so keyboard users can scroll a wide or long preview (axe: scrollable-region-focusable) */}
              <div className="table-wrapper records-import-table-wrapper" tabIndex={0} role="region" aria-label={t('recordsIo.previewRegion')}>
                <table className="table records-import-table" aria-label={t('recordWidget.preview')}>
                  <thead>
                    <tr>
                      <th scope="col">{t('recordsIo.row')}</th>
                      {parsed.columns.map((c) => (
                        <th key={c} scope="col">
                          {c}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {parsed.rows.slice(0, IMPORT_PREVIEW_ROWS).map((r, i) => {
                      const reason = rowErrors.get(i + 2);
                      return (
                        <tr key={i} className={reason ? 'records-import-row-invalid' : undefined}>
                          <th scope="row" className="records-import-line">
                            {i + 2}
                            {reason && (
                              <>
                                <span aria-hidden="true">
                                  <IconAlert title={reason} />
                                </span>
                                <span className="visually-hidden">{t('recordsIo.hasErrors', { reason })}</span>
                              </>
                            )}
                          </th>
                          {parsed.columns.map((c) => (
                            <td key={c}>{typeof r[c] === 'object' ? JSON.stringify(r[c]) : String(r[c] ?? '')}</td>
                          ))}
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>

              <h3 className="section-title">{t('recordsIo.columns')}</h3>
              <div className="records-import-mapping">
                {parsed.columns.map((c) => (
                  <label key={c} className="records-import-map-row">
                    <span className="txt-ellipsis">{c}</span>
                    <select aria-label={t('recordsIo.fieldFor', { column: c })} value={mapping[c] ?? ''} onChange={(e) => setMapping((m) => ({ ...m, [c]: e.target.value }))}>
                      <option value="">{t('recordsIo.ignore')}</option>
                      {targets.map((f) => (
                        <option key={f.name} value={f.name}>
                          {f.name} ({f.type})
                        </option>
                      ))}
                    </select>
                  </label>
                ))}
              </div>

              <h3 className="section-title">{t('recordsIo.validation')}</h3>
              {!checked ? (
                <p className="txt-muted" aria-busy="true">
                  {t('recordsIo.checking')}
                </p>
              ) : (
                <>
                  <p role="status">
                    {tCount('recordsIo.checked', checked.valid.length, { invalid: formatCount(checked.invalid.length) })}
                    {checked.invalid.length ? t('recordsIo.notImported') : ''}.
                  </p>
                  {checked.invalid.length > 0 && (
                    <ul className="records-import-errors" aria-label={t('recordsIo.rowErrors')}>
                      {checked.invalid.slice(0, SHOWN_ERRORS).map((f) => (
                        <li key={f.line}>
                          {t('recordsIo.rowError', { line: String(f.line), reason: f.reason })}
                        </li>
                      ))}
                      {checked.invalid.length > SHOWN_ERRORS && <li>{t('recordsIo.andMore', { count: formatCount(checked.invalid.length - SHOWN_ERRORS) })}</li>}
                    </ul>
                  )}
                </>
              )}
            </>
          )}
        </>
      )}
    </OverlayPanel>
  );
}
