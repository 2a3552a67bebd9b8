// What a signed-in admin may do beyond PocketBase 0.22's admin rights. Roles do not exist yet:
// every admin is a full admin. Each check lives here only, so a role check can replace it (the
// server's twin is requireSqlConsole in server/http/sql-console.ts).
import type { AdminModel } from '../api/client';

/** Whether `admin` may open the SQL console (full admins, and later the roles granted it). */
export function canUseSqlConsole(admin: AdminModel | null): boolean {
  return admin !== null;
}
