// The Dao's admin and settings methods (0.22's daos/admin.go, daos/settings.go).
import type { AppContext } from '../context';
import { nowDateTime } from '../db/layout';
import type { AdminRow } from '../services/admins';
import { newId, newTokenKey } from '../services/passwords';
import { validateSettings } from '../services/settings-validate';
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
    saveSettings(next: unknown) {
      const settings = JSON.parse(JSON.stringify(next)) as Settings;
      const errors = validateSettings(settings);
      if (Object.keys(errors).length) throw new Error(`saveSettings: ${JSON.stringify(errors)}`);
      ctx.settings.save(settings);
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
