// Realtime over HTTP on a copy of the fixture: the SSE stream and POST /api/realtime statuses,
// the official SDK as a client (subscribe, unsubscribe, reconnect), rule filtering for guests,
// users and admins, revoked auth (password change → no more events, 403 on re-subscribe),
// the OAuth2 redirect hand-over, hostile subscriptions and a client that never reads.
import net from 'node:net';
import { EventSource } from 'eventsource';
import PocketBase from 'pocketbase';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerOf } from '../../server/http/realtime';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_PASSWORD, http, startServer, type TestServer } from '../helpers/server';
import { connectSse, realtimeKit, type SseClient, type SseFrame } from '../helpers/sse';

// the SDK needs a global EventSource (Node 20 has none)
(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

let srv: TestServer;
const { api, sse, subscribe, closeAll } = realtimeKit(() => srv.url);

const signIn = async (collection: string, identity: string) => {
  const res = await api('POST', `/api/collections/${collection}/auth-with-password`, { identity, password: FIXTURE_PASSWORD });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token as string;
};
const createDemo2 = async (title: string) => {
  const res = await api('POST', '/api/collections/demo2/records', { title }, FIXTURE_ADMIN_TOKEN);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: string };
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Proves a frame did NOT arrive: waits for a later marker event that the same client does get. */
const eventsOf = (c: SseClient, topic: string) => c.frames.filter((f: SseFrame) => f.event === topic);

beforeAll(async () => {
  srv = await startServer({ fixture: true });
});

afterAll(async () => {
  closeAll();
  await srv?.close();
});

describe('GET /api/realtime', () => {
  it('streams PB_CONNECT first, unbuffered and uncompressed', async () => {
    const c = await sse();
    expect(c.headers['content-type']).toBe('text/event-stream');
    expect(c.headers['cache-control']).toBe('no-store');
    expect(c.headers['x-accel-buffering']).toBe('no');
    expect(c.headers['content-encoding']).toBeUndefined();
    const first = c.frames[0];
    expect(first.event).toBe('PB_CONNECT');
    expect(first.id).toBe(c.clientId);
    expect(c.clientId).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(first.raw).toBe(`id:${c.clientId}\nevent:PB_CONNECT\ndata:{"clientId":"${c.clientId}"}`);
  });
});

describe('POST /api/realtime', () => {
  it('answers 400 without a client id, 404 for an unknown one, 204 when set', async () => {
    const missing = await api('POST', '/api/realtime', { subscriptions: ['demo2/*'] });
    expect(missing.status).toBe(400);
    expect(missing.body.data.clientId.code).toBe('validation_required');
    const empty = await http(srv.url, 'POST', '/api/realtime', { raw: '' });
    expect(empty.status).toBe(400);
    const unknown = await api('POST', '/api/realtime', { clientId: 'nope', subscriptions: [] });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: 404, message: 'Missing or invalid client id.', data: {} });
    const c = await sse();
    expect((await subscribe(c, ['demo2/*'])).status).toBe(204);
  });

  it('rejects hostile bodies and topics with a 4xx, never a 500', async () => {
    const c = await sse();
    const cases: unknown[] = [
      { clientId: c.clientId, subscriptions: 'demo2/*' },
      { clientId: c.clientId, subscriptions: [1, 2] },
      { clientId: ['x'], subscriptions: [] },
      { clientId: 'x'.repeat(256) },
      [],
      'text',
    ];
    for (const body of cases) {
      const res = await api('POST', '/api/realtime', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe(400);
    }
    const many = await subscribe(c, Array.from({ length: 5000 }, (_, i) => `demo2/${i}`));
    expect(many.status).toBe(400);
    expect(many.body.data.subscriptions).toEqual({ code: 'validation_length_too_long', message: 'The maximum number of subscriptions is 1000.' });
    const huge = await subscribe(c, [`demo2/*?options=${encodeURIComponent(JSON.stringify({ query: { filter: 'x'.repeat(5000) } }))}`]);
    expect(huge.status).toBe(400);
    expect(huge.body.data).toEqual({
      subscriptions: { 0: { code: 'validation_length_too_long', message: 'The maximum length of a subscription is 2048 characters.' } },
    });
    const longId = await api('POST', '/api/realtime', { clientId: 'x'.repeat(256) });
    expect(longId.body.data).toEqual({ clientId: { code: 'validation_length_out_of_range', message: 'The length must be between 1 and 255.' } });
    const bad = await api('POST', '/api/realtime', undefined, undefined);
    expect(bad.status).toBe(400);
    // odd but well-formed topics are accepted and simply never match
    const odd = ['../../etc/passwd', 'unknown_collection/*', '"; DROP TABLE demo2; --', '?', '*', '/', 'demo2/*/x'];
    const badOptions = ['demo2/*?options=%zz', 'demo2/*?options={bad json'];
    expect((await subscribe(c, [...odd, ...badOptions, 'demo2/*'])).status).toBe(204);
    const rec = await createDemo2('hostile-topics-still-work');
    const frame = await c.next((f) => f.event === 'demo2/*' && f.data.record.id === rec.id);
    expect(frame.data.action).toBe('create');
    // undecodable options count as none (0.22); the other topics never match
    for (const t of badOptions) await c.next((f) => f.event === t && f.data.record.id === rec.id);
    expect(c.frames.filter((f) => odd.includes(f.event))).toEqual([]);
  });

  it('an empty list unsubscribes', async () => {
    const c = await sse();
    expect((await subscribe(c, ['demo2/*'])).status).toBe(204);
    expect((await subscribe(c, [])).status).toBe(204);
    const marker = await sse();
    await subscribe(marker, ['demo2/*']);
    const rec = await createDemo2('after-unsubscribe');
    await marker.next((f) => f.data?.record?.id === rec.id);
    await sleep(100);
    expect(c.frames.some((f) => f.data?.record?.id === rec.id)).toBe(false);
  });
});

