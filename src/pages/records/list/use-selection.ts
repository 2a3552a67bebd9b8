// The records list's selection (cleared on every reload) and the delete of the selected records.
import { useCallback, useState } from 'react';
import { handleError, pb } from '../../../api/client';
import { confirm } from '../../../shell/confirm-state';
import { addSuccessToast } from '../../../shell/toasts';
import { RECORDS_BULK_BATCH } from '../../../lib/records/format';
import type { OwnWrites } from './use-live-list';
import { t } from '../../../ui/i18n';

export function useSelection(generation: number) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [seen, setSeen] = useState(generation);
  if (seen !== generation) {
    setSeen(generation);
    setSelected(new Set());
  }
  const toggle = useCallback((id: string) => {
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  const deselect = useCallback((id: string) => {
    setSelected((s) => {
      if (!s.has(id)) return s;
      const next = new Set(s);
      next.delete(id);
      return next;
    });
  }, []);
  const selectOnly = useCallback((ids: Iterable<string>) => setSelected(new Set(ids)), []);
  return { selected, toggle, deselect, selectOnly };
}

/**
 * Asks, then deletes the records 20 at a time, each told to the live list as the admin's own (its
 * event then counts once, whenever it comes); `after` runs whatever the outcome (the list reloads).
 */
export function confirmDeleteRecords(collectionId: string, ids: readonly string[], after: () => void, own: OwnWrites): void {
  if (ids.length === 0) return;
  const remove = async (id: string) => {
    const settled = own.writeStarted('delete', id);
    try {
      await pb.collection(collectionId).delete(id, { requestKey: null });
      own.ownDeleted(id);
    } finally {
      settled();
    }
  };
  confirm(t('recordList.deleteConfirm', { count: ids.length }), async () => {
    try {
      for (let i = 0; i < ids.length; i += RECORDS_BULK_BATCH) {
        await Promise.all(ids.slice(i, i + RECORDS_BULK_BATCH).map(remove));
      }
      addSuccessToast(t('recordList.deleted', { count: ids.length }));
    } catch (err) {
      handleError(err);
    } finally {
      after();
    }
  });
}
