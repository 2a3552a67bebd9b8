// The `_externalAuths` table: OAuth2 identities linked to auth records (0.22's models.ExternalAuth).
// Links are only ever created by an OAuth2 sign-in of the record itself, never by matching an
// email address (0.22.12's auto-linking is the account-takeover of GHSA-m93w-4fxv-r35v).
import type { AppContext } from '../context';
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

/** The links of one record, oldest first (0.22's FindAllExternalAuthsByRecord). */
export function listExternalAuths(ctx: AppContext, collectionId: string, recordId: string): ExternalAuthJson[] {
  const rows = ctx.db
    .prepare(`SELECT ${COLUMNS} FROM _externalAuths WHERE collectionId = ? AND recordId = ? ORDER BY created ASC, id ASC`)
    .all(collectionId, recordId) as Record<string, unknown>[];
  return rows.map(toJson);
}

export function findExternalAuth(ctx: AppContext, collectionId: string, recordId: string, provider: string): ExternalAuthJson | null {
  const row = ctx.db
    .prepare(`SELECT ${COLUMNS} FROM _externalAuths WHERE collectionId = ? AND recordId = ? AND provider = ? LIMIT 1`)
    .get(collectionId, recordId, provider) as Record<string, unknown> | undefined;
  return row ? toJson(row) : null;
}

export function deleteExternalAuth(ctx: AppContext, id: string): void {
  ctx.db.prepare('DELETE FROM _externalAuths WHERE id = ?').run(id);
}

/**
 * Drops every link of a record. Run when an account's email is confirmed or changed, so an
 * OAuth2 identity attached while the address was unproven cannot keep a way in.
 */
export function deleteExternalAuthsOf(ctx: AppContext, collectionId: string, recordId: string): number {
  return ctx.db.prepare('DELETE FROM _externalAuths WHERE collectionId = ? AND recordId = ?').run(collectionId, recordId).changes;
}

/** The link of a provider identity in a collection (0.22's FindFirstExternalAuthByExpr). */
export function findExternalAuthByProviderId(ctx: AppContext, collectionId: string, provider: string, providerId: string): ExternalAuthJson | null {
  const row = ctx.db
    .prepare(`SELECT ${COLUMNS} FROM _externalAuths WHERE collectionId = ? AND provider = ? AND providerId = ? LIMIT 1`)
    .get(collectionId, provider, providerId) as Record<string, unknown> | undefined;
  return row ? toJson(row) : null;
}

/** Links a provider identity to a record (the unique indexes refuse a second link of either side). */
export function addExternalAuth(ctx: AppContext, collectionId: string, recordId: string, provider: string, providerId: string): void {
  const now = nowDateTime();
  ctx.db
    .prepare(`INSERT INTO _externalAuths (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`)
    .run(newId(), now, now, collectionId, recordId, provider, providerId);
}
