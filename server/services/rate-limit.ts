// A sliding-window limiter of sign-in attempts (and other guesses). An attempt is counted BEFORE
// it is judged, synchronously, and taken back when it succeeds: counting failures after an async
// password check let concurrent guesses all pass the check first (100 at once evaluated 9
// passwords against a limit of 5). Two tiers: per identity (`limit`) and per source, the IP
// address, across identities (`sourceLimit`), so a flood of made-up identities from one address is
// stopped too and cannot push a victim's counter out of the bounded table.
export interface AttemptLimiter {
  /**
   * Counts an attempt on `key` from `source`. Blocked: how long to wait. Admitted: call
   * `succeeded()` when it turns out right (its count is taken back), nothing when it fails.
   */
  attempt(key: string, source: string): { blocked: true; retryAfterMs: number } | { blocked: false; at: number; succeeded(): void };
  /** Counts an attempt admitted elsewhere (a cluster's replica of the leader's counters); returns its time. */
  record(key: string, source: string, at?: number): number;
  /** What `succeeded()` does, for an attempt counted at `at`. */
  takeBack(key: string, source: string, at: number): void;
  /** The attempts inside the window, each key with its times (a replica's copy of the counters). */
  entries(): Array<[string, number[]]>;
  /** Adds what `entries()` gave (another member's copy). */
  load(entries: Array<[string, number[]]>): void;
}

export interface AttemptLimiterOptions {
  /** Attempts per identity inside the window. */
  limit: number;
  /** Attempts per source (IP address) inside the window, all identities together. */
  sourceLimit: number;
  windowMs: number;
  /** Injectable clock for tests. */
  now?: () => number;
}

/**
 * Keys kept at most; beyond it the least recently attempted go (bounded memory). A key under
 * attack is refreshed by every attempt, and one source can add at most `sourceLimit` keys per
 * window, so a flood cannot evict it.
 */
const MAX_KEYS = 100_000;

export function createAttemptLimiter({ limit, sourceLimit, windowMs, now = Date.now }: AttemptLimiterOptions): AttemptLimiter {
  const attempts = new Map<string, number[]>();

  const recent = (key: string): number[] => {
    const cutoff = now() - windowMs;
    const list = (attempts.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length) attempts.set(key, list);
    else attempts.delete(key);
    return list;
  };
  const waitFor = (key: string, max: number): number => {
    const list = recent(key);
    return list.length < max ? 0 : Math.max(1, list[list.length - max] + windowMs - now());
  };
  const push = (key: string, t: number) => {
    const list = recent(key);
    list.push(t);
    attempts.delete(key); // re-inserted: the Map's order is the order of the last attempt
    attempts.set(key, list);
    if (attempts.size > MAX_KEYS) attempts.delete(attempts.keys().next().value as string);
  };
  const takeBack = (key: string, t: number) => {
    const list = attempts.get(key);
    const i = list?.lastIndexOf(t) ?? -1;
    if (i >= 0) list!.splice(i, 1);
    if (list && list.length === 0) attempts.delete(key);
  };

  const sourceKeyOf = (source: string) => `\u0000source:${source}`;
  const record = (key: string, source: string, at = now()) => {
    push(key, at);
    push(sourceKeyOf(source), at);
    return at;
  };
  // a right password clears the identity's count, and this attempt from the source's
  const succeeded = (key: string, source: string, at: number) => {
    attempts.delete(key);
    takeBack(sourceKeyOf(source), at);
  };

  return {
    attempt(key, source) {
      const wait = Math.max(waitFor(key, limit), waitFor(sourceKeyOf(source), sourceLimit));
      if (wait > 0) return { blocked: true, retryAfterMs: wait };
      const at = record(key, source);
      return { blocked: false, at, succeeded: () => succeeded(key, source, at) };
    },
    record,
    takeBack: succeeded,
    entries() {
      const cutoff = now() - windowMs;
      return [...attempts].map(([key, list]): [string, number[]] => [key, list.filter((t) => t > cutoff)]).filter(([, list]) => list.length > 0);
    },
    load(entries) {
      for (const [key, list] of entries) {
        for (const t of list) push(key, t);
        attempts.get(key)?.sort((a, b) => a - b);
      }
    },
  };
}
