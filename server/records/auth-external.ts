// The `_externalAuths` table: OAuth2 identities linked to auth records (0.22's models.ExternalAuth).
// Links are only ever created by an OAuth2 sign-in of the record itself, never by matching an
// email address (0.22.12's auto-linking is the account-takeover of GHSA-m93w-4fxv-r35v).
import type { DB } from '../db/database';
import { nowDateTime } from '../db/layout';
import { newId } from '../services/passwords';

export interface ExternalAuthJson {
  id: string;
  created: string;
  updated: string;
  collectionId: string;
  recordId: string;
  provider: string;
  providerId: string;
}

const COLUMNS = 'id, created, updated, collectionId, recordId, provider, providerId';

const toJson = (row: Record<string, unknown>): ExternalAuthJson => ({
  id: String(row.id ?? ''),
  created: String(row.created ?? ''),
  updated: String(row.updated ?? ''),
  collectionId: String(row.collectionId ?? ''),
  recordId: String(row.recordId ?? ''),
  provider: String(row.provider ?? ''),
  providerId: String(row.providerId ?? ''),
});

/** The `_externalAuths` table (built once per app over the write connection: server/stores.ts). */
export interface ExternalAuthStore {
  /** The links of one record, oldest first (0.22's FindAllExternalAuthsByRecord). */
  list(collectionId: string, recordId: string): ExternalAuthJson[];
  find(collectionId: string, recordId: string, provider: string): ExternalAuthJson | null;
  delete(id: string): void;
  /**
   * Drops every link of a record. Run when an account's email is confirmed or changed, so an
   * OAuth2 identity attached while the address was unproven cannot keep a way in.
   */
  deleteOf(collectionId: string, recordId: string): number;
  /** The link of a provider identity in a collection (0.22's FindFirstExternalAuthByExpr). */
  findByProviderId(collectionId: string, provider: string, providerId: string): ExternalAuthJson | null;
  /** Links a provider identity to a record (the unique indexes refuse a second link of either side); `id` when already chosen. */
  add(collectionId: string, recordId: string, provider: string, providerId: string, id?: string): void;
}

export function createExternalAuthStore(db: DB): ExternalAuthStore {
  return {
    list(collectionId, recordId) {
      const rows = db
        .prepare(`SELECT ${COLUMNS} FROM _externalAuths WHERE collectionId = ? AND recordId = ? ORDER BY created ASC, id ASC`)
        .all(collectionId, recordId) as Record<string, unknown>[];
      return rows.map(toJson);
    },
    find(collectionId, recordId, provider) {
      const row = db
        .prepare(`SELECT ${COLUMNS} FROM _externalAuths WHERE collectionId = ? AND recordId = ? AND provider = ? LIMIT 1`)
        .get(collectionId, recordId, provider) as Record<string, unknown> | undefined;
      return row ? toJson(row) : null;
    },
    delete(id) {
      db.prepare('DELETE FROM _externalAuths WHERE id = ?').run(id);
    },
    deleteOf: (collectionId, recordId) =>
      db.prepare('DELETE FROM _externalAuths WHERE collectionId = ? AND recordId = ?').run(collectionId, recordId).changes,
    findByProviderId(collectionId, provider, providerId) {
      const row = db
        .prepare(`SELECT ${COLUMNS} FROM _externalAuths WHERE collectionId = ? AND provider = ? AND providerId = ? LIMIT 1`)
        .get(collectionId, provider, providerId) as Record<string, unknown> | undefined;
      return row ? toJson(row) : null;
    },
    add(collectionId, recordId, provider, providerId, id = newId()) {
      const now = nowDateTime();
      db.prepare(`INSERT INTO _externalAuths (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`).run(id, now, now, collectionId, recordId, provider, providerId);
    },
  };
}
