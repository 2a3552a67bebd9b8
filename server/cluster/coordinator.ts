// What the members of a cluster count together, held in one place: the node:cluster primary, or
// the leader with NATS. Only the rare paths ask it: sign-in attempts (a round trip per sign-in),
// and costly reads (over 50 ms each, so a round trip is noise); cheap reads never do.
// With NATS the leader changes when it stops or dies, so the counts must not live in it alone: the
// leader sends each change it makes (`replicate`) to the other members, which make the same change
// in their copy (`apply`), and a member that joins loads the leader's copy (`snapshot`, `load`).
// Whoever leads next answers from the same counts.
import { createAttemptLimiter, type AttemptLimiter } from '../services/rate-limit';

interface LimiterSpec {
  /** Which limiter (the admins' or the records' sign-in). */
  name: string;
  limit: number;
  sourceLimit: number;
  windowMs: number;
}

interface AttemptQuestion extends LimiterSpec {
  key: string;
  source: string;
}

export type AttemptAnswer = { blocked: true; retryAfterMs: number } | { blocked: false; ticket: string };

/** A change of the counters, as the coordinator that answered made it; a copy makes the same. */
export type CoordinatorChange =
  | ({ op: 'attempt'; ticket: string } & AttemptQuestion)
  | { op: 'succeeded'; ticket: string }
  | { op: 'lease'; id: string; key: string; ttlMs: number }
  | { op: 'release'; id: string };

/** A copy of the counters; times are ages, as members' clocks may differ. */
export interface CoordinatorSnapshot {
  limiters: Array<LimiterSpec & { entries: Array<[string, number[]]> }>;
  tickets: Array<{ ticket: string; name: string; key: string; source: string; age: number }>;
  leases: Array<{ id: string; key: string; leftMs: number }>;
}

/** An admitted sign-in attempt, taken back if its password turns out right. */
interface Ticket {
  name: string;
  key: string;
  source: string;
  at: number;
  timer: NodeJS.Timeout;
}

/** A costly read's slot for one client: held until released, or until it expires (a member that died). */
interface Lease {
  key: string;
  leftUntil: number;
  timer: NodeJS.Timeout;
}

export interface Coordinator {
  answer(subject: string, data: unknown): Promise<unknown>;
  /** Makes a change another member's coordinator made (this one is its copy). */
  apply(change: CoordinatorChange): void;
  snapshot(): CoordinatorSnapshot;
  /** Takes the counts of `snapshot()` (a member that joins, from the leader). */
  load(snapshot: CoordinatorSnapshot): void;
  close(): void;
}

export interface CoordinatorOptions {
  /** Starts the ids of tickets and leases: unique per member, so a new leader never hands out the old one's. */
  idPrefix?: string;
  /** Told each change made while answering. */
  replicate?(change: CoordinatorChange): void;
}