describe('record events and rules', () => {
  it('sends create, update and delete to a guest on an open collection, shaped as the records API', async () => {
    const c = await sse();
    await subscribe(c, ['demo2/*']);
    const rec = await createDemo2('rt-create');
    const created = await c.next((f) => f.data?.record?.id === rec.id && f.data.action === 'create');
    const viewed = await api('GET', `/api/collections/demo2/records/${rec.id}`);
    expect(created.data.record).toEqual(viewed.body);
    expect(created.raw).toContain(`data:{"record":${JSON.stringify(viewed.body)},"action":"create"}`);
    const from = c.frames.length;
    expect((await api('PATCH', `/api/collections/demo2/records/${rec.id}`, { title: 'rt-updated' }, FIXTURE_ADMIN_TOKEN)).status).toBe(200);
    const updated = await c.next((f) => f.data?.action === 'update', 10_000, from);
    expect(updated.data.record.title).toBe('rt-updated');
    expect((await api('DELETE', `/api/collections/demo2/records/${rec.id}`, undefined, FIXTURE_ADMIN_TOKEN)).status).toBe(204);
    const deleted = await c.next((f) => f.data?.action === 'delete', 10_000, from);
    expect(deleted.data.record.id).toBe(rec.id);
  });

  it('follows the list and view rules for guest, user and admin (emails and tokenKey as the API shows them)', async () => {
    const userToken = await signIn('users', 'test@example.com'); // 4q1xlclmfloku33, emailVisibility false
    const guest = await sse();
    const user = await sse();
    const other = await sse();
    const admin = await sse();
    await subscribe(guest, ['users/*', 'users/4q1xlclmfloku33']);
    await subscribe(user, ['users/4q1xlclmfloku33', 'users/*'], userToken);
    await subscribe(other, ['users/oap640cot4yru2s'], userToken);
    await subscribe(admin, ['users/*'], FIXTURE_ADMIN_TOKEN);

    expect((await api('PATCH', '/api/collections/users/records/4q1xlclmfloku33', { name: 'rt-name' }, FIXTURE_ADMIN_TOKEN)).status).toBe(200);
    const adminEvent = await admin.next((f) => f.event === 'users/*');
    expect(adminEvent.data.record.email).toBe('test@example.com');
    expect(adminEvent.data.record.name).toBe('rt-name');
    // the owner sees itself through the view rule (own email shown), not through the null list rule
    const own = await user.next((f) => f.event === 'users/4q1xlclmfloku33');
    expect(own.data.record.email).toBe('test@example.com');
    for (const f of [adminEvent, own]) {
      expect(f.raw).not.toContain('tokenKey');
      expect(f.raw).not.toContain('passwordHash');
    }
    await sleep(150);
    expect(guest.frames.length).toBe(1); // PB_CONNECT only: list rule null, view rule needs auth
    expect(eventsOf(user, 'users/*')).toEqual([]);
    expect(other.frames.length).toBe(1);
  });

  it('hides an invisible email from guests and applies filter, fields and expand options', async () => {
    const guest = await sse();
    const options = (o: unknown) => `?options=${encodeURIComponent(JSON.stringify(o))}`;
    await subscribe(guest, [
      'nologin/*',
      `demo2/*${options({ query: { filter: 'title ~ "keep"' } })}`,
      `demo4/*${options({ query: { fields: 'id,title,expand.rel_one_no_cascade.title', expand: 'rel_one_no_cascade' } })}`,
    ]);
    const nologin = await api(
      'POST',
      '/api/collections/nologin/records',
      { email: 'rt-hidden@example.com', password: '1234567890', passwordConfirm: '1234567890', emailVisibility: false, name: 'x' },
      FIXTURE_ADMIN_TOKEN,
    );
    expect(nologin.status, JSON.stringify(nologin.body)).toBe(200);
    const n = await guest.next((f) => f.event === 'nologin/*');
    expect(n.data.record.email).toBeUndefined();
    expect(n.raw).not.toContain('rt-hidden@example.com');

    const skip = await createDemo2('rt-skip-me');
    const keep = await createDemo2('rt-keep-me');
    await guest.next((f) => f.data?.record?.id === keep.id);
    expect(guest.frames.some((f) => f.data?.record?.id === skip.id)).toBe(false);

    const d4 = await api(
      'POST',
      '/api/collections/demo4/records',
      {
        title: 'rt-expand',
        rel_one_no_cascade_required: '1tmknxy2868d869',
        rel_many_no_cascade_required: ['1tmknxy2868d869'],
        rel_one_no_cascade: 'lcl9d87w22ml6jy',
      },
      FIXTURE_ADMIN_TOKEN,
    );
    expect(d4.status, JSON.stringify(d4.body)).toBe(200);
    const e = await guest.next((f) => f.event.startsWith('demo4/*'));
    // demo3's rules need a non-users auth: a guest's expand leaves it out, fields still apply
    expect(e.data.record).toEqual({ id: d4.body.id, title: 'rt-expand' });
  });

  it('checks a delete against the row before it goes (a rule that reads the record)', async () => {
    const token = await signIn('clients', 'test@example.com'); // may read demo3
    const c = await sse();
    const filtered = `demo3/*?options=${encodeURIComponent(JSON.stringify({ query: { filter: 'title = "rt-doomed"' } }))}`;
    expect((await subscribe(c, [filtered], token)).status).toBe(204);
    const rec = await api('POST', '/api/collections/demo3/records', { title: 'rt-doomed' }, FIXTURE_ADMIN_TOKEN);
    await c.next((f) => f.data?.action === 'create' && f.data.record.id === rec.body.id);
    expect((await api('DELETE', `/api/collections/demo3/records/${rec.body.id}`, undefined, FIXTURE_ADMIN_TOKEN)).status).toBe(204);
    const gone = await c.next((f) => f.data?.action === 'delete');
    expect(gone.data.record).toMatchObject({ id: rec.body.id, title: 'rt-doomed' });
    // a user of "users" fails demo3's rule: no delete event for it
    const userToken = await signIn('users', 'test@example.com');
    const u = await sse();
    await subscribe(u, ['demo3/*'], userToken);
    const other = await api('POST', '/api/collections/demo3/records', { title: 'rt-other' }, FIXTURE_ADMIN_TOKEN);
    await api('DELETE', `/api/collections/demo3/records/${other.body.id}`, undefined, FIXTURE_ADMIN_TOKEN);
    await sleep(150);
    expect(u.frames.length).toBe(1);
  });

  it('stops events that needed an auth whose password changed, and 403s its re-subscribe', async () => {
    const token = await signIn('clients', 'test@example.com'); // gk390qegs4y47wn, may read demo3
    const c = await sse();
    expect((await subscribe(c, ['demo3/*'], token)).status).toBe(204);
    const before = await api('POST', '/api/collections/demo3/records', { title: 'rt-before' }, FIXTURE_ADMIN_TOKEN);
    expect(before.status).toBe(200);
    await c.next((f) => f.data?.record?.id === before.body.id);

    // another client connected as someone else cannot take this client over
    const adminTakeover = await subscribe(c, ['demo3/*'], FIXTURE_ADMIN_TOKEN);
    expect(adminTakeover.status).toBe(403);
    expect(adminTakeover.body.message).toBe("The current and the previous request authorization don't match.");

    const changed = await api(
      'PATCH',
      '/api/collections/clients/records/gk390qegs4y47wn',
      { password: 'rt-new-password', passwordConfirm: 'rt-new-password' },
      FIXTURE_ADMIN_TOKEN,
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const marker = await sse();
    await subscribe(marker, ['demo3/*'], FIXTURE_ADMIN_TOKEN);
    const after = await api('POST', '/api/collections/demo3/records', { title: 'rt-after' }, FIXTURE_ADMIN_TOKEN);
    await marker.next((f) => f.data?.record?.id === after.body.id);
    await sleep(100);
    expect(c.frames.some((f) => f.data?.record?.id === after.body.id)).toBe(false);
    // the old token is now a guest: not the auth the client subscribed with
    expect((await subscribe(c, ['demo3/*'], token)).status).toBe(403);
  });
});

describe('the official SDK', () => {
  it('subscribes, receives, unsubscribes and reconnects with its resubmission', async () => {
    const pb = new PocketBase(srv.url);
    pb.autoCancellation(false);
    const got: Array<{ action: string; record: { id: string; title: string } }> = [];
    const unsubscribe = await pb.collection('demo2').subscribe('*', (e) => got.push(e as never));
    expect(pb.realtime.isConnected).toBe(true);
    const a = await createDemo2('sdk-a');
    await expect.poll(() => got.find((e) => e.record.id === a.id)?.action, { timeout: 10_000 }).toBe('create');

    // the server drops the connection: the SDK reconnects (200 ms, 300 ms, …) and resubmits
    const broker = brokerOf(srv.app.ctx)!;
    const firstId = pb.realtime.clientId;
    broker.unregister(firstId);
    await expect.poll(() => pb.realtime.isConnected && pb.realtime.clientId !== firstId, { timeout: 15_000 }).toBe(true);
    await expect.poll(() => broker.get(pb.realtime.clientId)?.topics.size ?? 0, { timeout: 10_000 }).toBe(1);
    const b = await createDemo2('sdk-b');
    await expect.poll(() => got.some((e) => e.record.id === b.id), { timeout: 10_000 }).toBe(true);

    await unsubscribe();
    expect(pb.realtime.isConnected).toBe(false);
    const c = await createDemo2('sdk-c');
    await sleep(200);
    expect(got.some((e) => e.record.id === c.id)).toBe(false);
  });
});

describe('GET /api/oauth2-redirect', () => {
  it('hands the code to the client subscribed to @oauth2 with a matching state, once', async () => {
    const c = await sse();
    const redirect = (q: string) => fetch(`${srv.url}/api/oauth2-redirect${q}`, { redirect: 'manual' });
    const noState = await redirect('?code=123');
    expect(noState.status).toBe(307);
    expect(noState.headers.get('location')).toBe('../_/#/auth/oauth2-redirect-failure');
    // not subscribed to @oauth2 yet
    expect((await redirect(`?code=123&state=${c.clientId}`)).headers.get('location')).toContain('failure');
    await subscribe(c, ['@oauth2']);
    const ok = await redirect(`?code=abc&state=${c.clientId}`);
    expect(ok.status).toBe(307);
    expect(ok.headers.get('location')).toBe('../_/#/auth/oauth2-redirect-success');
    const msg = await c.next((f) => f.event === '@oauth2');
    expect(msg.raw).toBe(`id:${c.clientId}\nevent:@oauth2\ndata:{"state":"${c.clientId}","code":"abc"}`);
    // the topic is consumed
    expect((await redirect(`?code=abc&state=${c.clientId}`)).headers.get('location')).toContain('failure');
    await subscribe(c, ['@oauth2']);
    expect((await redirect(`?code=abc&error=denied&state=${c.clientId}`)).headers.get('location')).toContain('failure');
    const err = await c.next((f) => f.event === '@oauth2' && f.data.error === 'denied');
    expect(err.data).toEqual({ state: c.clientId, code: 'abc', error: 'denied' });
  });

  it("drives the SDK's all-in-one authWithOAuth2 up to the code exchange", async () => {
    const settings = srv.app.ctx.settings;
    const current = settings.get();
    settings.save({ ...current, gitlabAuth: { ...(current.gitlabAuth as object), enabled: true, clientId: 'id', clientSecret: 'secret' } });
    const pb = new PocketBase(srv.url);
    pb.autoCancellation(false);
    let exchange: Record<string, unknown> | null = null;
    pb.beforeSend = (url, options) => {
      if (url.includes('auth-with-oauth2')) exchange = options.body as Record<string, unknown>;
      return { url, options };
    };
    const done = pb.collection('users').authWithOAuth2({
      provider: 'gitlab',
      urlCallback: async (url) => {
        const state = new URL(url).searchParams.get('state')!;
        expect(state).toMatch(/^[A-Za-z0-9]{40}$/); // the SDK's realtime client id
        // the provider would send the browser here
        await fetch(`${srv.url}/api/oauth2-redirect?state=${encodeURIComponent(state)}&code=the-code`, { redirect: 'manual' });
      },
    });
    // the exchange itself is another issue: whatever it answers, the SDK got the code
    await done.catch(() => undefined);
    expect(exchange).toMatchObject({ provider: 'gitlab', code: 'the-code', redirectUrl: `${srv.url}/api/oauth2-redirect` });
  });
});

describe('many and slow clients', () => {
  it('drops a client that never reads instead of buffering without bound', async () => {
    const broker = brokerOf(srv.app.ctx)!;
    const { port } = new URL(srv.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    socket.write(`GET /api/realtime HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
    const head = await new Promise<string>((resolve) => socket.once('data', (d) => resolve(String(d))));
    socket.pause(); // from now on it never reads
    const clientId = /"clientId":"(\w+)"/.exec(head)![1];
    expect((await api('POST', '/api/realtime', { clientId, subscriptions: ['demo2/*'] })).status).toBe(204);
    const reader = await sse();
    await subscribe(reader, ['demo2/*']);
    const big = 'x'.repeat(200_000);
    let last = '';
    for (let i = 0; i < 80 && broker.get(clientId); i++) {
      last = (await createDemo2(`slow-${i}-${big}`)).id;
    }
    expect(broker.get(clientId)).toBeUndefined();
    // the reading client got everything up to the last write
    await reader.next((f) => f.data?.record?.id === last, 20_000);
    socket.destroy();
  });
});

describe('idle connections', () => {
  it('closes a connection without messages after the idle timeout', async () => {
    const quick = await startServer({ fixture: false, options: { realtimeIdleMs: 300 } });
    try {
      const c = await connectSse(quick.url);
      await Promise.race([c.closed, sleep(10_000).then(() => Promise.reject(new Error('not closed')))]);
      expect(c.isClosed()).toBe(true);
      const res = await http(quick.url, 'POST', '/api/realtime', { body: { clientId: c.clientId, subscriptions: [] } });
      expect(res.status).toBe(404);
    } finally {
      await quick.close();
    }
  });
});
