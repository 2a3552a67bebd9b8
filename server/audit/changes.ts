// Entries for the changes that do not go through the record and admin stores: collections (and
// their API rules), imports, settings, backups, the history option, and (the hook point for admin
// roles) any other area. Each is called inside the change's transaction, after its checks passed.
import type { AppContext } from '../context';
import type { Collection } from '../collections/model';
import { findCollection } from '../collections/store';
import type { ExternalAuthJson } from '../records/auth-external';
import { collectionDiff, collectionUpdateAction, settingsDiff, type Changes } from './diff';
import { createAuditTrail, type AuditChange } from './trail';
import { withAuditStoreOf } from './store';

type HasAudit = Pick<AppContext, 'audit'>;

/**
 * Any change outside records, kept while the trail is on: admin roles use it (server/http/roles.ts:
 * area 'role', action create/update/delete with the role id as target, or assign with the admin's
 * id). Call it inside the change's transaction.
 */
export function auditChange(ctx: HasAudit, change: AuditChange): void {
  if (ctx.audit.keepsOther()) ctx.audit.write(change);
}

/** An auth record's OAuth2 link removed: a change of the record (`externalAuths.<provider>`), kept as its other changes are. */
export function auditUnlink(ctx: AppContext, link: ExternalAuthJson): void {
  if (!ctx.audit.keepsRecord(link.collectionId)) return;
  const collectionName = findCollection(ctx, link.collectionId)?.name ?? '';
  const changes = { [`externalAuths.${link.provider}`]: { old: link.providerId, new: null } };
  ctx.audit.write({ area: 'record', action: 'update', collectionId: link.collectionId, collectionName, target: link.recordId, changes });
}

/** A collection created (previous null), updated or deleted (next null). */
export function auditCollection(ctx: HasAudit, previous: Collection | null, next: Collection | null): void {
  // a deleted collection's history option goes with it (its entries stay)
  if (previous && !next && ctx.audit.historyOn(previous.id)) ctx.audit.setHistory(previous.id, false);
  if (!ctx.audit.keepsOther()) return;
  const c = (next ?? previous)!;
  const changes = collectionDiff(previous, next);
  if (previous && next && Object.keys(changes).length === 0) return;
  const action = !previous ? 'create' : !next ? 'delete' : collectionUpdateAction(changes);
  ctx.audit.write({ area: 'collection', action, collectionId: c.id, collectionName: c.name, target: c.id, changes });
}

/** An import: one entry, the changes of every collection it created, changed or deleted. */
export function auditImport(ctx: HasAudit, before: readonly Collection[], after: readonly Collection[]): void {
  if (!ctx.audit.keepsOther()) return;
  const changes: Changes = {};
  const old = new Map(before.map((c) => [c.id, c]));
  const now = new Map(after.map((c) => [c.id, c]));
  for (const id of new Set([...old.keys(), ...now.keys()])) {
    const a = old.get(id) ?? null;
    const b = now.get(id) ?? null;
    const diff = collectionDiff(a, b);
    if (Object.keys(diff).length === 0) continue;
    const pick = (side: 'old' | 'new') => (side === 'old' ? a : b) && Object.fromEntries(Object.entries(diff).map(([k, v]) => [k, v[side]]));
    changes[(b ?? a)!.name] = { old: pick('old'), new: pick('new') };
  }
  ctx.audit.write({ area: 'collection', action: 'import', changes });
}

/** The settings document changed (secrets masked); turning the trail on is its first entry. */
export function auditSettings(ctx: HasAudit, previous: unknown, next: { audit?: { maxDays?: number } }): void {
  if (!ctx.audit.keepsOther() && !(Number(next.audit?.maxDays) > 0)) return;
  const changes = settingsDiff(previous, next);
  if (Object.keys(changes).length) ctx.audit.write({ area: 'settings', action: 'update', changes });
}

/** A backup created, uploaded, deleted or restored (written in a transaction of its own: no data.db change goes with it). */
export function auditBackup(ctx: Pick<AppContext, 'audit' | 'transaction'>, action: 'create' | 'upload' | 'delete' | 'restore', key: string): void {
  if (ctx.audit.keepsOther()) ctx.transaction(() => ctx.audit.write({ area: 'backup', action, target: key, changes: {} }));
}

/** Turns a collection's record history on or off (the option itself is a change the trail keeps). */
export function setCollectionHistory(ctx: Pick<AppContext, 'audit' | 'transaction'>, collection: Collection, on: boolean): void {
  ctx.transaction(() => {
    const was = ctx.audit.historyOn(collection.id);
    ctx.audit.setHistory(collection.id, on);
    if (was !== on && ctx.audit.keepsOther()) {
      ctx.audit.write({
        area: 'collection',
        action: 'update',
        collectionId: collection.id,
        collectionName: collection.name,
        target: collection.id,
        changes: { 'audit.history': { old: was, new: on } },
      });
    }
  });
}

/**
 * A restore: the entry goes into the backup's data.db before it replaces the current one, so the
 * restored data says who restored it (a restore that fails to swap leaves no entry).
 */
export function auditRestore(ctx: HasAudit, extractedDataDb: string, key: string): void {
  if (!ctx.audit.keepsOther()) return;
  withAuditStoreOf(extractedDataDb, (store) => createAuditTrail(store).write({ area: 'backup', action: 'restore', target: key, changes: {} }));
}
