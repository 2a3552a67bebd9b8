// The records list's selection (cleared on every reload) and the delete of the selected records.
import { useCallback, useState } from 'react';
import { handleError, pb } from '../../../api/client';
import { confirm } from '../../../app/confirm-state';
import { addSuccessToast } from '../../../app/toasts';
import { RECORDS_BULK_BATCH } from '../../../lib/records/format';

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

/** Asks, then deletes the records 20 at a time; `after` runs whatever the outcome (the list reloads). */
export function confirmDeleteRecords(collectionId: string, ids: readonly string[], after: () => void): void {
  if (ids.length === 0) return;
  confirm(`Do you really want to delete the selected ${ids.length === 1 ? 'record' : 'records'}?`, async () => {
    try {
      for (let i = 0; i < ids.length; i += RECORDS_BULK_BATCH) {
        await Promise.all(ids.slice(i, i + RECORDS_BULK_BATCH).map((id) => pb.collection(collectionId).delete(id, { requestKey: null })));
      }
      addSuccessToast('Successfully deleted the selected record(s).');
    } catch (err) {
      handleError(err);
    } finally {
      after();
    }
  });
}
