// The trail: writes an entry inside the caller's transaction (so the entry and the change commit
// or roll back together) when the change is one it keeps: with the trail on (settings `audit`
// maxDays > 0), every change an admin makes, and every change to admins, settings, collections
// and backups; in a collection whose history is on, every change to its records, by anyone
// (guests, auth records, hooks and migrations too). Off, it keeps nothing.
import { nowDateTime } from '../db/layout';
import { currentAuditActor } from './actor';
import type { Changes } from './diff';
import type { AuditEntry, AuditStore } from './store';

export type AuditChange = Pick<AuditEntry, 'area' | 'action'> & Partial<Pick<AuditEntry, 'collectionId' | 'collectionName' | 'target'>> & { changes: Changes };

export interface AuditTrail {
  readonly store: AuditStore;
  /** Whether the trail is on (retention > 0 days). */
  enabled: boolean;
  /** Whether a change to a record of `collectionId` made now is kept. */
  keepsRecord(collectionId: string): boolean;
  /** Whether a change outside records (collections, settings, admins, roles, backups) made now is kept. */
  keepsOther(): boolean;
  /** Writes the entry now (call it inside the change's transaction, after the checks kept it). */
  write(change: AuditChange): void;
  /** Collections whose records keep their history (cached; setHistory refreshes it). */
  historyOn(collectionId: string): boolean;
  setHistory(collectionId: string, on: boolean): void;
  /** Called after each write (the retention's first clean-up after a start hooks in here). */
  afterWrite?: () => void;
}

export function createAuditTrail(store: AuditStore): AuditTrail {
  let history = store.historyCollections();
  const trail: AuditTrail = {
    store,
    enabled: false,
    keepsRecord(collectionId) {
      if (!trail.enabled) return false;
      return history.has(collectionId) || currentAuditActor()?.kind === 'admin';
    },
    keepsOther: () => trail.enabled,
    write(change) {
      const actor = currentAuditActor();
      store.insert({
        created: nowDateTime(),
        area: change.area,
        action: change.action,
        collectionId: change.collectionId ?? '',
        collectionName: change.collectionName ?? '',
        target: change.target ?? '',
        actorKind: actor?.kind ?? 'system',
        actorId: actor?.id ?? '',
        actorEmail: actor?.email ?? '',
        actorCollection: actor?.collectionId ?? '',
        ip: actor?.ip ?? '',
        requestId: actor?.requestId ?? '',
        changes: JSON.stringify(change.changes),
      });
      trail.afterWrite?.();
    },
    historyOn: (collectionId) => history.has(collectionId),
    setHistory(collectionId, on) {
      store.setHistory(collectionId, on);
      history = store.historyCollections();
    },
  };
  return trail;
}
