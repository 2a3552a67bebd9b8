// What the signed-in admin may do (issue 36: admin roles). An admin without a role is a full admin,
// as in PocketBase 0.22; a scoped admin's role comes from GET /api/outpost/access, loaded when the
// session starts or changes, and again on a 403 (its role may have changed meanwhile). The server
// enforces every check (server/http/permissions.ts); the dashboard only leaves out what would fail.
import { proxy, useSnapshot } from 'valtio';
import { ClientResponseError } from 'pocketbase';
import { pb, type AdminModel } from '../api/client';
import { accessOf, type AdminAccess, type Area, type Role } from '../lib/roles';

type AccessState = { adminId: string; role: Role | null };

const accessState = proxy<AccessState>({ adminId: '', role: null });

/** Loads the signed-in admin's role (a server without roles, e.g. PocketBase 0.22, answers 404: a full admin). */
export async function loadAccess(): Promise<void> {
  const model = pb.authStore.model as { id?: unknown; collectionId?: unknown } | null;
  const adminId = model && typeof model.id === 'string' && !('collectionId' in model) ? model.id : '';
  if (!adminId || !pb.authStore.token) {
    Object.assign(accessState, { adminId: '', role: null });
    return;
  }
  try {
    const answer = await pb.send<{ full: boolean; role: Role | null }>('/api/outpost/access', { requestKey: 'outpost-access' });
    Object.assign(accessState, { adminId, role: answer.full ? null : answer.role });
  } catch (err) {
    if (err instanceof ClientResponseError && err.status === 404) Object.assign(accessState, { adminId, role: null });
  }
}

/** The current admin's access (a full admin's until its role is known). */
export function currentAccess(): AdminAccess {
  return accessOf(accessState.role as Role | null);
}

/** The access, re-rendering when it changes. */
export function useAccess(): AdminAccess {
  const snap = useSnapshot(accessState);
  return accessOf(snap.role as Role | null);
}

/** Whether the current admin holds an area (full admins hold all). */
export const canArea = (area: Area): boolean => currentAccess().area(area);

/** Whether `admin` may open the SQL console (full admins, and the roles granting it). */
export function canUseSqlConsole(admin: AdminModel | null): boolean {
  return admin !== null && canArea('sqlConsole');
}
