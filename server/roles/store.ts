// Roles and the admin → role assignment, in tables of Outpost's own (_outpostRoles,
// _outpostAdminRoles) beside 0.22's: _admins is never altered, so PocketBase 0.22 opens the same
// pb_data and sees every admin as the full admin it knows. The tables are made by the first write
// (opening a 0.22 pb_data changes nothing in it); until then every admin is a full admin. Read on
// every admin request (one indexed look-up), never cached: a role's change counts from the next
// request, in every cluster member (one that has not seen the tables looks again each time).
import { transaction, type DB, type Statement } from '../db/database';
import { accessOf, roleDocOf, type AdminAccess, type Role, type RoleDoc } from '../../src/lib/roles';

interface RoleRow {
  id: string;
  name: string;
  permissions: string;
  created: string;
  updated: string;
}

export interface RoleStore {
  list(): Role[];
  find(id: string): Role | null;
  findByName(name: string): Role | null;
  insert(role: Role): void;
  update(role: Role): void;
  delete(id: string): void;
  /** The role an admin holds (null: a full admin). */
  roleOf(adminId: string): Role | null;
  /** What an admin may do now. */
  accessOf(adminId: string): AdminAccess;
  /** adminId → roleId of every scoped admin. */
  assignments(): Record<string, string>;
  /** Gives `adminId` the role (null: makes it a full admin again). */
  assign(adminId: string, roleId: string | null): void;
  /** How many admins hold the role. */
  holders(roleId: string): number;
  /** How many admins hold no role (the full admins). */
  fullAdmins(): number;
}

function parse(row: RoleRow): Role {
  let json: unknown = null;
  try {
    json = JSON.parse(row.permissions);
  } catch {
    // a damaged row grants nothing
  }
  return { id: row.id, created: row.created, updated: row.updated, ...roleDocOf(row.name, json) };
}

const permissionsOf = (doc: RoleDoc) => JSON.stringify({ collections: doc.collections, areas: doc.areas });

const TABLES = [
  "CREATE TABLE IF NOT EXISTS `_outpostRoles` (`id` TEXT PRIMARY KEY NOT NULL, `name` TEXT UNIQUE NOT NULL, `permissions` JSON DEFAULT '{}' NOT NULL, " +
    "`created` TEXT DEFAULT '' NOT NULL, `updated` TEXT DEFAULT '' NOT NULL)",
  // no foreign key to _admins: 0.22 deletes admins without knowing this table; a row of a
  // deleted admin is ignored (and removed when Outpost deletes an admin)
  'CREATE TABLE IF NOT EXISTS `_outpostAdminRoles` (`adminId` TEXT PRIMARY KEY NOT NULL, `roleId` TEXT NOT NULL)',
  'CREATE INDEX IF NOT EXISTS `_outpostAdminRoles_role` ON `_outpostAdminRoles` (`roleId`)',
];

export function createRoleStore(db: DB): RoleStore {
  let tables = false;
  const hasTables = (): boolean => (tables ||= !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = '_outpostAdminRoles_role'").get());
  const ensureTables = (): void => {
    if (hasTables()) return;
    transaction(db, () => {
      for (const sql of TABLES) db.exec(sql);
    });
    tables = true;
  };
  let roleOfStmt: Statement | undefined;
  const roleOf = (adminId: string): Role | null => {
    if (!hasTables()) return null;
    roleOfStmt ??= db.prepare('SELECT r.* FROM _outpostAdminRoles a JOIN _outpostRoles r ON r.id = a.roleId WHERE a.adminId = ?');
    const row = roleOfStmt.get(adminId) as RoleRow | undefined;
    return row ? parse(row) : null;
  };
  return {
    list: () => (!hasTables() ? [] : (db.prepare('SELECT * FROM _outpostRoles ORDER BY name COLLATE NOCASE').all() as RoleRow[]).map(parse)),
    find(id) {
      if (!hasTables()) return null;
      const row = db.prepare('SELECT * FROM _outpostRoles WHERE id = ?').get(id) as RoleRow | undefined;
      return row ? parse(row) : null;
    },
    findByName(name) {
      if (!hasTables()) return null;
      const row = db.prepare('SELECT * FROM _outpostRoles WHERE name = ? COLLATE NOCASE').get(name) as RoleRow | undefined;
      return row ? parse(row) : null;
    },
    insert(role) {
      ensureTables();
      db.prepare('INSERT INTO _outpostRoles (id, name, permissions, created, updated) VALUES (?, ?, ?, ?, ?)').run(role.id, role.name, permissionsOf(role), role.created, role.updated);
    },
    update(role) {
      if (!hasTables()) return;
      db.prepare('UPDATE _outpostRoles SET name = ?, permissions = ?, updated = ? WHERE id = ?').run(role.name, permissionsOf(role), role.updated, role.id);
    },
    delete(id) {
      if (!hasTables()) return;
      db.prepare('DELETE FROM _outpostRoles WHERE id = ?').run(id);
    },
    roleOf,
    accessOf: (adminId) => accessOf(roleOf(adminId)),
    assignments() {
      if (!hasTables()) return {};
      const rows = db.prepare('SELECT a.adminId, a.roleId FROM _outpostAdminRoles a JOIN _outpostRoles r ON r.id = a.roleId').all() as { adminId: string; roleId: string }[];
      return Object.fromEntries(rows.map((r) => [r.adminId, r.roleId]));
    },
    assign(adminId, roleId) {
      if (roleId === null && !hasTables()) return;
      ensureTables();
      if (roleId === null) db.prepare('DELETE FROM _outpostAdminRoles WHERE adminId = ?').run(adminId);
      else db.prepare('INSERT INTO _outpostAdminRoles (adminId, roleId) VALUES (?, ?) ON CONFLICT (adminId) DO UPDATE SET roleId = excluded.roleId').run(adminId, roleId);
    },
    holders: (roleId) => (!hasTables() ? 0 : (db.prepare('SELECT count(*) AS n FROM _outpostAdminRoles a JOIN _admins ad ON ad.id = a.adminId WHERE a.roleId = ?').get(roleId) as { n: number }).n),
    fullAdmins: () =>
      (
        db.prepare(!hasTables() ? 'SELECT count(*) AS n FROM _admins' : 'SELECT count(*) AS n FROM _admins ad WHERE NOT EXISTS (SELECT 1 FROM _outpostAdminRoles a JOIN _outpostRoles r ON r.id = a.roleId WHERE a.adminId = ad.id)').get() as {
          n: number;
        }
      ).n,
  };
}
