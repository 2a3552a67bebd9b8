// The PocketBase SDK client and the generic error handler (spec §7, §8).
import PocketBase, { ClientResponseError } from 'pocketbase';
import { addErrorToast } from '../app/toasts';
import { navigate } from '../app/navigation';
import { setFieldErrors } from '../state/field-errors';
import { AdminAuthStore, keepAdminSessionFresh } from './admin-session';

export type AdminModel = { id: string; email: string; avatar: number; created: string; updated: string };


function backendUrl(): string {
  if (typeof window !== 'undefined' && window.location?.origin && window.location.origin !== 'null') {
    return window.location.origin;
  }
  return 'http://127.0.0.1:8090';
}

export const pb: PocketBase = new PocketBase(backendUrl(), new AdminAuthStore(), 'en-US');
keepAdminSessionFresh(pb);

/** Clears the session, cancels pending requests and goes to the login screen. */
export function logoutToLogin(redirect = true): void {
  pb.cancelAllRequests();
  pb.authStore.clear();
  if (redirect) navigate('/login', { replace: true });
}

function isAbortError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  if ((err as { isAbort?: boolean }).isAbort) return true;
  return (err as { name?: string }).name === 'AbortError';
}

/**
 * Generic handler (spec §8): ignores aborted requests; shows the response or error message as an
 * error toast (not for a 400 when `silent400`, e.g. an invalid list filter); puts the response's
 * data field errors into the field-error store; 401 logs out to /login; 403 goes to /.
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

  if (!(opts.silent400 && status === 400)) addErrorToast(message);

  const data = response.data;
  if (data && typeof data === 'object' && Object.keys(data).length > 0) {
    setFieldErrors(data as Record<string, unknown>);
  }

  if (status === 401) {
    logoutToLogin(true);
  } else if (status === 403) {
    pb.cancelAllRequests();
    navigate('/', { replace: true });
  }
}
