// A small sliding-window limiter for failed attempts (sign-ins, token guesses). Only failures are
// recorded, so an account that signs in correctly is never slowed; a key with `limit` failures
// inside `windowMs` is blocked until the oldest one ages out.
export interface RateLimiter {
  /** Milliseconds until `key` may try again (0 when it is not blocked). */
  retryAfter(key: string): number;
  /** Records one failure for `key`. */
  fail(key: string): void;
  /** Forgets `key` (after a success). */
  reset(key: string): void;
}

export interface RateLimiterOptions {
  limit: number;
  windowMs: number;
  /** Injectable clock for tests. */
  now?: () => number;
}

/** Keys kept at most; beyond it the oldest entries are dropped (bounded memory under a flood). */
const MAX_KEYS = 10_000;

export function createRateLimiter({ limit, windowMs, now = Date.now }: RateLimiterOptions): RateLimiter {
  const failures = new Map<string, number[]>();

  const recent = (key: string): number[] => {
    const cutoff = now() - windowMs;
    const list = (failures.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length) failures.set(key, list);
    else failures.delete(key);
    return list;
  };

  return {
    retryAfter(key) {
      const list = recent(key);
      if (list.length < limit) return 0;
      return Math.max(1, list[list.length - limit] + windowMs - now());
    },
    fail(key) {
      const list = recent(key);
      list.push(now());
      failures.delete(key); // re-insert so Map order tracks recency
      failures.set(key, list);
      if (failures.size > MAX_KEYS) {
        const oldest = failures.keys().next().value;
        if (oldest !== undefined) failures.delete(oldest);
      }
    },
    reset(key) {
      failures.delete(key);
    },
  };
}
