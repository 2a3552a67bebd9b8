// What the signed-in admin may do (issue 36: admin roles). An admin without a role is a full admin,
// as in PocketBase 0.22; a scoped admin's role comes from GET /api/outpost/access, loaded when the
// session starts or changes, and again on a 403 (its role may have changed meanwhile). The server
// enforces every check (server/http/permissions.ts); the dashboard only leaves out what would fail.
import { proxy, useSnapshot } from 'valtio';
import { ClientResponseError } from 'pocketbase';
import { pb, type AdminModel } from '../api/client';
import { accessOf, type AdminAccess, type Area, type Role } from '../lib/roles';

/** `adminId`: whose role `role` is ('' until one was read). */
type AccessState = { adminId: string; role: Role | null };

const accessState = proxy<AccessState>({ adminId: '', role: null });

const signedInAdminId = (): string => {
  const model = pb.authStore.model as { id?: unknown; collectionId?: unknown } | null;
  return model && typeof model.id === 'string' && !('collectionId' in model) && pb.authStore.token ? model.id : '';
};

// one request at a time: the sidebar, the route's gate and a 403 may all ask at once
let loading: Promise<void> | null = null;

/** Loads the signed-in admin's role (a server without roles, e.g. PocketBase 0.22, answers 404: a full admin). */
export function loadAccess(): Promise<void> {
  return (loading ??= readAccess().finally(() => (loading = null)));
}

async function readAccess(): Promise<void> {
  const adminId = signedInAdminId();
  if (!adminId) {
    Object.assign(accessState, { adminId: '', role: null });
    return;
  }
  try {
    const answer = await pb.send<{ full: boolean; role: Role | null }>('/api/outpost/access', { requestKey: null });
    if (signedInAdminId() === adminId) Object.assign(accessState, { adminId, role: answer.full ? null : answer.role });
  } catch (err) {
    // a 404 is a server without roles; any other failure counts as known too (the server still
    // judges every request), so no screen waits for it forever
    if (signedInAdminId() === adminId) Object.assign(accessState, { adminId, role: err instanceof ClientResponseError && err.status === 404 ? null : accessState.adminId === adminId ? accessState.role : null });
  }
}

/** Whether the signed-in admin's role was read (until then, currentAccess() answers as for a full admin). */
export const accessKnown = (): boolean => !!accessState.adminId && accessState.adminId === signedInAdminId();

/** The signed-in admin's access once its role was read for this session, else null (still loading). */
export function useKnownAccess(adminId: string | undefined): AdminAccess | null {
  const snap = useSnapshot(accessState);
  return adminId && snap.adminId === adminId ? accessOf(snap.role as Role | null) : null;
}

/** The current admin's access (a full admin's until its role is known). */
export function currentAccess(): AdminAccess {
  return accessOf(accessState.role as Role | null);
}

/** The access once the signed-in admin's role was read, else null: for a button that must not show before it (and vanish). */
export function useSettledAccess(): AdminAccess | null {
  const snap = useSnapshot(accessState);
  const id = signedInAdminId();
  return id && snap.adminId === id ? accessOf(snap.role as Role | null) : null;
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
