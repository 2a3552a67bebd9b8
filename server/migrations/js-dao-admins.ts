// The Dao's admin and settings methods (0.22's daos/admin.go, daos/settings.go).
import { auditSettings } from '../audit/changes';
import type { AppContext } from '../context';
import { nowDateTime } from '../db/layout';
import type { AdminRow } from '../services/admins';
import { newId, newTokenKey } from '../services/passwords';
import type { Settings } from '../services/settings';
import { Admin } from './js-models';
import { fail, NO_ROWS } from './js-dao-shared';

function adminOf(row: object): Admin {
  const a = new Admin(row);
  Object.assign(a, { tokenKey: (row as Admin).tokenKey, passwordHash: (row as Admin).passwordHash, lastResetSentAt: (row as Admin).lastResetSentAt });
  a.markAsNotNew();
  return a;
}

const adminRow = (admin: Admin, email: string): AdminRow => ({
  id: admin.id,
  avatar: admin.avatar,
  email,
  tokenKey: admin.tokenKey,
  passwordHash: admin.passwordHash,
  lastResetSentAt: admin.lastResetSentAt,
  created: admin.created,
  updated: admin.updated,
});

export function adminMethods(ctx: AppContext): Record<string, unknown> {
  return {
    findSettings: () => JSON.parse(JSON.stringify(ctx.settings.get())) as Settings,
    // 0.22's Dao.SaveSettings validates nothing (its settings form does): a seed file may save an
    // app name left blank. Only a value of another JSON type than the stored one is refused: in
    // 0.22 the settings are a Go struct, which holds no such value.
    saveSettings(next: unknown) {
      const settings = JSON.parse(JSON.stringify(next)) as Settings;
      const mismatch = typeMismatch(ctx.settings.get(), settings, '');
      if (mismatch) throw new Error(`saveSettings: ${mismatch}`);
      // the trail keeps it as it keeps the API's settings changes (a hook's in an admin's request: that admin's)
      const previous = ctx.settings.get();
      ctx.settings.save(settings, () => auditSettings(ctx, previous, settings));
    },

    findAdminByEmail(email: string) {
      const row = ctx.admins.findByEmail(String(email));
      if (!row) throw new Error(NO_ROWS);
      return adminOf(row);
    },
    findAdminById(id: string) {
      const row = ctx.admins.findById(String(id));
      if (!row) throw new Error(NO_ROWS);
      return adminOf(row);
    },
    isAdminEmailUnique(email: unknown, ...excludeIds: unknown[]) {
      const row = ctx.admins.findByEmail(String(email ?? ''));
      return !row || excludeIds.map(String).includes(row.id);
    },
    totalAdmins: () => ctx.admins.count(),
    saveAdmin: (admin: unknown) => saveAdmin(ctx, admin),
    deleteAdmin(admin: unknown) {
      if (!(admin instanceof Admin)) throw new Error('deleteAdmin expects an Admin');
      if (ctx.admins.count() <= 1) throw new Error('You cannot delete the only existing admin.');
      ctx.admins.delete(admin.id);
    },
  };
}

const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** The first path where `next` holds a value of another JSON type than `current` (null fits anything). */
function typeMismatch(current: unknown, next: unknown, at: string): string | null {
  if (current === null || current === undefined || next === null || next === undefined) return null;
  if (kind(current) !== kind(next)) return `${at || 'the settings'} must be ${kind(current) === 'object' ? 'an object' : `a ${kind(current)}`}`;
  if (kind(current) !== 'object') return null;
  for (const [key, value] of Object.entries(next as Record<string, unknown>)) {
    const found = typeMismatch((current as Record<string, unknown>)[key], value, at ? `${at}.${key}` : key);
    if (found) return found;
  }
  return null;
}

function saveAdmin(ctx: AppContext, admin: unknown): void {
  if (!(admin instanceof Admin)) throw new Error('saveAdmin expects an Admin');
  const email = admin.email.trim();
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new Error(`saveAdmin: "${email}" is not a valid email address`);
  if (!admin.passwordHash) throw new Error('saveAdmin: the admin has no password (call admin.setPassword first)');
  const now = nowDateTime();
  if (!admin.tokenKey) admin.tokenKey = newTokenKey();
  try {
    if (admin.isNew()) {
      admin.id ||= newId();
      admin.created = now;
      admin.updated = now;
      ctx.admins.insert(adminRow(admin, email));
    } else {
      admin.updated = now;
      ctx.admins.update(adminRow(admin, email));
    }
  } catch (err) {
    throw fail(`saveAdmin(${JSON.stringify(email)})`, err);
  }
  admin.markAsNotNew();
}
