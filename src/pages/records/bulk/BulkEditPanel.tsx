/**
 * Bulk edit: set one field to one value on the selected records. The value is edited with the
 * record editor's own widget and validation for that field; applying asks for confirmation with
 * the count, shows a progress bar, then lists every record that failed (API rules and server
 * validation apply per record) next to the number updated.
 */
import { useMemo, useRef, useState } from 'react';
import { OverlayPanel } from '../../../ui/OverlayPanel';
import { confirm } from '../../../shell/confirm';
import { addErrorToast } from '../../../shell/toasts';
import { SchemaForm } from '../../../engine';
import type { CollectionModel } from '../../../lib/collections/types';
import { recordToFormData } from '../../../lib/record-form';
import { createUploadStore, RecordEditorContext, type RecordEditorContextValue } from '../../../widgets/record/context';
import { applyToRecords, type BulkResult } from './bulk-apply';
import { bulkFields, oneFieldForm, requestValue } from './bulk-fields';
import './bulk.css';
import { t } from '../../../ui/i18n';
import { formatCount, tCount } from '../../../ui/counts';

export type BulkEditPanelProps = {
  collection: CollectionModel;
  ids: readonly string[];
  onClose: () => void;
  /** Called after a run with the ids that changed. */
  onApplied: (result: BulkResult) => void;
};

export default function BulkEditPanel({ collection, ids, onClose, onApplied }: BulkEditPanelProps) {
  const fields = useMemo(() => bulkFields(collection), [collection]);
  const [field, setField] = useState(fields[0] ?? '');
  const [data, setData] = useState<Record<string, unknown>>(() => recordToFormData(collection as never, null));
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [result, setResult] = useState<BulkResult | null>(null);
  const abort = useRef<AbortController | null>(null);
  const form = useMemo(() => (field ? oneFieldForm(collection, field) : null), [collection, field]);
  const context: RecordEditorContextValue = useMemo(() => ({ collection, record: null, ...createUploadStore() }), [collection]);
  const running = progress !== null && result === null;
  const formId = 'bulk-edit-form';

  const apply = (valid: Record<string, unknown>) => {
    const value = requestValue(collection, field, valid[field]);
    if (!value.ok) {
      addErrorToast(value.message);
      return;
    }
    const targets = [...ids];
    const run = async () => {
      setResult(null);
      setProgress({ done: 0, total: targets.length });
      abort.current = new AbortController();
      const res = await applyToRecords(collection.id, targets, field, value.value, (done) => setProgress({ done, total: targets.length }), abort.current.signal);
      setResult(res);
      // the outcome is the panel's status line, not a toast: a toast would sit over the panel's footer
      onApplied(res);
    };
    // Yes closes the popup as the run starts (the panel shows the progress and Stop); handing
    // the run's promise to confirm would keep the popup over the progress bar until the end.
    confirm(tCount('bulkEdit.confirm', targets.length, { field }), () => {
      run().catch((err: unknown) => console.error(err));
    });
  };

  const header = <h2 className="overlay-panel-title">{tCount('bulkEdit.title', ids.length)}</h2>;
  const footer = (
    <>
      <button type="button" className="btn btn-transparent" onClick={() => (running ? abort.current?.abort() : onClose())}>
        {running ? t('bulkEdit.stop') : result ? t('bulkEdit.done') : t('recordWidget.cancel')}
      </button>
      <button type="submit" form={formId} className="btn btn-primary" disabled={!form || running}>
        {tCount('bulkEdit.apply', ids.length)}
      </button>
    </>
  );

  return (
    <OverlayPanel open size="md" onRequestClose={onClose} beforeHide={() => !running} header={header} footer={footer} ariaLabel={tCount('bulkEdit.title', ids.length)} className="bulk-edit-panel">
      {fields.length === 0 ? (
        <p className="txt-hint">{t('bulkEdit.noFields')}</p>
      ) : (
        <>
          <div className="sf-field bulk-edit-field">
            <label htmlFor="bulk-edit-field" className="sf-label">
              {t('bulkEdit.field')}
            </label>
            <select id="bulk-edit-field" className="sf-input" value={field} disabled={running} onChange={(e) => setField(e.target.value)}>
              {fields.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          </div>
          {form && (
            <RecordEditorContext.Provider value={context}>
              <SchemaForm key={field} id={formId} schema={form.schema as never} uiSchema={form.uiSchema as never} formData={data} onChange={(d) => setData(d as Record<string, unknown>)} onSubmit={(d) => apply(d as Record<string, unknown>)} disabled={running} serverErrors={{}} />
            </RecordEditorContext.Provider>
          )}
        </>
      )}
      {progress && (
        <div className="bulk-edit-progress">
          <progress max={progress.total} value={progress.done} aria-label={t('bulkEdit.progressLabel')} />
          <span>{t('bulkEdit.progress', { done: formatCount(progress.done), total: formatCount(progress.total) })}</span>
        </div>
      )}
      {result && (
        <div className={`alert ${result.failed.length ? 'alert-danger' : 'alert-success'} bulk-edit-result`} role="status">
          <p>
            {tCount('bulkEdit.updated', result.updated.length, { total: formatCount(progress?.total ?? ids.length) })}
            {result.failed.length > 0 && tCount('bulkEdit.failed', result.failed.length)}
            {result.updated.length + result.failed.length < (progress?.total ?? 0) && t('bulkEdit.stopped')}.
          </p>
          {result.failed.length > 0 && (
            <ul className="bulk-edit-failures" aria-label={t('bulkEdit.failedList')}>
              {result.failed.map((f) => (
                <li key={f.id}>
                  <code>{f.id}</code>: {f.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </OverlayPanel>
  );
}
