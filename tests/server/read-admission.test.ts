// Admission control in front of the read pool (server/db/read-admission.ts) against the real
// server: guests hammering a runaway public view hold one child at most and never delay a normal
// list; guests get a third of the budget; a read whose caller went away is stopped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetFor } from '../../server/db/read-admission';
import { FIXTURE_ADMIN_TOKEN, http, startServer, type TestServer } from '../helpers/server';

const BUDGET_MS = 3000;
const GUEST_BUDGET_MS = budgetFor({ key: 'ip:test', tier: 'guest' }, BUDGET_MS);
const ENDLESS = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x AS id FROM c';
let srv: TestServer;

async function timed(p: string, token?: string, signal?: AbortSignal): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(srv.url + p, { headers: token ? { Authorization: token } : {}, signal });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - t0 };
}

beforeAll(async () => {
  srv = await startServer({ fixture: true, queryTimeoutMs: BUDGET_MS });
  const admin = (body: unknown) => http(srv.url, 'POST', '/api/collections', { token: FIXTURE_ADMIN_TOKEN, body });
  expect((await admin({ name: 'endless', type: 'view', listRule: '', viewRule: '', options: { query: ENDLESS } })).status).toBe(200);
  expect((await admin({ name: 'posts', type: 'base', listRule: '', schema: [{ name: 'title', type: 'text' }, { name: 'score', type: 'number' }] })).status).toBe(200);
  for (let i = 0; i < 50; i++) {
    await http(srv.url, 'POST', '/api/collections/posts/records', { token: FIXTURE_ADMIN_TOKEN, body: { title: `post ${i}`, score: i } });
  }
}, 60_000);

afterAll(() => srv?.close());

describe('guests hammering a runaway public view', () => {
  it('hold one child at most, and a normal list never waits for them', async () => {
    const list = '/api/collections/posts/records?perPage=20&sort=-score';
    expect((await timed(list)).status).toBe(200); // its shape is now known to be cheap
    let hammering = true;
    const gone = new AbortController();
    const guests = Array.from({ length: 8 }, async () => {
      const statuses: number[] = [];
      while (hammering) {
        const res = await timed('/api/collections/endless/records', undefined, gone.signal).catch(() => null);
        if (res) statuses.push(res.status);
      }
      return statuses;
    });
    const lists: number[] = [];
    let busiest = 0;
    const until = Date.now() + GUEST_BUDGET_MS * 2.5;
    while (Date.now() < until) {
      const res = await timed(list);
      expect(res.status).toBe(200);
      lists.push(res.ms);
      busiest = Math.max(busiest, srv.app.ctx.reads.busyPids().length);
      await new Promise((r) => setTimeout(r, 20));
    }
    hammering = false;
    gone.abort(); // the guests leave: their queued reads are dropped
    const statuses = (await Promise.all(guests)).flat();
    // the runaway reads that ran were stopped at the guest budget with the 400, one after another
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set([400]));
    // one guest address: one runaway read at a time (the others wait their turn), plus the list
    expect(busiest).toBeLessThanOrEqual(2);
    lists.sort((a, b) => a - b);
    // without admission a list waited for a child behind the runaway reads (up to the budget)
    expect(lists[lists.length - 1]).toBeLessThan(GUEST_BUDGET_MS / 2);
  }, 60_000);
});

describe('budgets and callers that go away', () => {
  it("stops a guest's runaway read at the guest budget and an admin's at the full budget", async () => {
    const [guest, admin] = await Promise.all([timed('/api/collections/endless/records'), timed('/api/collections/endless/records', FIXTURE_ADMIN_TOKEN)]);
    expect([guest.status, admin.status]).toEqual([400, 400]);
    expect(guest.ms).toBeGreaterThanOrEqual(GUEST_BUDGET_MS - 50);
    expect(guest.ms).toBeLessThan(BUDGET_MS - 200);
    expect(admin.ms).toBeGreaterThanOrEqual(BUDGET_MS - 50);
  }, 30_000);

  it('stops the running read of a caller that disconnected, and drops its queued ones', async () => {
    const gone = new AbortController();
    // one runs (a guest's share), three wait behind it
    const calls = Array.from({ length: 4 }, () => timed('/api/collections/endless/records', undefined, gone.signal).catch(() => null));
    let pids: number[] = [];
    for (let i = 0; i < 100 && pids.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      pids = srv.app.ctx.reads.busyPids();
    }
    expect(pids.length).toBe(1);
    gone.abort();
    await Promise.all(calls);
    // the child running it is killed at once (not at the budget), and nothing else starts
    const t0 = Date.now();
    while (srv.app.ctx.reads.busyPids().length > 0 && Date.now() - t0 < GUEST_BUDGET_MS) await new Promise((r) => setTimeout(r, 20));
    expect(Date.now() - t0).toBeLessThan(GUEST_BUDGET_MS / 2);
    // its process is gone (reaped) well before the budget
    const alive = () => {
      try {
        process.kill(pids[0], 0);
        return true;
      } catch {
        return false;
      }
    };
    while (alive() && Date.now() - t0 < GUEST_BUDGET_MS) await new Promise((r) => setTimeout(r, 20));
    expect(alive()).toBe(false);
    expect(Date.now() - t0).toBeLessThan(GUEST_BUDGET_MS / 2);
    await new Promise((r) => setTimeout(r, 300));
    expect(srv.app.ctx.reads.busyPids()).toEqual([]);
  }, 30_000);
});
