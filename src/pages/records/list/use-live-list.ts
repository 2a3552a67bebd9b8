// Live updates of the records list (beyond the original UI): changed rows update in place,
// rows deleted elsewhere are greyed out where they stand, and new records are announced above the
// table until the admin shows them, so the list being read never jumps. The admin's own creates
// and deletes are told to the ledger as they are sent and answered, so their events (before or
// after the answer) are neither announced nor counted twice. The last change of any record is
// kept for the open editor, which learns of edits made elsewhere.
import { useMemo, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import type { RecordModel } from 'pocketbase';
import { useLiveRecords, type LiveEvent, type LiveOptions } from './live';
import type { LiveLedgerAccess } from './use-live-ledger';

/** The last realtime change of a record, passed to the open editor (seq tells repeats apart). */
export type RemoteChange = LiveEvent & { seq: number };

type ListAccess = {
  setRecords: Dispatch<SetStateAction<RecordModel[]>>;
  deselect: (id: string) => void;
  /** Loads the list again from its first page. */
  reload: () => void;
};

/** What the admin's own writes tell the list (the editor, the bulk delete). */
export type OwnWrites = {
  /** A create (id null) or delete is being sent; call the answer once it settled, whatever the outcome. */
  writeStarted(action: 'create' | 'delete', id: string | null): () => void;
  ownSaved(saved: RecordModel, created: boolean): void;
  ownDeleted(id: string): void;
};

export function useLiveList(collectionId: string, enabled: boolean, options: LiveOptions, live: LiveLedgerAccess, list: ListAccess) {
  const { ledger, publish } = live;
  const { setRecords, deselect } = list;
  const [remote, setRemote] = useState<RemoteChange | null>(null);
  const remoteSeq = useRef(0);

  const own = useMemo<OwnWrites>(() => {
    return {
      writeStarted(action, id) {
        const settled = ledger.writeStarted(action, id);
        return () => {
          settled();
          publish(); // creates seen meanwhile that were not this one are announced now
        };
      },
      ownSaved(saved, created) {
        ledger.ownSaved(saved.id, created);
        publish();
      },
      ownDeleted(id) {
        ledger.ownDeleted(id);
        setRecords((l) => l.filter((r) => r.id !== id));
        deselect(id);
        publish();
      },
    };
  }, [ledger, publish, setRecords, deselect]);

  useLiveRecords(
    collectionId,
    enabled,
    options,
    (e: LiveEvent) => {
      const id = e.record?.id;
      if (!id) return;
      if (e.action !== 'create') setRemote({ ...e, seq: ++remoteSeq.current });
      const plan = ledger.event(e.action, e.record);
      if (plan === 'replace') setRecords((l) => l.map((r) => (r.id === id ? e.record : r)));
      else if (plan === 'grey') deselect(id);
      else if (plan === 'remove') {
        setRecords((l) => l.filter((r) => r.id !== id));
        deselect(id);
      }
      publish(e.action === 'create');
    },
    () => {
      ledger.subscribed();
      publish();
    },
  );

  return {
    remote,
    own,
    /** Puts the announced records on top of the list (or reloads it after a flood); answers how many were added. */
    showIncoming(): number {
      const fresh = ledger.show();
      publish();
      if (!fresh) {
        list.reload();
        return 0;
      }
      setRecords((l) => [...fresh.filter((r) => !l.some((x) => x.id === r.id)), ...l]);
      return fresh.length;
    },
  };
}
