// The roles a full admin manages (Settings › Admins) and who holds which: read by the roles
// section, the role picker widget and the admins list (GET /api/outpost/roles, /admin-roles).
import { proxy } from 'valtio';
import { ClientResponseError } from 'pocketbase';
import { pb } from '../api/client';
import type { Role } from '../lib/roles';

export type ListedRole = Role & { admins: number };

export const rolesState = proxy<{ roles: ListedRole[]; holders: Record<string, string> }>({ roles: [], holders: {} });

/** Loads both; a server without roles (PocketBase 0.22) leaves them empty. */
export async function loadRoles(): Promise<void> {
  try {
    const [list, holders] = await Promise.all([
      pb.send<{ items: ListedRole[] }>('/api/outpost/roles', { requestKey: 'outpost-roles' }),
      pb.send<Record<string, string>>('/api/outpost/admin-roles', { requestKey: 'outpost-admin-roles' }),
    ]);
    rolesState.roles = list.items;
    rolesState.holders = holders;
  } catch (err) {
    if (!(err instanceof ClientResponseError && err.status === 404)) throw err;
  }
}
