// The import review: a side-by-side diff per changed collection and
// 'Confirm and import'. A replace import that removes collections or fields first asks for a
// confirmation listing them ('collection.*', 'collection.field (id)').
import { useState } from 'react';
import { handleError, pb } from '../../../api/client';
import { OverlayPanel } from '../../../ui/OverlayPanel';
import { addSuccessToast } from '../../../shell/toasts';
import { migrationCapture } from '../../../shell/migration-marker';
import {
  deletionList,
  type CollectionChange,
  type ImportCollection,
} from '../../../lib/collections-import';
import { COLLECTIONS_CHANNEL } from '../../../state/collections';
import { CollectionDiff } from './CollectionDiff';
import { serverWords, t } from '../../../ui/i18n';

export type ImportReviewPopupProps = {
  open: boolean;
  existing: ImportCollection[];
  imported: ImportCollection[];
  changes: CollectionChange[];
  merge: boolean;
  onClose(): void;
  onImported(): void;
};

/** The server's explanation of a failed import (data.collections.message), else its message, in the dashboard's language. */
function importErrorMessage(err: unknown): string {
  const response = (err as { response?: { message?: unknown; data?: { collections?: { message?: unknown; code?: unknown } } } })?.response;
  const detail = response?.data?.collections;
  if (typeof detail?.message === 'string' && detail.message) return serverWords(detail.message, typeof detail.code === 'string' ? detail.code : undefined);
  if (typeof response?.message === 'string' && response.message) return serverWords(response.message);
  return err instanceof Error ? err.message : t('import.wrong');
}

function DeleteConfirmPopup({ items, onNo, onYes }: { items: string[] | null; onNo(): void; onYes(): void }) {
  return (
    <OverlayPanel
      open={!!items}
      size="popup"
      className="confirm-popup import-delete-confirm"
      ariaLabel={t('import.confirmDeletions')}
      showCloseButton={false}
      onRequestClose={onNo}
      footer={
        <>
          <button type="button" className="btn btn-transparent" autoFocus onClick={onNo}>
            {t('confirm.no')}
          </button>
          <button type="button" className="btn btn-danger" onClick={onYes}>
            {t('confirm.yes')}
          </button>
        </>
      }
    >
      <p className="confirm-text">{t('import.confirmDeleteText')}</p>
      <ul className="delete-list" aria-label={t('import.toBeDeleted')}>
        {items?.map((item) => (
          <li key={item} className="txt-mono">
            {item}
          </li>
        ))}
      </ul>
    </OverlayPanel>
  );
}

/** Tells other tabs (their collections sidebar) to reload. */
function broadcastCollectionsReload(): void {
  try {
    if (typeof BroadcastChannel === 'undefined') return;
    const channel = new BroadcastChannel(COLLECTIONS_CHANNEL);
    channel.postMessage('reload');
    channel.close();
  } catch {
    /* nobody to tell */
  }
}

export default function ImportReviewPopup({ open, existing, imported, changes, merge, onClose, onImported }: ImportReviewPopupProps) {
  const [importing, setImporting] = useState(false);
  const [error, setError] = useState('');
  const [pendingDeletes, setPendingDeletes] = useState<string[] | null>(null);

  const submit = async () => {
    if (importing) return;
    setPendingDeletes(null);
    setImporting(true);
    setError('');
    try {
      const marker = migrationCapture();
      await pb.collections.import(imported as unknown as Parameters<typeof pb.collections.import>[0], !merge, {
        requestKey: 'import_collections',
        fetch: marker.fetch,
      });
      setImporting(false);
      addSuccessToast(t('import.success'));
      marker.show();
      broadcastCollectionsReload();
      onImported();
    } catch (err) {
      setImporting(false);
      if ((err as { isAbort?: boolean })?.isAbort) return;
      setError(importErrorMessage(err));
      handleError(err);
    }
  };

  const confirmAndImport = () => {
    const deletes = deletionList(existing, imported, merge);
    if (deletes.length > 0) setPendingDeletes(deletes);
    else void submit();
  };

  return (
    <>
      <OverlayPanel
        open={open}
        size="popup"
        className="import-review-popup"
        header={t('import.diffTitle')}
        overlayClose={false}
        escClose={!importing}
        beforeHide={() => !importing}
        onRequestClose={onClose}
        onShow={() => setError('')}
        footer={
          <>
            <button type="button" className="btn btn-transparent" onClick={onClose} disabled={importing}>
              {t('common.close')}
            </button>
            <button
              type="button"
              className={`btn btn-primary${importing ? ' btn-loading' : ''}`}
              onClick={confirmAndImport}
              disabled={importing}
              aria-busy={importing || undefined}
            >
              <span>{t('import.confirm')}</span>
            </button>
          </>
        }
      >
        <p className="txt-hint txt-sm review-mode">
          {t(merge ? 'import.reviewMerge' : 'import.reviewReplace')}
        </p>
        {error && (
          <div className="alert alert-danger import-error" role="alert">
            {error}
          </div>
        )}
        {changes.map((c) => (
          <CollectionDiff key={c.kind + c.id} change={c} />
        ))}
      </OverlayPanel>
      <DeleteConfirmPopup items={pendingDeletes} onNo={() => setPendingDeletes(null)} onYes={() => void submit()} />
    </>
  );
}
