// The admin session's storage and its upkeep.
//
// - The session lives under pocketbase_auth and is mirrored under the persistent admin auth key the
//   original dashboard uses, so that an admin signed in through either dashboard on the same
//   origin stays signed in.
// - Near expiry the token is refreshed: by a timer while the dashboard is open, and by the SDK's
//   own hook before a request (registered by a sign-in in this page, it also re-authenticates
//   with the credentials it keeps in memory when the token can no longer be refreshed). After a
//   reload no credentials are kept, so the refresh alone runs.
import type PocketBase from 'pocketbase';
import { LocalAuthStore } from 'pocketbase';

import { ADMIN_AUTH_STORAGE_KEY, AUTH_STORAGE_KEY } from '../lib/auth-keys';

export { ADMIN_AUTH_STORAGE_KEY, AUTH_STORAGE_KEY };
/** Refresh when the token expires within this many seconds. */
export const TOKEN_REFRESH_THRESHOLD = 30 * 60;

function readStored(key: string): { token?: unknown; model?: unknown } | null {
  try {
    const raw = window.localStorage.getItem(key);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    return parsed && typeof parsed === 'object' ? (parsed as { token?: unknown; model?: unknown }) : null;
  } catch {
    return null;
  }
}

/** pocketbase_auth, kept in step with the persistent admin key in both directions. */
export class AdminAuthStore extends LocalAuthStore {
  constructor() {
    super(AUTH_STORAGE_KEY);
    if (typeof window === 'undefined' || !window.localStorage) return;
    const mine = readStored(AUTH_STORAGE_KEY);
    const theirs = readStored(ADMIN_AUTH_STORAGE_KEY);
    if (!mine?.token && typeof theirs?.token === 'string' && theirs.token) {
      super.save(theirs.token, (theirs.model ?? null) as never);
    }
    this.mirror();
  }

  override save(token: string, model?: Parameters<LocalAuthStore['save']>[1]): void {
    super.save(token, model);
    this.mirror();
  }

  override clear(): void {
    super.clear();
    this.mirror();
  }

  private mirror(): void {
    try {
      const model = this.model as { collectionId?: unknown } | null;
      // only an admin session belongs under the admin key
      if (this.token && model && !model.collectionId) {
        window.localStorage.setItem(ADMIN_AUTH_STORAGE_KEY, JSON.stringify({ token: this.token, model }));
      } else if (!this.token) {
        window.localStorage.removeItem(ADMIN_AUTH_STORAGE_KEY);
      }
    } catch {
      // storage full or unavailable: the primary key still holds the session
    }
  }
}

function expiry(token: string): number | null {
  try {
    const b64 = (token.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/');
    const payload = JSON.parse(atob(b64 + '==='.slice((b64.length + 3) % 4))) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp : null;
  } catch {
    return null;
  }
}

/** Signs in with the SDK's auto refresh (refresh, else re-auth with these credentials). */
export function signInAdmin(pb: PocketBase, email: string, password: string) {
  return pb.admins.authWithPassword(email, password, { autoRefreshThreshold: TOKEN_REFRESH_THRESHOLD });
}

/**
 * When to refresh a token expiring at `exp` (seconds): TOKEN_REFRESH_THRESHOLD before it expires,
 * but never sooner than half its remaining life (a short-lived token is not refreshed in a loop)
 * and at most ~24 days ahead (setTimeout's limit).
 */
export function refreshDelayMs(exp: number, nowMs = Date.now()): number {
  const left = exp * 1000 - nowMs;
  const delay = Math.max(left - TOKEN_REFRESH_THRESHOLD * 1000, left / 2, 1000);
  return Math.min(delay, 2 ** 31 - 1);
}

/**
 * Keeps a signed-in admin's token fresh while the dashboard is open, so that an admin who works
 * past the token's lifetime is never sent to the sign-in page. The refresh request passes through
 * the SDK's auto-refresh hook (after a sign-in in this page), which re-authenticates with the
 * saved credentials when the token can no longer be refreshed. A failed refresh is left to the
 * usual 401 handling of the next request.
 */
export function keepAdminSessionFresh(pb: PocketBase): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    clearTimeout(timer);
    const exp = pb.authStore.isAdmin ? expiry(pb.authStore.token) : null;
    if (exp === null) return;
    timer = setTimeout(() => {
      pb.admins.authRefresh({ requestKey: 'admin_session_refresh' }).catch(() => undefined);
    }, refreshDelayMs(exp));
  };
  const unsubscribe = pb.authStore.onChange(schedule);
  schedule();
  return () => {
    clearTimeout(timer);
    unsubscribe();
  };
}
