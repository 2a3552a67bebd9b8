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
  /** Loads the list again from its first page. */
  reload: () => void;
};

export const minusOne = (t: number | null) => (t === null ? t : Math.max(0, t - 1));

/** Records announced one by one; past this many (a bulk import) only their ids are kept and Show reloads the list. */
const MAX_ANNOUNCED = 200;
/** Events arrive one per task: their effect on the notice and the total is drawn at most this often. */
const PUBLISH_MS = 100;

/** What was created elsewhere since the list was loaded, in arrival order; O(1) per event. */
class Announced {
  records = new Map<string, RecordModel>();
  overflow = new Set<string>();
  get size() {
    return this.records.size + this.overflow.size;
  }
  has(id: string) {
    return this.records.has(id) || this.overflow.has(id);
  }
  add(record: RecordModel) {
    if (this.overflow.size === 0 && this.records.size < MAX_ANNOUNCED) this.records.set(record.id, record);
    else this.overflow.add(record.id);
  }
  update(record: RecordModel) {
    if (this.records.has(record.id)) this.records.set(record.id, record);
  }
  remove(id: string) {
    return this.records.delete(id) || this.overflow.delete(id);
  }
}

export function useLiveList(collectionId: string, enabled: boolean, options: LiveOptions, generation: number, list: ListAccess) {
  const announced = useRef(new Announced());
  const [incomingCount, setIncomingCount] = useState(0);
  const [deletedIds, setDeletedIds] = useState<ReadonlySet<string>>(() => new Set());
  const [remote, setRemote] = useState<RemoteChange | null>(null);
  const [seen, setSeen] = useState(generation);
  if (seen !== generation) {
    setSeen(generation);
    announced.current = new Announced();
    setIncomingCount(0);
    setDeletedIds(new Set());
  }
  // events and saves read the latest state, not the state of the render that subscribed
  const latest = useRef({ list, deletedIds });
  useEffect(() => {
    latest.current = { list, deletedIds };
  });
  const remoteSeq = useRef(0);

  // the announced count and the total change together, drawn once per PUBLISH_MS
  const pending = useRef({ timer: 0, totalDelta: 0 });
  const publish = (totalDelta: number) => {
    const p = pending.current;
    p.totalDelta += totalDelta;
    if (p.timer) return;
    p.timer = window.setTimeout(() => {
      const delta = p.totalDelta;
      p.timer = 0;
      p.totalDelta = 0;
      setIncomingCount(announced.current.size);
      if (delta !== 0) latest.current.list.setTotal((t) => (t === null ? t : Math.max(0, t + delta)));
    }, PUBLISH_MS);
  };
  useEffect(() => () => window.clearTimeout(pending.current.timer), []);

  useLiveRecords(collectionId, enabled, options, (e: LiveEvent) => {
    const id = e.record?.id;
    if (!id) return;
    const { list: cur, deletedIds: deleted } = latest.current;
    const ann = announced.current;
    const inList = cur.records.some((r) => r.id === id);
    if (e.action === 'create') {
      if (inList || ann.has(id)) return; // our own save, already shown
      ann.add(e.record);
      publish(1);
      return;
    }
    setRemote({ ...e, seq: ++remoteSeq.current });
    if (e.action === 'update') {
      if (inList) cur.setRecords((l) => l.map((r) => (r.id === id ? e.record : r)));
      ann.update(e.record);
      return;
    }
    if (ann.remove(id)) {
      publish(-1);
    } else if (inList && !deleted.has(id)) {
      setDeletedIds((s) => new Set(s).add(id));
      cur.deselect(id);
      cur.setTotal(minusOne);
    }
  });

  return {
    incomingCount,
    deletedIds,
    remote,
    /** Puts the announced records on top of the list (or reloads it after a flood); answers how many were added. */
    showIncoming(): number {
      const ann = announced.current;
      announced.current = new Announced();
      setIncomingCount(0);
      if (ann.overflow.size > 0) {
        list.reload();
        return 0;
      }
      const fresh = [...ann.records.values()].reverse();
      list.setRecords((l) => [...fresh.filter((r) => !l.some((x) => x.id === r.id)), ...l]);
      return fresh.length;
    },
    /** Our own save of `id`: drops its announcement; answers whether it was announced (and counted). */
    takeAnnounced(id: string): boolean {
      const had = announced.current.remove(id);
      if (had) setIncomingCount(announced.current.size);
      return had;
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
