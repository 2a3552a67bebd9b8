// The one channel between the members of a cluster (`serve --workers N`: processes under one
// node:cluster primary; `--natsUrl`: separate instances through a NATS server). The app only knows
// this interface; ipc-channel.ts and nats-channel.ts carry it. Every payload is plain JSON.

/** Handles what another member published; a broadcast is acknowledged once the returned promise settles. */
export type ClusterHandler = (data: unknown) => void | Promise<void>;

export interface ClusterChannel {
  /** This member's id, unique in the cluster (its banner and /api/health show it). */
  readonly memberId: string;
  /** How the members talk: 'ipc' (one machine, one primary) or 'nats'. */
  readonly transport: 'ipc' | 'nats';
  /** Sends to every other member, without waiting (realtime events). */
  publish(subject: string, data: unknown): void;
  /** Handles `subject` as the other members publish or broadcast it; returns the unsubscribe function. */
  subscribe(subject: string, handler: ClusterHandler): () => void;
  /**
   * Sends to every other member and resolves once each one's handler has run (its ack), or once
   * `timeoutMs` has passed: a member that died or hangs cannot hold the sender longer.
   */
  broadcast(subject: string, data: unknown, timeoutMs: number): Promise<{ acked: number; expected: number }>;
  /** Asks the coordinator (the one member, or the primary, that holds the shared counters); rejects after `timeoutMs`. */
  ask(subject: string, data: unknown, timeoutMs: number): Promise<unknown>;
  /** Whether this member runs what must run once in the cluster (cron jobs, automatic backups). */
  isLeader(): boolean;
  /** How many members there are now, this one included. */
  members(): number;
  close(): Promise<void>;
}

/** The bound of an invalidation broadcast: a change is acknowledged once every member took it, or after this. */
export const INVALIDATION_TIMEOUT_MS = 5_000;
/** The bound of a coordinator question on a request's path (sign-in limits): past it the member decides alone. */
export const ASK_TIMEOUT_MS = 1_000;
