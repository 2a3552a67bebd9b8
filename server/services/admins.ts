// The _admins table: look-ups and the public JSON shape (0.22 key order: id, created, updated,
// avatar, email). tokenKey, passwordHash and lastResetSentAt never leave the server.
import { cachedStatement, type DB } from '../db/database';
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
  return cachedStatement(db, 'SELECT * FROM _admins WHERE id = ?').get(id) as AdminRow | undefined;
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

export function insertAdmin(db: DB, row: AdminRow): void {
  db.prepare(
    'INSERT INTO _admins (id, avatar, email, tokenKey, passwordHash, lastResetSentAt, created, updated) VALUES (@id, @avatar, @email, @tokenKey, @passwordHash, @lastResetSentAt, @created, @updated)',
  ).run(row);
}

export function updateAdmin(db: DB, row: AdminRow): void {
  db.prepare(
    'UPDATE _admins SET avatar = @avatar, email = @email, tokenKey = @tokenKey, passwordHash = @passwordHash, lastResetSentAt = @lastResetSentAt, updated = @updated WHERE id = @id',
  ).run(row);
}

export function deleteAdmin(db: DB, id: string): void {
  db.prepare('DELETE FROM _admins WHERE id = ?').run(id);
}

/** A new password with a new tokenKey, which revokes every token issued before. */
export function setAdminPasswordHash(db: DB, id: string, passwordHash: string, tokenKey: string, now: string): void {
  db.prepare("UPDATE _admins SET passwordHash = ?, tokenKey = ?, lastResetSentAt = '', updated = ? WHERE id = ?").run(passwordHash, tokenKey, now, id);
}

export function markAdminResetSent(db: DB, id: string, now: string): void {
  db.prepare('UPDATE _admins SET lastResetSentAt = ?, updated = ? WHERE id = ?').run(now, now, id);
}

/** The admin a password reset token belongs to, when the token is valid for it. */
export function findAdminByResetToken(db: DB, settings: TokenSettings, token: string): AdminRow | undefined {
  const claims = decodeJwtUnverified(token);
  if (!claims || claims.type !== TOKEN_TYPE_ADMIN || typeof claims.id !== 'string') return undefined;
  const admin = findAdminById(db, claims.id);
  return admin && verifyAccountToken(settings, 'adminPasswordResetToken', admin.tokenKey, token) ? admin : undefined;
}
