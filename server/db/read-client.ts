// Whom a read is for: the HTTP layer sets it for the whole of a request (an AsyncLocalStorage, so
// every read the request starts carries it — lists, views, expands, rule checks — without each
// domain function passing it on), and the read pool's admission control reads it
// (server/db/read-admission.ts). Reads started by nobody's request (realtime fan-out, start-up)
// have no client.
import { AsyncLocalStorage } from 'node:async_hooks';

export type ReadTier = 'guest' | 'user' | 'admin';

export interface ReadClient {
  /** One key per caller: the admin or auth record, else the guest's IP address. */
  key: string;
  tier: ReadTier;
  /** Aborted when the caller goes away before its answer: its queued reads are dropped, running ones stopped. */
  signal?: GoneSignal;
}

/** The part of an AbortSignal the read pool uses. */
interface GoneSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * A caller's going away, made for every request: an AbortController cost about 11 µs of a list's
 * 325 (measured in a CPU profile of the public list), this a plain object and, once a read
 * waits on it, an array. Listeners run once, as `{ once: true }` would.
 */
export class CallerGone implements GoneSignal {
  aborted = false;
  private listeners: Array<() => void> | null = null;

  addEventListener(_type: 'abort', listener: () => void): void {
    (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const i = this.listeners?.indexOf(listener) ?? -1;
    if (i >= 0) this.listeners!.splice(i, 1);
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const run = this.listeners ?? [];
    this.listeners = null;
    for (const listener of run) listener();
  }
}

const clients = new AsyncLocalStorage<ReadClient>();

/** Runs `fn` (and everything it starts) as reads of `client`. */
export function runAsReadClient<T>(client: ReadClient, fn: () => T): T {
  return clients.run(client, fn);
}

/** Runs `fn` as reads of no client (work a request triggers for others, e.g. realtime checks). */
export function runWithoutReadClient<T>(fn: () => T): T {
  return clients.exit(fn);
}

export function currentReadClient(): ReadClient | undefined {
  return clients.getStore();
}
