// `serve --workers 2` (issue 35, "Every core"), the built server: two processes on one pb_data and
// one port, each request sent to the member the test means (one keep-alive connection per member,
// tests/helpers/workers.ts). A change acknowledged by one is seen by the other at once; a realtime
// client gets the events of writes made through either; the sign-in limit counts across both; a
// cron job runs once; concurrent creates through both never surface SQLITE_BUSY; a restore made
// through one restarts both on the restored data.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_ADMIN_TOKEN } from '../helpers/server';
import { connectSse, type SseClient } from '../helpers/sse';
import type { ServerProcess } from '../helpers/server-process';
import { call, fixtureWork, members, startWorkers, type Member } from '../helpers/workers';

const token = FIXTURE_ADMIN_TOKEN;
const TICKS_HOOK = `cronAdd("tick", "* * * * *", () => {
  let c;
  try { c = $app.dao().findCollectionByNameOrId("ticks"); } catch { return; }
  $app.dao().saveRecord(new Record(c, { minute: String(Math.floor(Date.now() / 60000)) }));
});
`;

/** The read budget (a guest gets a third, GUEST_MS) and a view that runs until it is stopped. */
const BUDGET_S = 3;
const GUEST_MS = 1000;
const ENDLESS = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x AS id FROM c';

let work = '';
let srv: ServerProcess;
let m: Member[] = [];
const open: SseClient[] = [];

const openCollection = (name: string, schema: unknown[]) => ({ name, type: 'base', schema, listRule: '', viewRule: '', createRule: '', updateRule: '', deleteRule: '' });

beforeAll(async () => {
  work = fixtureWork('outpost-workers-');
  fs.mkdirSync(path.join(work, 'pb_hooks'));
  fs.writeFileSync(path.join(work, 'pb_hooks', 'ticks.pb.js'), TICKS_HOOK);
  srv = await startWorkers(work, 2, ['--automigrate=false', `--queryTimeout=${BUDGET_S}`]);
  m = await members(srv.url, 2);
  // the cron job writes here from the next minute on (checked by the last test)
  expect((await m[0].call('POST', '/api/collections', { token, body: openCollection('ticks', [{ name: 'minute', type: 'text' }]) })).status).toBe(200);
}, 120_000);

