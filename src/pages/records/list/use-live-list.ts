// Live updates of the records list (beyond the original UI): changed rows update in place,
// rows deleted elsewhere are greyed out where they stand, and new records are announced above the
// table until the admin shows them, so the list being read never jumps. The last change of any
// record is kept for the open editor, which learns of edits made elsewhere.
import { useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import type { RecordModel } from 'pocketbase';
import { useLiveRecords, type LiveEvent, type LiveOptions } from './live';

/** The last realtime change of a record, passed to the open editor (seq tells repeats apart). */
export type RemoteChange = LiveEvent & { seq: number };

type ListAccess = {
  records: readonly RecordModel[];
  setRecords: Dispatch<SetStateAction<RecordModel[]>>;
  setTotal: Dispatch<SetStateAction<number | null>>;
  deselect: (id: string) => void;
};

const plusOne = (t: number | null) => (t === null ? t : t + 1);
export const minusOne = (t: number | null) => (t === null ? t : Math.max(0, t - 1));

export function useLiveList(collectionId: string, enabled: boolean, options: LiveOptions, generation: number, list: ListAccess) {
  const [incoming, setIncoming] = useState<RecordModel[]>([]);
  const [deletedIds, setDeletedIds] = useState<ReadonlySet<string>>(() => new Set());
  const [remote, setRemote] = useState<RemoteChange | null>(null);
  const [seen, setSeen] = useState(generation);
  if (seen !== generation) {
    setSeen(generation);
    setIncoming([]);
    setDeletedIds(new Set());
  }
  // events and saves read the latest state, not the state of the render that subscribed
  const latest = useRef({ list, incoming, deletedIds });
  useEffect(() => {
    latest.current = { list, incoming, deletedIds };
  });
  const remoteSeq = useRef(0);

  useLiveRecords(collectionId, enabled, options, (e: LiveEvent) => {
    const id = e.record?.id;
    if (!id) return;
    const { list: cur, incoming: announcedList, deletedIds: deleted } = latest.current;
    const inList = cur.records.some((r) => r.id === id);
    const announced = announcedList.some((r) => r.id === id);
    if (e.action === 'create') {
      if (inList || announced) return; // our own save, already shown
      setIncoming((l) => [e.record, ...l]);
      cur.setTotal(plusOne);
      return;
    }
    setRemote({ ...e, seq: ++remoteSeq.current });
    if (e.action === 'update') {
      const swap = (l: RecordModel[]) => l.map((r) => (r.id === id ? e.record : r));
      if (inList) cur.setRecords(swap);
      if (announced) setIncoming(swap);
      return;
    }
    if (announced) {
      setIncoming((l) => l.filter((r) => r.id !== id));
      cur.setTotal(minusOne);
    } else if (inList && !deleted.has(id)) {
      setDeletedIds((s) => new Set(s).add(id));
      cur.deselect(id);
      cur.setTotal(minusOne);
    }
  });

  return {
    incoming,
    deletedIds,
    remote,
    /** Puts the announced records on top of the list; answers how many were added. */
    showIncoming(): number {
      const fresh = latest.current.incoming;
      setIncoming([]);
      list.setRecords((l) => [...fresh.filter((r) => !l.some((x) => x.id === r.id)), ...l]);
      return fresh.length;
    },
    /** Our own save of `id`: drops its announcement; answers whether it was announced (and counted). */
    takeAnnounced(id: string): boolean {
      const announced = latest.current.incoming.some((r) => r.id === id);
      if (announced) setIncoming((l) => l.filter((r) => r.id !== id));
      return announced;
    },
    /** Our own delete of `id`: forgets its greyed-out row; answers whether its event came first (and counted it). */
    forgetDeleted(id: string): boolean {
      const counted = latest.current.deletedIds.has(id);
      if (counted) {
        setDeletedIds((s) => {
          const next = new Set(s);
          next.delete(id);
          return next;
        });
      }
      return counted;
    },
  };
}
