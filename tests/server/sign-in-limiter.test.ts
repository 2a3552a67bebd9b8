// The sign-in limiter cannot be raced or flushed: an attempt is counted before its password is
// checked (100 concurrent guesses evaluate at most the limit's 5), a right password takes its
// count back, and a flood of 10,000 made-up identities from one address is stopped by the
// per-address limit without pushing the victim's counter out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_PASSWORD, http, startServer, type TestServer } from '../helpers/server';

let srv: TestServer;

beforeAll(async () => {
  srv = await startServer({ fixture: true });
});
afterAll(() => srv?.close());

const adminSignIn = (identity: string, password: string) => http(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity, password } });
const userSignIn = (identity: string, password: string) => http(srv.url, 'POST', '/api/collections/users/auth-with-password', { body: { identity, password } });

async function inBatches<T>(n: number, size: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i += size) out.push(...(await Promise.all(Array.from({ length: Math.min(size, n - i) }, (_, j) => fn(i + j)))));
  return out;
}

describe('concurrent guesses', () => {
  it('100 at once evaluate 5 passwords; the rest get 429 with Retry-After', async () => {
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => adminSignIn('test@example.com', `wrong-${i}`)));
    const evaluated = results.filter((r) => r.status === 400);
    const limited = results.filter((r) => r.status === 429);
    expect(evaluated).toHaveLength(5);
    expect(limited).toHaveLength(95);
    expect(evaluated[0].body.message).toBe('Failed to authenticate.');
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThan(0);
    // the right password is refused too while the identity is blocked
    expect((await adminSignIn('test@example.com', FIXTURE_PASSWORD)).status).toBe(429);
  });

  it('a right password takes its own count back (signing in often, one after another, is never limited)', async () => {
    const results = await inBatches(8, 1, () => userSignIn('test2@example.com', FIXTURE_PASSWORD));
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
  });
});

describe('a flood of made-up identities', () => {
  it('is stopped per address and cannot push out the victim\'s counter', async () => {
    // the victim: blocked after 5 failures
    for (let i = 0; i < 5; i++) expect((await userSignIn('test3@example.com', `wrong-${i}`)).status).toBe(400);
    expect((await userSignIn('test3@example.com', 'wrong-again')).status).toBe(429);
    // 10,000 distinct identities from the same address
    const flood = await inBatches(10_000, 100, (i) => userSignIn(`made-up-${i}@example.com`, 'guess'));
    const evaluated = flood.filter((r) => r.status === 400).length;
    expect(evaluated).toBeLessThanOrEqual(50);
    expect(flood.filter((r) => r.status === 429).length).toBe(10_000 - evaluated);
    // the victim is still blocked, even with its right password
    expect((await userSignIn('test3@example.com', FIXTURE_PASSWORD)).status).toBe(429);
  }, 120_000);
});