export function createCoordinator({ idPrefix = '', replicate }: CoordinatorOptions = {}): Coordinator {
  const limiters = new Map<string, { spec: LimiterSpec; limiter: AttemptLimiter }>();
  const tickets = new Map<string, Ticket>();
  let nextId = 1;
  const held = new Map<string, number>();
  const leases = new Map<string, Lease>();
  const waiting = new Map<string, Array<() => void>>();
  const newId = () => `${idPrefix}${nextId++}`;

  const limiterFor = (spec: LimiterSpec): AttemptLimiter => {
    let entry = limiters.get(spec.name);
    if (!entry) {
      const { name, limit, sourceLimit, windowMs } = spec;
      limiters.set(name, (entry = { spec: { name, limit, sourceLimit, windowMs }, limiter: createAttemptLimiter({ limit, sourceLimit, windowMs }) }));
    }
    return entry.limiter;
  };
  // a ticket nobody redeems (a failed password) is forgotten with its window
  const keepTicket = (ticket: string, t: Omit<Ticket, 'timer'>, ttlMs: number) => {
    tickets.set(ticket, { ...t, timer: setTimeout(() => tickets.delete(ticket), ttlMs).unref() });
  };
  const succeed = (ticket: string) => {
    const t = tickets.get(ticket);
    if (!t) return;
    tickets.delete(ticket);
    clearTimeout(t.timer);
    limiters.get(t.name)?.limiter.takeBack(t.key, t.source, t.at);
  };

  const attempt = (q: AttemptQuestion): AttemptAnswer => {
    const r = limiterFor(q).attempt(q.key, q.source);
    if (r.blocked) return r;
    const ticket = newId();
    keepTicket(ticket, { name: q.name, key: q.key, source: q.source, at: r.at }, q.windowMs);
    const { name, limit, sourceLimit, windowMs, key, source } = q;
    replicate?.({ op: 'attempt', ticket, name, limit, sourceLimit, windowMs, key, source });
    return { blocked: false, ticket };
  };

  const hold = (id: string, key: string, ttlMs: number) => {
    held.set(key, (held.get(key) ?? 0) + 1);
    leases.set(id, { key, leftUntil: Date.now() + ttlMs, timer: setTimeout(() => release(id), ttlMs).unref() });
  };
  const release = (id: string) => {
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

  const admit = async ({ key, share, ttlMs }: { key: string; share: number; ttlMs: number }): Promise<string | null> => {
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
    const id = newId();
    hold(id, key, ttlMs);
    replicate?.({ op: 'lease', id, key, ttlMs });
    return id;
  };

  return {
    async answer(subject, data) {
      const d = data as Record<string, unknown>;
      switch (subject) {
        case 'limit.attempt':
          return attempt(d as unknown as AttemptQuestion);
        case 'limit.succeeded': {
          const ticket = String(d.ticket);
          succeed(ticket);
          replicate?.({ op: 'succeeded', ticket });
          return true;
        }
        case 'read.admit':
          return admit(d as { key: string; share: number; ttlMs: number });
        case 'read.release': {
          const id = String(d.lease);
          release(id);
          replicate?.({ op: 'release', id });
          return true;
        }
        default:
          throw new Error(`unknown question ${subject}`);
      }
    },
    apply(change) {
      switch (change.op) {
        case 'attempt': {
          const at = limiterFor(change).record(change.key, change.source);
          keepTicket(change.ticket, { name: change.name, key: change.key, source: change.source, at }, change.windowMs);
          break;
        }
        case 'succeeded':
          succeed(change.ticket);
          break;
        case 'lease':
          if (!leases.has(change.id)) hold(change.id, change.key, change.ttlMs);
          break;
        case 'release':
          release(change.id);
          break;
      }
    },
    snapshot() {
      const now = Date.now();
      return {
        limiters: [...limiters.values()].map(({ spec, limiter }) => ({ ...spec, entries: limiter.entries().map(([key, list]): [string, number[]] => [key, list.map((t) => now - t)]) })),
        tickets: [...tickets].map(([ticket, t]) => ({ ticket, name: t.name, key: t.key, source: t.source, age: now - t.at })),
        leases: [...leases].map(([id, l]) => ({ id, key: l.key, leftMs: l.leftUntil - now })),
      };
    },
    load(snapshot) {
      const now = Date.now();
      for (const l of snapshot.limiters) limiterFor(l).load(l.entries.map(([key, ages]): [string, number[]] => [key, ages.map((age) => now - age)]));
      for (const t of snapshot.tickets) {
        const windowMs = limiters.get(t.name)?.spec.windowMs ?? 0;
        if (t.age < windowMs) keepTicket(t.ticket, { name: t.name, key: t.key, source: t.source, at: now - t.age }, windowMs - t.age);
      }
      for (const l of snapshot.leases) if (l.leftMs > 0 && !leases.has(l.id)) hold(l.id, l.key, l.leftMs);
    },
    close() {
      for (const lease of leases.values()) clearTimeout(lease.timer);
      leases.clear();
      for (const t of tickets.values()) clearTimeout(t.timer);
      tickets.clear();
    },
  };
}
