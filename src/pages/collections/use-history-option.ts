// The collection editor's "keep the history of every change to its records" (issue 36; the form
// is schemas/audit/collection-history, the option lives in Outpost's own table, not in the
// collection's options, so it is read and saved through /api/outpost/audit/options/:collection).
// Views have no record changes; a new collection gets its option once it was created.
import { useEffect, useState } from 'react';
import { handleError } from '../../api/client';
import { collectionHistory, setRecordHistory } from '../audit/audit-api';

export interface HistoryOption {
  /** Shown in the editor (false for views, and for admins whose role does not see the schema). */
  shown: boolean;
  /** The option as the form shows it, and as stored (null until read). */
  on: boolean;
  stored: boolean | null;
  /** The trail is on (retention above 0 days): without it no history is kept. */
  trailOn: boolean;
  set(on: boolean): void;
  /** Saves the option for `collectionId` if it changed; true when it did. */
  save(collectionId: string): Promise<boolean>;
}

export function useHistoryOption(collectionId: string | null, isView: boolean, mayView: boolean): HistoryOption {
  const shown = !isView && mayView;
  const [stored, setStored] = useState<boolean | null>(collectionId ? null : false);
  const [on, setOn] = useState(false);
  const [trailOn, setTrailOn] = useState(true);
  useEffect(() => {
    if (!collectionId || !shown) return;
    let alive = true;
    collectionHistory(collectionId).then(
      (o) => {
        if (!alive) return;
        setStored(o.history);
        setOn(o.history);
        setTrailOn(o.enabled);
      },
      (err) => alive && handleError(err),
    );
    return () => {
      alive = false;
    };
  }, [collectionId, shown]);

  const save = async (id: string): Promise<boolean> => {
    if (!shown || stored === null || on === stored) return false;
    const r = await setRecordHistory(id, on);
    setStored(r.history);
    return true;
  };
  return { shown, on, stored, trailOn, set: setOn, save };
}
