// The record and admin stores as the app uses them: every write that goes through them (the API,
// imports, cascades, hooks' Dao, migrations) leaves its entry when the trail keeps it, in the same
// transaction (a nested transaction is a savepoint, so a write made outside one is still atomic
// with its entry). The old values are read on the write connection just before the write.
import type { DB, Statement } from '../db/database';
import type { Collection } from '../collections/model';
import { q } from '../collections/ddl';
import type { RecordStore } from '../records/store';
import { recordFromRow } from '../records/model';
import type { AdminStore } from '../services/admins';
import { rowDiff } from './diff';
import type { AuditTrail } from './trail';

export function auditedRecordStore(db: DB, inner: RecordStore, trail: AuditTrail): RecordStore {
  const atomic = <T>(fn: () => T): T => db.transaction(fn)();
  // the old row, by a statement prepared once per collection version (a schema change brings new collection objects)
  const byId = new WeakMap<Collection, Statement>();
  const oldRow = (c: Collection, id: string): Record<string, unknown> | null => {
    let st = byId.get(c);
    if (!st) byId.set(c, (st = db.prepare(`SELECT * FROM ${q(c.name)} WHERE ${q('id')} = ? LIMIT 1`)));
    return (st.get(id) as Record<string, unknown> | undefined) ?? null;
  };
  return {
    ...inner,
    insert(record) {
      const c = record.collection;
      if (!trail.keepsRecord(c.id)) return inner.insert(record);
      atomic(() => {
        inner.insert(record);
        trail.write({ area: 'record', action: 'create', collectionId: c.id, collectionName: c.name, target: String(record.data.id), changes: rowDiff(null, record.data) });
      });
    },
    update(record, previousId) {
      const c = record.collection;
      if (!trail.keepsRecord(c.id)) return inner.update(record, previousId);
      atomic(() => {
        const row = oldRow(c, previousId ?? String(record.data.id));
        inner.update(record, previousId);
        const old = row ? recordFromRow(c, row).data : null;
        trail.write({ area: 'record', action: 'update', collectionId: c.id, collectionName: c.name, target: String(record.data.id), changes: rowDiff(old ?? {}, record.data) });
      });
    },
    delete(collection, id) {
      if (!trail.keepsRecord(collection.id)) return inner.delete(collection, id);
      atomic(() => {
        const row = oldRow(collection, id);
        inner.delete(collection, id);
        const old = row ? recordFromRow(collection, row).data : { id };
        trail.write({ area: 'record', action: 'delete', collectionId: collection.id, collectionName: collection.name, target: id, changes: rowDiff(old, null) });
      });
    },
    updateColumns(collection, id, changes) {
      if (!trail.keepsRecord(collection.id)) return inner.updateColumns(collection, id, changes);
      atomic(() => {
        const row = oldRow(collection, id) ?? {};
        inner.updateColumns(collection, id, changes);
        const old: Record<string, unknown> = {};
        const next: Record<string, unknown> = {};
        for (const [column, value] of changes) {
          old[column] = row[column] ?? null;
          next[column] = value;
        }
        trail.write({ area: 'record', action: 'update', collectionId: collection.id, collectionName: collection.name, target: id, changes: rowDiff(old, next) });
      });
    },
  };
}

export function auditedAdminStore(db: DB, inner: AdminStore, trail: AuditTrail): AdminStore {
  const atomic = <T>(fn: () => T): T => db.transaction(fn)();
  const entry = (action: string, id: string, old: object | null, next: object | null) =>
    trail.write({ area: 'admin', action, target: id, changes: rowDiff(old as Record<string, unknown> | null, next as Record<string, unknown> | null) });
  return {
    ...inner,
    insert(row) {
      if (!trail.keepsOther()) return inner.insert(row);
      atomic(() => {
        inner.insert(row);
        entry('create', row.id, null, row);
      });
    },
    update(row) {
      if (!trail.keepsOther()) return inner.update(row);
      atomic(() => {
        const old = inner.findById(row.id) ?? {};
        inner.update(row);
        entry('update', row.id, old, row);
      });
    },
    delete(id) {
      if (!trail.keepsOther()) return inner.delete(id);
      atomic(() => {
        const old = inner.findById(id) ?? { id };
        inner.delete(id);
        entry('delete', id, old, null);
      });
    },
    setPasswordHash(id, passwordHash, tokenKey, now) {
      if (!trail.keepsOther()) return inner.setPasswordHash(id, passwordHash, tokenKey, now);
      atomic(() => {
        const old = inner.findById(id);
        inner.setPasswordHash(id, passwordHash, tokenKey, now);
        entry('update', id, { passwordHash: old?.passwordHash, tokenKey: old?.tokenKey }, { passwordHash, tokenKey });
      });
    },
  };
}
