// The _admins table: look-ups and the public JSON shape (0.22 key order: id, created, updated,
// avatar, email). tokenKey, passwordHash and lastResetSentAt never leave the server.
import type { DB } from '../db/database';
import { decodeJwtUnverified, TOKEN_TYPE_ADMIN, verifyAccountToken, type TokenSettings } from './tokens';

export interface AdminRow {
  id: string;
  avatar: number;
  email: string;
  tokenKey: string;
  passwordHash: string;
  lastResetSentAt: string;
  created: string;
  updated: string;
}

export interface AdminJson {
  id: string;
  created: string;
  updated: string;
  avatar: number;
  email: string;
}

export function adminJson(row: AdminRow): AdminJson {
  return { id: row.id, created: row.created, updated: row.updated, avatar: row.avatar, email: row.email };
}

export function findAdminById(db: DB, id: string): AdminRow | undefined {
  return db.prepare('SELECT * FROM _admins WHERE id = ?').get(id) as AdminRow | undefined;
}

/** Exact (case-sensitive) match, as 0.22 looks admins up for sign-in and password reset. */
export function findAdminByEmail(db: DB, email: string): AdminRow | undefined {
  return db.prepare('SELECT * FROM _admins WHERE email = ?').get(email) as AdminRow | undefined;
}

export function countAdmins(db: DB): number {
  return (db.prepare('SELECT count(*) AS n FROM _admins').get() as { n: number }).n;
}

/** The admin a file token (`?token=`) belongs to, when it is a valid admin *file* token. */
export function findAdminByFileToken(db: DB, settings: TokenSettings, token: string): AdminRow | undefined {
  const claims = token ? decodeJwtUnverified(token) : null;
  if (claims?.type !== TOKEN_TYPE_ADMIN || typeof claims.id !== 'string') return undefined;
  const admin = findAdminById(db, claims.id);
  return admin && verifyAccountToken(settings, 'adminFileToken', admin.tokenKey, token) ? admin : undefined;
}
