// The records export popup: options (schemas/records/export), then a progress bar with Cancel while
// pages are written out (see export-run.ts).
import { useEffect, useMemo, useRef, useState } from 'react';
import { pb } from '../../../api/client';
import { handleError } from '../../../api/client';
import { OverlayPanel } from '../../../ui/OverlayPanel';
import { addInfoToast, addSuccessToast } from '../../../shell/toasts';
import { getForm, SchemaForm } from '../../../engine';
import type { CollectionModel } from '../../../lib/collections/types';
import { exportFileName, type ExportFormat } from '../../../lib/records-io/export-rows';
import { runExport } from './export-run';
import { blobSink, canStreamToFile, fileSink, type ExportSink } from './export-sinks';
import { t } from '../../../ui/i18n';
import { formatCount, tCount } from '../../../ui/counts';

const FORM_ID = 'records-export-form';

type ExportForm = { scope?: 'filter' | 'selection'; format?: ExportFormat; relationNames?: boolean; fileUrls?: boolean; streamToFile?: boolean };

export type ExportPanelProps = {
  open: boolean;
  onClose: () => void;
  collection: CollectionModel;
  collectionsById: ReadonlyMap<string, CollectionModel>;
  filter: string;
  sort: string;
  selectedIds: readonly string[];
};

const isAbortError = (e: unknown) => (e as { name?: string })?.name === 'AbortError' || !!(e as { isAbort?: boolean })?.isAbort;

export default function ExportPanel({ open, onClose, collection, collectionsById, filter, sort, selectedIds }: ExportPanelProps) {
  // read on each render: the words follow the language
  const form = getForm('records/export');
  const [data, setData] = useState<ExportForm>({});
  // total null: the ids are still being counted (a large export takes seconds before the first record)
  const [progress, setProgress] = useState<{ done: number; total: number | null } | null>(null);
  const controller = useRef<AbortController | null>(null);
  const hasSelection = selectedIds.length > 0;
  const streamable = canStreamToFile();

  useEffect(() => {
    if (open) setData({ scope: hasSelection ? 'selection' : 'filter', format: 'csv' });
    // the choice is made when the popup opens
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
  useEffect(() => () => controller.current?.abort(), []);

  const uiSchema = useMemo(() => {
    const ui: Record<string, unknown> = { ...form.uiSchema };
    if (!hasSelection) ui.scope = { 'ui:widget': 'hidden' };
    if (!streamable) ui.streamToFile = { 'ui:widget': 'hidden' };
    return ui;
  }, [form.uiSchema, hasSelection, streamable]);

  const start = async (d: ExportForm) => {
    if (controller.current) return;
    const format = d.format === 'json' ? 'json' : 'csv';
    const name = exportFileName(collection.name, format, new Date());
    const ac = new AbortController();
    controller.current = ac;
    let sink: ExportSink | null = null;
    try {
      sink = d.streamToFile && streamable ? await fileSink(name, format) : blobSink(name, format);
      setProgress({ done: 0, total: null });
      const count = await runExport({
        collection,
        collectionsById,
        filter,
        sort,
        ids: d.scope === 'selection' && hasSelection ? selectedIds : undefined,
        options: { format, relationNames: !!d.relationNames, fileUrls: !!d.fileUrls, baseUrl: pb.baseUrl || window.location.origin },
        sink,
        signal: ac.signal,
        onProgress: (done, total) => setProgress({ done, total }),
      });
      addSuccessToast(tCount('recordsIo.exported', count));
      onClose();
    } catch (err) {
      await sink?.abort().catch(() => undefined);
      if (isAbortError(err) || ac.signal.aborted) addInfoToast(t('recordsIo.exportCancelled'));
      else handleError(err);
    } finally {
      controller.current = null;
      setProgress(null);
    }
  };

  const cancel = () => controller.current?.abort();
  const running = progress !== null;
  const pct = progress && progress.total ? Math.min(100, Math.round((progress.done / progress.total) * 100)) : 0;

  return (
    <OverlayPanel
      open={open}
      onRequestClose={() => {
        cancel();
        onClose();
      }}
      header={t('recordsIo.exportTitle', { name: collection.name })}
      size="popup"
      className="records-export-popup"
      footer={
        running ? (
          <button type="button" className="btn btn-secondary" onClick={cancel}>
            <span>{t('recordWidget.cancel')}</span>
          </button>
        ) : (
          <>
            <button type="button" className="btn btn-transparent" onClick={onClose}>
              <span>{t('common.close')}</span>
            </button>
            <button type="submit" form={FORM_ID} className="btn btn-primary">
              <span>{t('recordsIo.export')}</span>
            </button>
          </>
        )
      }
    >
      {running ? (
        <div className="records-io-progress">
          {progress.total === null ? (
            <>
              {/* no value: an indeterminate bar until the total is known */}
              <progress aria-label={t('recordsIo.exportProgress')} />
              <p className="txt-muted" role="status">
                {t('recordsIo.counting')}
              </p>
            </>
          ) : (
            <>
              <progress max={progress.total || 1} value={progress.done} aria-label={t('recordsIo.exportProgress')} />
              <p className="txt-muted" role="status">
                {t('recordsIo.exportedOf', { done: formatCount(progress.done), total: formatCount(progress.total), pct: formatCount(pct) })}
              </p>
            </>
          )}
        </div>
      ) : (
        <>
          <p className="txt-muted records-io-note">
            {d(hasSelection, filter)}
          </p>
          <SchemaForm id={FORM_ID} schema={form.schema} uiSchema={uiSchema} formData={data} onChange={setData} onSubmit={(v) => void start(v)} />
        </>
      )}
    </OverlayPanel>
  );
}

/** What will be exported, in words. */
function d(hasSelection: boolean, filter: string): string {
  if (hasSelection) return t(filter ? 'recordsIo.noteSelectionFilter' : 'recordsIo.noteSelectionAll');
  return t(filter ? 'recordsIo.noteFilter' : 'recordsIo.noteAll');
}
