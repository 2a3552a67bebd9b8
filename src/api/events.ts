/**
 * What the API client reports to whoever shows it: the client knows no toasts and no routes, the
 * shell subscribes (src/app/api-events.ts) and turns these into messages, field errors and
 * navigation.
 */
export type ApiEvent =
  /** A failed request: its message (to show unless `quiet`) and the response's field errors, if any. */
  | { type: 'error'; message: string; quiet: boolean; fieldErrors: Record<string, unknown> | null; status: number }
  /** The session ended (a 401 or a sign-out): the sign-in screen comes next. */
  | { type: 'signed-out' }
  /** A 403: the admin may not see what was asked for. */
  | { type: 'forbidden' };

type Listener = (event: ApiEvent) => void;

const listeners = new Set<Listener>();

/** Subscribes; returns the unsubscribe. */
export function onApiEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export function emitApiEvent(event: ApiEvent): void {
  for (const l of listeners) l(event);
}
