// The records list's "Edit selected" action: a button in the bulk bar and the lazily loaded panel.
import { lazy, Suspense, useState } from 'react';
import type { CollectionModel } from '../../../lib/collections/types';
import { t } from '../../../ui/i18n';

const BulkEditPanel = lazy(() => import('./BulkEditPanel'));

/** `onChanged` runs when the panel closes after a run changed records (the list then reloads). */
export function BulkEditButton({ collection, ids, onChanged }: { collection: CollectionModel; ids: readonly string[]; onChanged: () => void }) {
  const [open, setOpen] = useState(false);
  const [changed, setChanged] = useState(false);
  const close = () => {
    setOpen(false);
    if (changed) onChanged();
    setChanged(false);
  };
  if (collection.type === 'view') return null;
  return (
    <>
      <button type="button" className="btn btn-secondary btn-sm" onClick={() => setOpen(true)}>
        {t('bulkEdit.button')}
      </button>
      {open && (
        <Suspense fallback={null}>
          <BulkEditPanel collection={collection} ids={ids} onClose={close} onApplied={(r) => r.updated.length > 0 && setChanged(true)} />
        </Suspense>
      )}
    </>
  );
}
