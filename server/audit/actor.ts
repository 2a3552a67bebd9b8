// Who makes the change being written: the HTTP layer sets it for the whole of a request (an
// AsyncLocalStorage, like the read client), so a store's write deep in a service knows its admin,
// address and request id without every domain function passing them on. Writes no request
// started (migrations, cron backups, start-up) have no actor: the trail names them 'system'.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface AuditActor {
  kind: 'admin' | 'authRecord' | 'guest';
  /** The admin's or auth record's id ('' for a guest). */
  id: string;
  /** The admin's or auth record's email at the moment of the request. */
  email: string;
  /** The auth record's collection id. */
  collectionId?: string;
  /** The trusted client address (server/http/client-address.ts). */
  ip: string;
  /** The request log entry's id. */
  requestId: string;
}

const actors = new AsyncLocalStorage<AuditActor>();

/** Runs `fn` (and everything it starts) as changes made by `actor`. */
export function runAsAuditActor<T>(actor: AuditActor, fn: () => T): T {
  return actors.run(actor, fn);
}

/**
 * Runs `fn` (and everything it starts) as no request's: what a request sets going that outlives
 * it (an app restart after a restore: its cron jobs, its onAfterBootstrap) is the system's.
 */
export function withoutAuditActor<T>(fn: () => T): T {
  return actors.exit(fn);
}

export function currentAuditActor(): AuditActor | undefined {
  return actors.getStore();
}
