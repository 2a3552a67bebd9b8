// What the members of a cluster count together, held in one place: the node:cluster primary, or
// the leader with NATS. Only the rare paths ask it: sign-in attempts (a round trip per sign-in),
// and costly reads (over 50 ms each, so a round trip is noise); cheap reads never do.
import { createAttemptLimiter, type AttemptLimiter } from '../services/rate-limit';

interface AttemptQuestion {
  /** Which limiter (the admins' or the records' sign-in). */
  name: string;
  limit: number;
  sourceLimit: number;
  windowMs: number;
  key: string;
  source: string;
}

export type AttemptAnswer = { blocked: true; retryAfterMs: number } | { blocked: false; ticket: number };

/** A costly read's slot for one client: held until released, or until it expires (a member that died). */
interface Lease {
  key: string;
  timer: NodeJS.Timeout;
}

export interface Coordinator {
  answer(subject: string, data: unknown): Promise<unknown>;
  close(): void;
}

export function createCoordinator(): Coordinator {
  const limiters = new Map<string, AttemptLimiter>();
  const tickets = new Map<number, () => void>();
  let nextTicket = 1;
  const held = new Map<string, number>();
  const leases = new Map<number, Lease>();
  const waiting = new Map<string, Array<() => void>>();

  const attempt = (q: AttemptQuestion): AttemptAnswer => {
    let limiter = limiters.get(q.name);
    if (!limiter) limiters.set(q.name, (limiter = createAttemptLimiter({ limit: q.limit, sourceLimit: q.sourceLimit, windowMs: q.windowMs })));
    const r = limiter.attempt(q.key, q.source);
    if (r.blocked) return r;
    const ticket = nextTicket++;
    tickets.set(ticket, r.succeeded);
    // a ticket nobody redeems (a failed password) is forgotten with its window
    setTimeout(() => tickets.delete(ticket), q.windowMs).unref();
    return { blocked: false, ticket };
  };

  const release = (id: number) => {
    const lease = leases.get(id);
    if (!lease) return;
    leases.delete(id);
    clearTimeout(lease.timer);
    const n = (held.get(lease.key) ?? 1) - 1;
    if (n > 0) held.set(lease.key, n);
    else held.delete(lease.key);
    const next = waiting.get(lease.key)?.shift();
    if (waiting.get(lease.key)?.length === 0) waiting.delete(lease.key);
    next?.();
  };

  const admit = async ({ key, share, ttlMs }: { key: string; share: number; ttlMs: number }): Promise<number | null> => {
    // the asker stops waiting at ttlMs: a slot granted after that would be held by nobody, so the
    // wait here ends first (null: no slot, the asker reads without one)
    const giveUp = Date.now() + ttlMs / 2;
    while ((held.get(key) ?? 0) >= share) {
      const left = giveUp - Date.now();
      if (left <= 0) return null;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          const list = waiting.get(key);
          const i = list?.indexOf(wake) ?? -1;
          if (i >= 0) list!.splice(i, 1);
          resolve();
        }, left);
        waiting.set(key, [...(waiting.get(key) ?? []), wake]);
      });
    }
    held.set(key, (held.get(key) ?? 0) + 1);
    const id = nextTicket++;
    leases.set(id, { key, timer: setTimeout(() => release(id), ttlMs).unref() });
    return id;
  };

  return {
    async answer(subject, data) {
      const d = data as Record<string, unknown>;
      switch (subject) {
        case 'limit.attempt':
          return attempt(d as unknown as AttemptQuestion);
        case 'limit.succeeded':
          tickets.get(Number(d.ticket))?.();
          tickets.delete(Number(d.ticket));
          return true;
        case 'read.admit':
          return admit(d as { key: string; share: number; ttlMs: number });
        case 'read.release':
          release(Number(d.lease));
          return true;
        default:
          throw new Error(`unknown question ${subject}`);
      }
    },
    close() {
      for (const lease of leases.values()) clearTimeout(lease.timer);
      leases.clear();
    },
  };
}