afterAll(async () => {
  for (const c of open) c.close();
  for (const x of m) x.agent.destroy();
  await srv?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('serve --workers 2', () => {
  it('runs two members, one of them the leader', () => {
    expect(m).toHaveLength(2);
    expect(new Set(m.map((x) => x.pid)).size).toBe(2);
    expect(m.filter((x) => x.leader)).toHaveLength(1);
    expect(srv.output()).toContain('Workers:   2 processes');
  });

  it('a settings change is seen by the other worker as soon as it is acknowledged', async () => {
    for (let i = 0; i < 6; i++) {
      const [a, b] = i % 2 ? [m[1], m[0]] : [m[0], m[1]];
      const saved = await a.call('PATCH', '/api/settings', { token, body: { meta: { appName: `Cluster ${i}` } } });
      expect(saved.status).toBe(200);
      const seen = await b.call('GET', '/api/settings', { token });
      expect(seen.body.meta.appName).toBe(`Cluster ${i}`);
    }
  });

  it('a collection change is seen by the other worker as soon as it is acknowledged', async () => {
    const created = await m[0].call('POST', '/api/collections', { token, body: openCollection('notes', [{ name: 'title', type: 'text' }]) });
    expect(created.status).toBe(200);
    const rec = await m[1].call('POST', '/api/collections/notes/records', { body: { title: 'first' } });
    expect(rec.status).toBe(200);
    // closed to guests through one, refused by the other at once; opened again likewise
    expect((await m[1].call('PATCH', '/api/collections/notes', { token, body: { listRule: null } })).status).toBe(200);
    expect((await m[0].call('GET', '/api/collections/notes/records')).status).toBe(403);
    expect((await m[0].call('PATCH', '/api/collections/notes', { token, body: { listRule: '' } })).status).toBe(200);
    expect((await m[1].call('GET', '/api/collections/notes/records')).status).toBe(200);
  });

  it('a realtime client gets the events of writes made through either worker', async () => {
    // two streams (held by whichever worker their connection reached), each subscribed through another member
    const clients = [await connectSse(srv.url), await connectSse(srv.url)];
    open.push(...clients);
    for (const [i, c] of clients.entries()) {
      await c.next((f) => f.event === 'PB_CONNECT');
      const sub = await m[i].call('POST', '/api/realtime', { body: { clientId: c.clientId, subscriptions: ['notes'] } });
      expect(sub.status).toBe(204);
    }
    const ids: string[] = [];
    for (const x of m) {
      const r = await x.call('POST', '/api/collections/notes/records', { body: { title: `via ${x.id}` } });
      expect(r.status).toBe(200);
      ids.push(r.body.id);
    }
    expect((await m[1].call('DELETE', `/api/collections/notes/records/${ids[0]}`)).status).toBe(204);
    for (const c of clients) {
      for (const id of ids) await c.next((f) => f.event === 'notes' && f.data.action === 'create' && f.data.record.id === id);
      await c.next((f) => f.event === 'notes' && f.data.action === 'delete' && f.data.record.id === ids[0]);
    }
    // a client id no member holds is refused as before
    expect((await m[1].call('POST', '/api/realtime', { body: { clientId: 'nobody', subscriptions: ['notes'] } })).status).toBe(404);
  });

  it('concurrent creates through both workers all succeed (no SQLITE_BUSY)', async () => {
    expect((await m[0].call('POST', '/api/collections', { token, body: openCollection('bulk', [{ name: 'n', type: 'number' }]) })).status).toBe(200);
    const total = 300;
    const statuses: number[] = [];
    let next = 0;
    // 24 at a time, each on a new connection (dealt round both workers)
    await Promise.all(
      Array.from({ length: 24 }, async () => {
        while (next < total) {
          const n = next++;
          const r = await call(false, srv.url, 'POST', '/api/collections/bulk/records', { body: { n } });
          statuses.push(r.status);
          if (r.status !== 200) console.error(r.body);
        }
      }),
    );
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const list = await m[1].call('GET', '/api/collections/bulk/records?perPage=1', { token });
    expect(list.body.totalItems).toBe(total);
  });

  it('counts failed sign-ins across workers', async () => {
    const wrong = { identity: 'test@example.com', password: 'not-the-password' };
    for (let i = 0; i < 5; i++) expect((await m[i % 2].call('POST', '/api/admins/auth-with-password', { body: wrong })).status).toBe(400);
    // the sixth, through either worker, is over the limit of 5
    for (const x of m) expect((await x.call('POST', '/api/admins/auth-with-password', { body: wrong })).status).toBe(429);
  });

  it('a restore through one worker restarts both on the restored data', async () => {
    expect((await m[0].call('POST', '/api/backups', { token, body: { name: 'before.zip' } })).status).toBe(204);
    const late = await m[1].call('POST', '/api/collections/notes/records', { body: { title: 'after the backup' } });
    expect(late.status).toBe(200);
    for (const x of m) expect((await x.call('GET', `/api/collections/notes/records/${late.body.id}`)).status).toBe(200);
    expect((await m[1].call('POST', '/api/backups/before.zip/restore', { token })).status).toBe(204);
    for (const x of m) x.agent.destroy();
    await new Promise((r) => setTimeout(r, 500));
    await srv.waitHealthy(60_000);
    m = await members(srv.url, 2);
    // every worker reads the restored data.db, not the one it had open
    for (const x of m) expect((await x.call('GET', `/api/collections/notes/records/${late.body.id}`)).status).toBe(404);
    for (const x of m) expect((await x.call('POST', '/api/collections/notes/records', { body: { title: `after restore via ${x.id}` } })).status).toBe(200);
  });

  it("counts a guest's costly reads across workers (one at a time)", async () => {
    expect((await m[0].call('POST', '/api/collections', { token, body: { name: 'endless', type: 'view', listRule: '', viewRule: '', options: { query: ENDLESS } } })).status).toBe(200);
    const timed = async (x: Member) => {
      const t0 = performance.now();
      const r = await x.call('GET', '/api/collections/endless/records');
      return { status: r.status, ms: performance.now() - t0 };
    };
    // one guest (one address), one runaway read through each worker: the second waits for the first
    const [a, b] = await Promise.all(m.map(timed));
    expect([a.status, b.status]).toEqual([400, 400]);
    expect(Math.max(a.ms, b.ms)).toBeGreaterThanOrEqual(GUEST_MS * 1.9);
  }, 30_000);

  it('runs a cron job of pb_hooks once a minute, in the leader only', async () => {
    // (every minute both workers fire it; only the leader runs it)
    let minutes: string[] = [];
    for (let i = 0; i < 150 && minutes.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 500));
      const list = await m[1].call('GET', '/api/collections/ticks/records?perPage=100', { token });
      minutes = (list.body.items as Array<{ minute: string }>).map((r) => r.minute);
    }
    expect(minutes.length).toBeGreaterThanOrEqual(1);
    // a second run in the same minute would be the other worker's
    await new Promise((r) => setTimeout(r, 1500));
    const list = await m[0].call('GET', '/api/collections/ticks/records?perPage=100', { token });
    minutes = (list.body.items as Array<{ minute: string }>).map((r) => r.minute);
    expect(new Set(minutes).size).toBe(minutes.length);
  }, 90_000);
});
