// One request must never stall the others: deep relation filters compile without fan-out, every
// read a request starts runs under a budget after which it is really stopped (its process is
// killed), and the event loop keeps answering meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_PASSWORD, http, startServer, type TestServer } from '../helpers/server';
import { budgetFor } from '../../server/db/read-admission';

const BUDGET_MS = 2000;
/** A guest's reads get a shorter budget (server/db/read-admission.ts budgetFor). */
const GUEST_BUDGET_MS = budgetFor({ key: 'ip:test', tier: 'guest' }, BUDGET_MS);
const DEMO3_ID = '1tmknxy2868d869';
const DEEP = 'self_rel_many.self_rel_many.self_rel_many.self_rel_many.self_rel_many.self_rel_many';

let srv: TestServer;
let userToken: string;
/** id → self_rel_many ids of the 60 linked records. */
const links = new Map<string, string[]>();
const titles = new Map<string, string>();

beforeAll(async () => {
  srv = await startServer({ fixture: true, queryTimeoutMs: BUDGET_MS });
  const auth = await http(srv.url, 'POST', '/api/collections/users/auth-with-password', {
    body: { identity: 'test@example.com', password: FIXTURE_PASSWORD },
  });
  userToken = auth.body.token;
  // 60 records through the open API, each linked to up to 8 earlier ones (a dense graph)
  const ids: string[] = [];
  for (let i = 0; i < 60; i++) {
    const rel = ids.slice(-8);
    const title = i === 7 ? 'x' : `t${i}`;
    const res = await http(srv.url, 'POST', '/api/collections/demo4/records', {
      token: userToken,
      body: { title, rel_one_no_cascade_required: DEMO3_ID, rel_many_no_cascade_required: [DEMO3_ID], self_rel_many: rel },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(res.body.id);
    links.set(res.body.id, rel);
    titles.set(res.body.id, title);
  }
}, 120_000);

afterAll(async () => {
  await srv?.close();
});

/** Records from which some path of exactly `depth` self_rel_many hops reaches a title 'x'. */
function expected(depth: number): string[] {
  let reach = new Map([...links.keys()].map((id) => [id, new Set([id])]));
  for (let d = 0; d < depth; d++) {
    reach = new Map([...reach].map(([id, set]) => [id, new Set([...set].flatMap((s) => links.get(s) ?? []))]));
  }
  return [...reach].filter(([, set]) => [...set].some((s) => titles.get(s) === 'x')).map(([id]) => id).sort();
}

async function timed(path: string, token?: string, body?: unknown) {
  const t0 = performance.now();
  const res = await http(srv.url, body === undefined ? 'GET' : 'POST', path, { token, body });
  return { ...res, ms: performance.now() - t0 };
}

describe('deep relation filters', () => {
  it("answers the depth-6 self_rel_many ?= filter well within the budget, with the right records", async () => {
    for (const depth of [2, 4, 6]) {
      const path = Array(depth).fill('self_rel_many').join('.');
      const res = await timed(`/api/collections/demo4/records?perPage=500&filter=${encodeURIComponent(`${path}.title?='x'`)}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.ms).toBeLessThan(BUDGET_MS);
      const got = (res.body.items as Array<{ id: string }>).map((r) => r.id).sort();
      expect(got).toEqual(expected(depth));
      expect(res.body.totalItems).toBe(got.length);
    }
    expect(expected(6).length).toBeGreaterThan(0);
  });

  it('keeps the all-elements meaning of a plain operator on a deep path', async () => {
    const res = await timed(`/api/collections/demo4/records?perPage=500&filter=${encodeURIComponent(`${DEEP}.title!='x'`)}`);
    expect(res.status).toBe(200);
    expect(res.ms).toBeLessThan(BUDGET_MS);
    // every record whose depth-6 reach is non-empty and holds no 'x'
    const reachesX = new Set(expected(6));
    for (const item of res.body.items as Array<{ id: string }>) expect(reachesX.has(item.id)).toBe(false);
  });

  it('sorts through deep paths; refuses an expand that would repeat records exponentially', async () => {
    const sorted = await timed(`/api/collections/demo4/records?perPage=50&sort=-${DEEP}.title`);
    expect(sorted.status).toBe(200);
    expect(sorted.ms).toBeLessThan(BUDGET_MS);
    const shallow = await timed(`/api/collections/demo4/records?perPage=50&expand=self_rel_many.self_rel_many`);
    expect(shallow.status).toBe(200);
    const last = (shallow.body.items as any[]).find((r) => r.self_rel_many.length === 8);
    expect(last.expand.self_rel_many).toHaveLength(8);
    const deep = await timed(`/api/collections/demo4/records?perPage=50&expand=${DEEP}`);
    expect(deep.status).toBe(400);
    expect(deep.body.message).toMatch(/^The expanded result is too large/);
    expect(deep.ms).toBeLessThan(BUDGET_MS * 2);
  });
});

describe('query budget', () => {
  const ENDLESS = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x AS id FROM c';

  beforeAll(async () => {
    const res = await http(srv.url, 'POST', '/api/collections', {
      token: FIXTURE_ADMIN_TOKEN,
      body: { name: 'endless', type: 'view', listRule: '', viewRule: '', options: { query: ENDLESS } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('stops an endless view list after the budget with a clear 400, while health keeps answering', async () => {
    const pool = srv.app.ctx.reads;
    const slow = timed('/api/collections/endless/records');
    // probe the health endpoint while the list runs
    const probes: number[] = [];
    let running = true;
    void slow.finally(() => (running = false));
    let pids: number[] = [];
    while (running) {
      const h = await timed('/api/health');
      expect(h.status).toBe(200);
      probes.push(h.ms);
      if (pids.length === 0) pids = pool.busyPids();
      await new Promise((r) => setTimeout(r, 25));
    }
    const res = await slow;
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 400, message: 'The request took too long to process and was stopped.', data: {} });
    expect(res.ms).toBeGreaterThanOrEqual(GUEST_BUDGET_MS - 50);
    expect(res.ms).toBeLessThan(GUEST_BUDGET_MS + 3000);
    expect(probes.length).toBeGreaterThan(5);
    probes.sort((a, b) => a - b);
    expect(probes[Math.floor(probes.length / 2)]).toBeLessThan(50);
    expect(probes[probes.length - 1]).toBeLessThan(1000);
    // the process that ran the statement is gone: the query was stopped, not abandoned
    expect(pids.length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 200));
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  });

  it('keeps serving lists and views after a stopped query, also while one runs', async () => {
    const slow = timed('/api/collections/endless/records?skipTotal=1&sort=-id');
    const fast = await timed('/api/collections/demo4/records?perPage=5');
    expect(fast.status).toBe(200);
    expect(fast.ms).toBeLessThan(BUDGET_MS);
    expect((await slow).status).toBe(400);
    const view = await timed('/api/collections/endless/records/5');
    expect([200, 400, 404]).toContain(view.status);
    expect(view.ms).toBeLessThan(BUDGET_MS + 3000);
    expect((await timed('/api/collections/demo4/records?perPage=1')).status).toBe(200);
  });

  it('bounds a filter through @collection on the endless view (rule-like joins) too', async () => {
    const res = await timed(`/api/collections/demo4/records?filter=${encodeURIComponent('@collection.endless.id ?= -1')}`, FIXTURE_ADMIN_TOKEN);
    expect(res.status).toBe(400);
    expect(res.ms).toBeLessThan(BUDGET_MS + 3000);
  });

  it('bounds a create rule through the endless view without holding the writer; health keeps answering', async () => {
    const made = await http(srv.url, 'POST', '/api/collections', {
      token: FIXTURE_ADMIN_TOKEN,
      body: { name: 'guarded', listRule: '', createRule: '@collection.endless.id ?= -1', schema: [{ name: 'title', type: 'text' }] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const slow = timed('/api/collections/guarded/records', undefined, { title: 'stopped' });
    let running = true;
    void slow.finally(() => (running = false));
    const probes: number[] = [];
    const writes: number[] = [];
    let pids: number[] = [];
    while (running) {
      const h = await timed('/api/health');
      expect(h.status).toBe(200);
      probes.push(h.ms);
      if (pids.length === 0) pids = srv.app.ctx.reads.busyPids();
      // a write meanwhile: the rule check must not hold the write connection
      const w = await timed('/api/collections/guarded/records', FIXTURE_ADMIN_TOKEN, { title: 'admin' });
      expect(w.status, JSON.stringify(w.body)).toBe(200);
      writes.push(w.ms);
      await new Promise((r) => setTimeout(r, 25));
    }
    const res = await slow;
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 400, message: 'The request took too long to process and was stopped.', data: {} });
    expect(res.ms).toBeGreaterThanOrEqual(GUEST_BUDGET_MS - 50);
    expect(res.ms).toBeLessThan(GUEST_BUDGET_MS + 3000);
    expect(probes.length).toBeGreaterThan(5);
    probes.sort((a, b) => a - b);
    writes.sort((a, b) => a - b);
    expect(probes[Math.floor(probes.length / 2)]).toBeLessThan(50);
    expect(writes[Math.floor(writes.length / 2)]).toBeLessThan(250);
    expect(pids.length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 200));
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
    // nothing of the stopped create was written
    const list = await timed(`/api/collections/guarded/records?perPage=500&filter=${encodeURIComponent("title='stopped'")}`, FIXTURE_ADMIN_TOKEN);
    expect(list.body.totalItems).toBe(0);
  });
});
