// The _admins table: look-ups and the public JSON shape (0.22 key order: id, created, updated,
// avatar, email). tokenKey, passwordHash and lastResetSentAt never leave the server.
import type { DB, Statement } from '../db/database';
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

/** The _admins table (built once per app over the write connection: server/stores.ts). */
export interface AdminStore {
  findById(id: string): AdminRow | undefined;
  /** Exact (case-sensitive) match, as 0.22 looks admins up for sign-in and password reset. */
  findByEmail(email: string): AdminRow | undefined;
  count(): number;
  /** Whether any admin exists (the installer link); false when the table cannot be read. */
  hasAny(): boolean;
  insert(row: AdminRow): void;
  update(row: AdminRow): void;
  delete(id: string): void;
  /** A new password with a new tokenKey, which revokes every token issued before. */
  setPasswordHash(id: string, passwordHash: string, tokenKey: string, now: string): void;
}

export function createAdminStore(db: DB): AdminStore {
  // the look-up behind every admin request's token: prepared once (preparing anew cost more than
  // running it), on first use
  let byId: Statement | undefined;
  return {
    findById: (id) => (byId ??= db.prepare('SELECT * FROM _admins WHERE id = ?')).get(id) as AdminRow | undefined,
    findByEmail: (email) => db.prepare('SELECT * FROM _admins WHERE email = ?').get(email) as AdminRow | undefined,
    count: () => (db.prepare('SELECT count(*) AS n FROM _admins').get() as { n: number }).n,
    hasAny() {
      try {
        return Boolean(db.prepare('SELECT 1 FROM _admins LIMIT 1').get());
      } catch {
        return false;
      }
    },
    insert(row) {
      db.prepare(
        'INSERT INTO _admins (id, avatar, email, tokenKey, passwordHash, lastResetSentAt, created, updated) VALUES (@id, @avatar, @email, @tokenKey, @passwordHash, @lastResetSentAt, @created, @updated)',
      ).run(row);
    },
    update(row) {
      db.prepare(
        'UPDATE _admins SET avatar = @avatar, email = @email, tokenKey = @tokenKey, passwordHash = @passwordHash, lastResetSentAt = @lastResetSentAt, updated = @updated WHERE id = @id',
      ).run(row);
    },
    delete(id) {
      db.prepare('DELETE FROM _admins WHERE id = ?').run(id);
    },
    setPasswordHash(id, passwordHash, tokenKey, now) {
      db.prepare("UPDATE _admins SET passwordHash = ?, tokenKey = ?, lastResetSentAt = '', updated = ? WHERE id = ?").run(passwordHash, tokenKey, now, id);
    },
  };
}

/** The admin a file token (`?token=`) belongs to, when it is a valid admin *file* token. */
export function findAdminByFileToken(admins: AdminStore, settings: TokenSettings, token: string): AdminRow | undefined {
  const claims = token ? decodeJwtUnverified(token) : null;
  if (claims?.type !== TOKEN_TYPE_ADMIN || typeof claims.id !== 'string') return undefined;
  const admin = admins.findById(claims.id);
  return admin && verifyAccountToken(settings, 'adminFileToken', admin.tokenKey, token) ? admin : undefined;
}

/** The admin a password reset token belongs to, when the token is valid for it. */
export function findAdminByResetToken(admins: AdminStore, settings: TokenSettings, token: string): AdminRow | undefined {
  const claims = decodeJwtUnverified(token);
  if (!claims || claims.type !== TOKEN_TYPE_ADMIN || typeof claims.id !== 'string') return undefined;
  const admin = admins.findById(claims.id);
  return admin && verifyAccountToken(settings, 'adminPasswordResetToken', admin.tokenKey, token) ? admin : undefined;
}
