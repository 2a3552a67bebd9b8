// Two separate Outpost instances (the built server, two ports, one pb_data) joined through Debian's
// nats-server on loopback (`serve --natsUrl`, issue 35): they share realtime events, settings and
// collection changes (seen by the other one as soon as they are acknowledged), the sign-in limits
// and one leader; concurrent creates through both never surface SQLITE_BUSY; a restore through one
// restarts both on the restored data; an instance serving another pb_data cannot join; the
// sign-in limits hold when the leader dies, and for an instance that joins after (it loads the
// leader's copy).
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_ADMIN_TOKEN } from '../helpers/server';
import { connectSse, type SseClient } from '../helpers/sse';
import type { ServerProcess } from '../helpers/server-process';
import { startNats, type TestNats } from '../helpers/nats';
import { call, fixtureWork, startWorkers } from '../helpers/workers';

const token = FIXTURE_ADMIN_TOKEN;
let work = '';
let nats: TestNats;
const instances: ServerProcess[] = [];
let sse: SseClient | undefined;

const on = (i: number, method: string, p: string, opts: { body?: unknown; token?: string } = {}) => call(false, instances[i].url, method, p, opts);
const memberOf = async (i: number) => (await on(i, 'GET', '/api/health', { token })).body.data.member as { id: string; leader: boolean; members: number; transport: string };

beforeAll(async () => {
  nats = await startNats();
  work = fixtureWork('outpost-nats-');
  // one after the other: the first start's writes (migrations, settings) happen once
  for (let i = 0; i < 2; i++) instances.push(await startWorkers(work, 1, ['--automigrate=false', `--natsUrl=${nats.url}`]));
  // presence: each sees the other within a beat
  for (let i = 0; i < 100 && ((await memberOf(0)).members < 2 || (await memberOf(1)).members < 2); i++) await new Promise((r) => setTimeout(r, 100));
}, 120_000);

