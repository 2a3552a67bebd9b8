// The record panel of the list, driven by `recordId` in the URL: the editor (or the preview of a
// view collection's record) opens for a row of the list, or for a deep link to a record the list
// does not hold (fetched). Saves and deletes made in the editor update the list in place.
import { useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import type { RecordModel } from 'pocketbase';
import { handleError, pb } from '../../../api/client';
import { setQueryParams } from '../../../shell/navigation';
import { addErrorToast } from '../../../shell/toasts';
import type { CollectionModel } from '../../../lib/collections/types';
import { collectionsPageActions } from '../../collections/RecordsSlot';
import { defined, isAbort, statusOf } from './list-helpers';
import type { OwnWrites } from './use-live-list';
import { t } from '../../../ui/i18n';

type PanelState = { open: boolean; record: RecordModel | null; key: number };

type ListAccess = {
  records: readonly RecordModel[];
  setRecords: Dispatch<SetStateAction<RecordModel[]>>;
  /** The live list's bookkeeping of the admin's own writes (counts, announcements). */
  own: OwnWrites;
};

export function useRecordPanel(collection: CollectionModel, recordId: string, query: { expand: string; fields: string }, list: ListAccess) {
  const isView = collection.type === 'view';
  const { expand, fields } = query;
  const [panel, setPanel] = useState<PanelState>({ open: false, record: null, key: 0 });
  const [mounted, setMounted] = useState(false);
  const latest = useRef({ panel, list });
  useEffect(() => {
    latest.current = { panel, list };
  });

  const show = useCallback((record: RecordModel | null) => {
    setMounted(true);
    setPanel((p) => ({ open: true, record, key: p.key + 1 }));
  }, []);
  const openNew = useCallback(() => show(null), [show]);

  // the page header's New record button
  useEffect(() => {
    collectionsPageActions.newRecord = isView ? null : () => openNew();
    return () => {
      collectionsPageActions.newRecord = null;
    };
  }, [isView, openNew]);

  useEffect(() => {
    const cur = latest.current.panel;
    if (!recordId) {
      if (cur.open && cur.record) setPanel((p) => ({ ...p, open: false }));
      return;
    }
    if (cur.open && cur.record?.id === recordId) return;
    // The editor reloads the record itself; a row of the list is enough to open it with.
    const row = !isView ? latest.current.list.records.find((r) => r.id === recordId) : undefined;
    if (row) {
      show(row);
      return;
    }
    let cancelled = false;
    pb.collection(collection.id)
      .getOne(recordId, defined({ expand, requestKey: 'record_view' }))
      .then((record) => {
        if (!cancelled) show(record);
      })
      .catch((err) => {
        if (cancelled || isAbort(err)) return;
        const status = statusOf(err);
        if (status === 401 || status === 403) handleError(err);
        else addErrorToast(t('recordList.loadFailed', { id: recordId }));
        setQueryParams({ recordId: null });
      });
    return () => {
      cancelled = true;
    };
  }, [recordId, collection.id, expand, isView, show]);

  const openRecord = useCallback((id: string) => setQueryParams({ recordId: id }), []);
  const close = useCallback(() => {
    setPanel((p) => ({ ...p, open: false }));
    setQueryParams({ recordId: null });
  }, []);

  /** Refetches one row with the list's expand/fields so it shows like its neighbours. */
  const refreshRow = useCallback(
    async (saved: RecordModel) => {
      let row: RecordModel = saved;
      try {
        row = await pb.collection(collection.id).getOne(saved.id, { ...defined({ expand, fields }), requestKey: null });
      } catch {
        /* show the saved record as it is */
      }
      latest.current.list.setRecords((l) => {
        const idx = l.findIndex((r) => r.id === row.id);
        if (idx < 0) return [row, ...l];
        const copy = l.slice();
        copy[idx] = row;
        return copy;
      });
    },
    [collection.id, expand, fields],
  );

  const onSaved = useCallback(
    (saved: RecordModel, created: boolean) => {
      // counted once, whether its realtime event came before this answer or comes after
      latest.current.list.own.ownSaved(saved, created);
      void refreshRow(saved);
      // A new record saved while the panel stays open (Ctrl+S) now lives at its id.
      if (latest.current.panel.open) {
        setPanel((p) => ({ ...p, record: saved }));
        setQueryParams({ recordId: saved.id });
      }
    },
    [refreshRow],
  );

  const onDeleted = useCallback((id: string) => {
    latest.current.list.own.ownDeleted(id);
    setPanel((p) => ({ ...p, open: false, record: null }));
    setQueryParams({ recordId: null });
  }, []);

  return { panel, mounted, openNew, openRecord, close, onSaved, onDeleted };
}
