// The signed-in admin, mirrored from pb.authStore into a valtio store.
import { proxy, useSnapshot } from 'valtio';
import { pb, logoutToLogin, type AdminModel } from '../api/client';

type AuthState = { token: string; admin: AdminModel | null };

function decodePayload(token: string): Record<string, unknown> | null {
  try {
    const part = token.split('.')[1];
    if (!part) return null;
    const b64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const json = decodeURIComponent(
      atob(b64 + '==='.slice((b64.length + 3) % 4))
        .split('')
        .map((c) => '%' + ('00' + c.charCodeAt(0).toString(16)).slice(-2))
        .join(''),
    );
    const payload = JSON.parse(json);
    return payload && typeof payload === 'object' ? payload : null;
  } catch {
    return null;
  }
}

/** A token is valid if its exp claim is in the future or it cannot be decoded. */
function isTokenValid(token: string, nowSeconds = Date.now() / 1000): boolean {
  if (!token) return false;
  const payload = decodePayload(token);
  if (!payload) return true;
  const exp = payload.exp;
  if (typeof exp !== 'number') return true;
  return exp > nowSeconds;
}

function toAdmin(model: unknown): AdminModel | null {
  if (!model || typeof model !== 'object') return null;
  const m = model as Record<string, unknown>;
  if (typeof m.id !== 'string' || 'collectionId' in m) return null; // records carry collectionId
  return {
    id: m.id,
    email: String(m.email ?? ''),
    avatar: Number(m.avatar ?? 0) || 0,
    created: String(m.created ?? ''),
    updated: String(m.updated ?? ''),
  };
}

const authState = proxy<AuthState>({
  token: pb.authStore.token,
  admin: toAdmin(pb.authStore.model),
});

pb.authStore.onChange((token, model) => {
  authState.token = token;
  authState.admin = toAdmin(model);
});

/** True when a valid admin session is stored. */
export function isAdminSignedIn(): boolean {
  // Read the SDK store directly: LocalAuthStore reads localStorage on every access.
  return !!toAdmin(pb.authStore.model) && isTokenValid(pb.authStore.token);
}

/** Replaces the stored admin model (e.g. after the current admin saved their own record). */
export function updateCurrentAdmin(admin: AdminModel): void {
  if (authState.admin && authState.admin.id === admin.id) {
    pb.authStore.save(pb.authStore.token, { ...(pb.authStore.model ?? {}), ...admin } as never);
  }
}

/** Clears the session and (by default) goes to #/login. */
export function logout(redirect = true): void {
  logoutToLogin(redirect);
}

export function useAuth(): { token: string; admin: AdminModel | null; signedIn: boolean } {
  const snap = useSnapshot(authState);
  return { token: snap.token, admin: snap.admin, signedIn: !!snap.admin && isTokenValid(snap.token) };
}