afterAll(async () => {
  sse?.close();
  for (const s of instances) await s.stop();
  await nats?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('two instances through NATS', () => {
  it('know each other, and one of them leads', async () => {
    const members = [await memberOf(0), await memberOf(1)];
    expect(members.map((x) => x.transport)).toEqual(['nats', 'nats']);
    expect(members.map((x) => x.members)).toEqual([2, 2]);
    expect(members.filter((x) => x.leader)).toHaveLength(1);
    expect(members[0].id).not.toBe(members[1].id);
  });

  it('a settings change is seen by the other instance as soon as it is acknowledged', async () => {
    for (let i = 0; i < 4; i++) {
      expect((await on(i % 2, 'PATCH', '/api/settings', { token, body: { meta: { appName: `Nats ${i}` } } })).status).toBe(200);
      expect((await on(1 - (i % 2), 'GET', '/api/settings', { token })).body.meta.appName).toBe(`Nats ${i}`);
    }
  });

  it('a collection change is seen by the other instance as soon as it is acknowledged', async () => {
    const body = { name: 'notes', type: 'base', schema: [{ name: 'title', type: 'text' }], listRule: '', viewRule: '', createRule: '', updateRule: '', deleteRule: '' };
    expect((await on(0, 'POST', '/api/collections', { token, body })).status).toBe(200);
    expect((await on(1, 'POST', '/api/collections/notes/records', { body: { title: 'first' } })).status).toBe(200);
    expect((await on(1, 'PATCH', '/api/collections/notes', { token, body: { listRule: null } })).status).toBe(200);
    expect((await on(0, 'GET', '/api/collections/notes/records')).status).toBe(403);
    expect((await on(0, 'PATCH', '/api/collections/notes', { token, body: { listRule: '' } })).status).toBe(200);
  });

  it('a realtime client of one instance gets the events of writes made through the other', async () => {
    sse = await connectSse(instances[1].url);
    await sse.next((f) => f.event === 'PB_CONNECT');
    // subscribed through the instance that does not hold the stream
    expect((await on(0, 'POST', '/api/realtime', { body: { clientId: sse.clientId, subscriptions: ['notes'] } })).status).toBe(204);
    const a = await on(0, 'POST', '/api/collections/notes/records', { body: { title: 'through the first' } });
    const b = await on(1, 'POST', '/api/collections/notes/records', { body: { title: 'through the second' } });
    await sse.next((f) => f.event === 'notes' && f.data.record.id === a.body.id);
    await sse.next((f) => f.event === 'notes' && f.data.record.id === b.body.id);
  });

  it('counts failed sign-ins across instances', async () => {
    const wrong = { identity: 'test@example.com', password: 'not-the-password' };
    for (let i = 0; i < 5; i++) expect((await on(i % 2, 'POST', '/api/admins/auth-with-password', { body: wrong })).status).toBe(400);
    for (const i of [0, 1]) expect((await on(i, 'POST', '/api/admins/auth-with-password', { body: wrong })).status).toBe(429);
  });

  it('concurrent creates through both instances all succeed (no SQLITE_BUSY)', async () => {
    const total = 200;
    let next = 0;
    const bad: unknown[] = [];
    await Promise.all(
      Array.from({ length: 16 }, async (_, w) => {
        while (next < total) {
          const n = next++;
          const r = await on(w % 2, 'POST', '/api/collections/notes/records', { body: { title: `bulk ${n}` } });
          if (r.status !== 200) bad.push(r.body);
        }
      }),
    );
    expect(bad).toEqual([]);
  });

  it('a restore through one instance restarts both on the restored data', async () => {
    const early = await on(0, 'POST', '/api/collections/notes/records', { body: { title: 'before the backup' } });
    expect((await on(0, 'POST', '/api/backups', { token, body: { name: 'before.zip' } })).status).toBe(204);
    const late = await on(1, 'POST', '/api/collections/notes/records', { body: { title: 'after the backup' } });
    expect(late.status).toBe(200);
    for (const i of [0, 1]) expect((await on(i, 'GET', `/api/collections/notes/records/${late.body.id}`)).status).toBe(200);
    expect((await on(1, 'POST', '/api/backups/before.zip/restore', { token })).status).toBe(204);
    await new Promise((r) => setTimeout(r, 500));
    for (const s of instances) await s.waitHealthy(60_000);
    for (const i of [0, 1]) {
      // the restored data.db on both, not the one each had open, and no closed database
      expect((await on(i, 'GET', `/api/collections/notes/records/${late.body.id}`)).status).toBe(404);
      expect((await on(i, 'GET', `/api/collections/notes/records/${early.body.id}`)).status).toBe(200);
      expect((await on(i, 'POST', '/api/collections/notes/records', { body: { title: `after the restore via ${i}` } })).status).toBe(200);
    }
    expect([...instances.map((s) => s.output())].join('')).not.toMatch(/database connection is not open|did not pause in time/);
  }, 90_000);

  it('an instance of this machine with a pb_data of its own cannot join', async () => {
    const own = fixtureWork('outpost-nats-other-');
    try {
      const error = await startWorkers(own, 1, ['--automigrate=false', `--natsUrl=${nats.url}`]).then(
        (s) => s.stop().then(() => 'it started'),
        (e: Error) => e.message,
      );
      expect(error).toMatch(/cannot join the cluster .*share one pb_data/);
      expect([await memberOf(0), await memberOf(1)].map((m) => m.members)).toEqual([2, 2]);
    } finally {
      fs.rmSync(own, { recursive: true, force: true });
    }
  });

  it('the sign-in limits hold when the leader dies, and for an instance that joins after', async () => {
    const wrong = { identity: 'failover@example.com', password: 'not-the-password' };
    const signIn = async (i: number, body = wrong) => (await on(i, 'POST', '/api/admins/auth-with-password', { body })).status;
    for (let i = 0; i < 5; i++) expect(await signIn(i % 2)).toBe(400);
    const leader = (await memberOf(0)).leader ? 0 : 1;
    const other = 1 - leader;
    // a crash: the other instance decides from its copy before it notices the leader is gone
    await instances[leader].stop('SIGKILL');
    expect(await signIn(other)).toBe(429);
    expect(await signIn(other, { ...wrong, identity: 'someone-else@example.com' })).toBe(400);
    for (let i = 0; i < 100 && !(await memberOf(other)).leader; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await memberOf(other)).toMatchObject({ leader: true, members: 1 });
    expect(await signIn(other)).toBe(429);
    // a new instance joins (it loads the leader's copy), then the leader stops cleanly
    instances[leader] = await startWorkers(work, 1, ['--automigrate=false', `--natsUrl=${nats.url}`]);
    for (let i = 0; i < 100 && (await memberOf(leader)).members < 2; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await signIn(leader)).toBe(429);
    await instances[other].stop();
    expect(await memberOf(leader)).toMatchObject({ leader: true, members: 1 });
    expect(await signIn(leader)).toBe(429);
  }, 60_000);
});
