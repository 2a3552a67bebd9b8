// The stores every module reaches the databases through, built once per app over its write
// connections (server/app.ts; the CLI's commands build their own). Only the stores hold the raw
// handles: a route or a domain module asks a store, and a write that spans stores runs in
// `transaction` (one unit of work on data.db).
import { tryUnitOfWork, unitOfWork, type DB, type TryUnitOfWork, type UnitOfWork } from './db/database';
import { createCollectionStore, type CollectionStore } from './collections/store';
import { createMigrationHistory, type MigrationHistory } from './migrations/history';
import { createExternalAuthStore, type ExternalAuthStore } from './records/auth-external';
import { createRecordStore, type RecordStore } from './records/store';
import { createAdminStore, type AdminStore } from './services/admins';
import { createLogStore, type LogStore } from './services/log-store';
import { createRoleStore, type RoleStore } from './roles/store';
import { auditedAdminStore, auditedRecordStore } from './audit/audited-stores';
import { createAuditStore } from './audit/store';
import { createAuditTrail, type AuditTrail } from './audit/trail';

export interface Stores {
  admins: AdminStore;
  collections: CollectionStore;
  /** The collections' record tables. */
  records: RecordStore;
  externalAuths: ExternalAuthStore;
  migrations: MigrationHistory;
  /** logs.db */
  logs: LogStore;
  /** Outpost's admin roles and who holds them (_outpostRoles, _outpostAdminRoles). */
  roles: RoleStore;
  /** Runs `fn` in one transaction on data.db: every store's writes in it commit or roll back together. */
  transaction: UnitOfWork;
  /** `transaction` that gives up at once when another process holds the write lock (clusters). */
  tryTransaction: TryUnitOfWork;
  /** The audit trail (data.db): the record and admin stores write their entries through it. */
  audit: AuditTrail;
}

export function createStores(db: DB, logsDb: DB): Stores {
  const audit = createAuditTrail(createAuditStore(db));
  return {
    admins: auditedAdminStore(db, createAdminStore(db), audit),
    collections: createCollectionStore(db),
    records: auditedRecordStore(db, createRecordStore(db), audit),
    externalAuths: createExternalAuthStore(db),
    migrations: createMigrationHistory(db),
    logs: createLogStore(logsDb),
    roles: createRoleStore(db),
    transaction: unitOfWork(db),
    tryTransaction: tryUnitOfWork(db),
    audit,
  };
}
