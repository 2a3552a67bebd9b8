// The PocketBase SDK client and the generic error handler. What to show and where
// to go is the shell's part: the client reports it as events (./events).
import PocketBase, { ClientResponseError } from 'pocketbase';
import { AdminAuthStore, keepAdminSessionFresh } from './admin-session';
import { emitApiEvent } from './events';

export type AdminModel = { id: string; email: string; avatar: number; created: string; updated: string };


function backendUrl(): string {
  if (typeof window !== 'undefined' && window.location?.origin && window.location.origin !== 'null') {
    return window.location.origin;
  }
  return 'http://127.0.0.1:8090';
}

export const pb: PocketBase = new PocketBase(backendUrl(), new AdminAuthStore(), 'en-US');
keepAdminSessionFresh(pb);

/** Clears the session, cancels pending requests and (with `redirect`) sends the admin to sign in. */
export function logoutToLogin(redirect = true): void {
  pb.cancelAllRequests();
  pb.authStore.clear();
  if (redirect) emitApiEvent({ type: 'signed-out' });
}

function isAbortError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  if ((err as { isAbort?: boolean }).isAbort) return true;
  return (err as { name?: string }).name === 'AbortError';
}

/**
 * Generic handler: ignores aborted requests; reports the response or error message (quiet
 * for a 400 when `silent400`, e.g. an invalid list filter) with the response's data field errors;
 * 401 signs out; 403 cancels pending requests and reports it.
 */
export function handleError(err: unknown, opts: { silent400?: boolean } = {}): void {
  if (!err || isAbortError(err)) return;

  const status = err instanceof ClientResponseError ? err.status : Number((err as { status?: unknown }).status) || 0;
  const response: Record<string, unknown> =
    err instanceof ClientResponseError
      ? (err.response ?? {})
      : ((err as { response?: Record<string, unknown> }).response ?? {});

  const responseMessage = typeof response.message === 'string' ? response.message : '';
  const errMessage = err instanceof Error ? err.message : typeof err === 'string' ? err : '';
  const message = responseMessage || errMessage || 'Something went wrong while processing your request.';

  const data = response.data;
  const fieldErrors = data && typeof data === 'object' && Object.keys(data).length > 0 ? (data as Record<string, unknown>) : null;
  emitApiEvent({ type: 'error', message, quiet: Boolean(opts.silent400 && status === 400), fieldErrors, status });

  if (status === 401) {
    logoutToLogin(true);
  } else if (status === 403) {
    pb.cancelAllRequests();
    emitApiEvent({ type: 'forbidden' });
  }
}
