// Realtime fan-out cannot be slowed for everyone by one client: topics with distinct options (one
// check each per event) are capped per client and per IP address with a clear 400, and a client
// that holds many of them gets its events from a slow lane, after the other subscribers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OPTION_GROUPS_PER_CLIENT, MAX_OPTION_GROUPS_PER_ORIGIN } from '../../server/realtime/broker';
import { startServer, type TestServer } from '../helpers/server';
import { realtimeKit } from '../helpers/sse';

let srv: TestServer;
let adminToken = '';
const kit = realtimeKit(() => srv.url);

/** `n` topics on posts, each with its own filter (distinct options). */
const filtered = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `posts/*?options=${encodeURIComponent(JSON.stringify({ query: { filter: `score != ${from + i}` } }))}`);

beforeAll(async () => {
  srv = await startServer();
  await kit.api('POST', '/api/admins', { email: 'rt@example.com', password: '1234567890', passwordConfirm: '1234567890' });
  adminToken = (await kit.api('POST', '/api/admins/auth-with-password', { identity: 'rt@example.com', password: '1234567890' })).body.token;
  const made = await kit.api('POST', '/api/collections', { name: 'posts', type: 'base', listRule: '', viewRule: '', createRule: '', schema: [{ name: 'score', type: 'number' }] }, adminToken);
  expect(made.status, JSON.stringify(made.body)).toBe(200);
});

afterAll(async () => {
  kit.closeAll();
  await srv?.close();
});

describe('caps on topics with distinct options', () => {
  it(`takes ${MAX_OPTION_GROUPS_PER_CLIENT} per client and refuses one more with a 400 naming the subscriptions`, async () => {
    const c = await kit.sse();
    const first = await kit.subscribe(c, filtered(MAX_OPTION_GROUPS_PER_CLIENT));
    expect(first.status, JSON.stringify(first.body)).toBe(204);
    // plain topics (no options) are one group whatever their number
    expect((await kit.subscribe(c, [...filtered(MAX_OPTION_GROUPS_PER_CLIENT), 'posts', 'posts/*', 'posts/abc'])).status).toBe(204);
    const over = await kit.subscribe(c, filtered(MAX_OPTION_GROUPS_PER_CLIENT + 1));
    expect(over.status).toBe(400);
    expect(over.body.data.subscriptions.code).toBe('validation_too_many_option_groups');
    expect(over.body.data.subscriptions.message).toContain(`${MAX_OPTION_GROUPS_PER_CLIENT}`);
    // the refused set did not replace the subscriptions held
    expect((await kit.subscribe(c, [])).status).toBe(204);
    c.close();
  });

  it(`counts every client of one IP address together (${MAX_OPTION_GROUPS_PER_ORIGIN})`, async () => {
    const clients = await Promise.all(Array.from({ length: MAX_OPTION_GROUPS_PER_ORIGIN / MAX_OPTION_GROUPS_PER_CLIENT + 1 }, () => kit.sse()));
    const statuses: number[] = [];
    for (const [i, c] of clients.entries()) statuses.push((await kit.subscribe(c, filtered(MAX_OPTION_GROUPS_PER_CLIENT, i * 1000))).status);
    expect(statuses.slice(0, -1).every((s) => s === 204)).toBe(true);
    const last = await kit.subscribe(clients[clients.length - 1], filtered(MAX_OPTION_GROUPS_PER_CLIENT, 99_000));
    expect(last.status).toBe(400);
    expect(last.body.data.subscriptions.message).toContain('per IP address');
    for (const c of clients) c.close();
  });
});

describe('the slow lane', () => {
  it("delivers an unrelated subscriber's event before a heavy client's many checked copies", async () => {
    const heavy = await kit.sse();
    expect((await kit.subscribe(heavy, filtered(60))).status).toBe(204);
    // subscribed after the heavy client: without the lanes its group was checked last
    const light = await kit.sse();
    expect((await kit.subscribe(light, ['posts/*'])).status).toBe(204);
    const arrivals: { client: 'heavy' | 'light'; at: number }[] = [];
    heavy.onFrame = (f) => f.event.startsWith('posts/') && arrivals.push({ client: 'heavy', at: performance.now() });
    light.onFrame = (f) => f.event.startsWith('posts/') && arrivals.push({ client: 'light', at: performance.now() });

    const created = await kit.api('POST', '/api/collections/posts/records', { score: 5000 });
    expect(created.status).toBe(200);
    await light.next((f) => f.event === 'posts/*' && f.data.record.id === created.body.id);
    // the heavy client still gets every copy its filters let through (all 60), only later
    for (let i = 0; i < 200 && arrivals.filter((a) => a.client === 'heavy').length < 60; i++) await new Promise((r) => setTimeout(r, 25));
    expect(arrivals.filter((a) => a.client === 'heavy')).toHaveLength(60);
    expect(arrivals[0].client).toBe('light');
    heavy.close();
    light.close();
  });

  it('keeps the admin copy on time too (a group with no query goes first)', async () => {
    const heavy = await kit.sse();
    expect((await kit.subscribe(heavy, filtered(40))).status).toBe(204);
    const admin = await kit.sse();
    expect((await kit.subscribe(admin, ['posts/*'], adminToken)).status).toBe(204);
    const order: string[] = [];
    heavy.onFrame = (f) => f.event.startsWith('posts/') && order.push('heavy');
    admin.onFrame = (f) => f.event.startsWith('posts/') && order.push('admin');
    expect((await kit.api('POST', '/api/collections/posts/records', { score: 6000 })).status).toBe(200);
    await admin.next((f) => f.event === 'posts/*');
    for (let i = 0; i < 200 && order.length < 41; i++) await new Promise((r) => setTimeout(r, 25));
    expect(order[0]).toBe('admin');
    expect(order).toHaveLength(41);
    heavy.close();
    admin.close();
  });
});
