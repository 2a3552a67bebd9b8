// Outpost's records import/export endpoints (server/http/records-io.ts): records-import takes an
// admin's batch of creates and updates, each in its own transaction, answered item by item in
// order; records-ids gives every id of a filter and sort in the list's order, records-by-ids the
// records of given ids in that order, as the list gives them. Bad input gets the
// error envelope; anyone but an admin gets 401.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startServer, type TestServer } from '../helpers/server';

let srv: TestServer;
let admin = '';
const IMPORT = '/api/collections/things/records-import';
const post = (body: unknown, token = admin, p = IMPORT) => http(srv.url, 'POST', p, { token, body });

beforeAll(async () => {
  srv = await startServer();
  const creds = { email: 'admin@example.com', password: '1234567890' };
  await http(srv.url, 'POST', '/api/admins', { body: { ...creds, passwordConfirm: creds.password } });
  admin = (await http(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: creds.email, password: creds.password } })).body.token;
  const made = await http(srv.url, 'POST', '/api/collections', {
    token: admin,
    body: {
      name: 'things',
      schema: [
        { name: 'title', type: 'text', required: true },
        { name: 'n', type: 'number', options: { max: 10 } },
      ],
      indexes: ['CREATE UNIQUE INDEX `idx_things_title` ON `things` (`title`)'],
    },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const view = await http(srv.url, 'POST', '/api/collections', { token: admin, body: { name: 'things_view', type: 'view', options: { query: 'SELECT id, title FROM things' } } });
  expect(view.status, JSON.stringify(view.body)).toBe(200);
});

afterAll(async () => {
  await srv?.close();
});

async function titles(): Promise<string[]> {
  const res = await http(srv.url, 'GET', '/api/collections/things/records?perPage=500&sort=title', { token: admin });
  return (res.body.items as Array<{ title: string }>).map((r) => r.title);
}

describe('records import batch', () => {
  it('creates and updates item by item, answering in order; a failing item writes nothing and stops nothing', async () => {
    const first = await post({ items: [{ data: { id: 'aaaaaaaaaaaaaa1', title: 'one', n: 1 } }] });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ items: [{ status: 200, id: 'aaaaaaaaaaaaaa1' }] });

    const res = await post({
      items: [
        { data: { title: 'two', n: 2 } },
        { data: { title: 'too big', n: 11 } },
        { update: 'aaaaaaaaaaaaaa1', data: { id: 'aaaaaaaaaaaaaa1', title: 'one again', n: 3 } },
        { data: { title: 'two' } },
        { update: 'missing00000000', data: { title: 'ghost' } },
        { data: { title: 'three', n: '4' } },
      ],
    });
    expect(res.status).toBe(200);
    const items = res.body.items as Array<Record<string, any>>;
    expect(items.map((r) => r.status)).toEqual([200, 400, 200, 400, 404, 200]);
    expect(items[1]).toMatchObject({ message: 'Failed to create record.', data: { n: { code: 'validation_max_number_constraint' } } });
    expect(items[2].id).toBe('aaaaaaaaaaaaaa1');
    expect(items[3].data.title.code).toBe('validation_not_unique');
    expect(await titles()).toEqual(['one again', 'three', 'two']);
    const three = await http(srv.url, 'GET', `/api/collections/things/records/${items[5].id}`, { token: admin });
    expect(three.body.n).toBe(4);
  });

  it('keeps answering other requests while a batch runs', async () => {
    const items = Array.from({ length: 500 }, (_, i) => ({ data: { title: `busy ${i}`, n: 1 } }));
    let done = false;
    const batch = post({ items }).finally(() => (done = true));
    const probes: number[] = [];
    while (!done) {
      const t0 = performance.now();
      expect((await http(srv.url, 'GET', '/api/health')).status).toBe(200);
      if (!done) probes.push(performance.now() - t0);
    }
    const res = await batch;
    expect(res.body.items.every((r: { status: number }) => r.status === 200)).toBe(true);
    expect(probes.length).toBeGreaterThan(2);
    probes.sort((a, b) => a - b);
    expect(probes[Math.floor(probes.length / 2)]).toBeLessThan(50);
  });

  it('is for admins only', async () => {
    const guest = await post({ items: [{ data: { title: 'guest' } }] }, '');
    expect(guest.status).toBe(401);
    expect(guest.body).toMatchObject({ code: 401, data: {} });
    expect(await titles()).not.toContain('guest');
  });

  it('answers bad input with the error envelope, never a 5xx', async () => {
    const bodies: unknown[] = [{}, { items: [] }, { items: 'x' }, { items: [null] }, { items: [{ data: [] }] }, { items: [{ data: {}, update: 5 }] }, { items: Array.from({ length: 501 }, () => ({ data: {} })) }];
    for (const body of bodies) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(Object.keys(res.body).sort()).toEqual(['code', 'data', 'message']);
    }
    const raw = await http(srv.url, 'POST', IMPORT, { token: admin, raw: '{"items": [', headers: { 'Content-Type': 'application/json' } });
    expect(raw.status).toBe(400);
    expect((await post({ items: [{ data: {} }] }, admin, '/api/collections/nothing/records-import')).status).toBe(404);
    expect((await post({ items: [{ data: {} }] }, admin, '/api/collections/things_view/records-import')).status).toBe(400);
  });
});

describe('records ids', () => {
  const IDS = '/api/collections/things/records-ids';
  const get = (query: string, token = admin, p = IDS) => http(srv.url, 'GET', `${p}${query}`, { token });

  it('gives every id of the filter and sort, in the order of the list', async () => {
    const many = Array.from({ length: 620 }, (_, i) => ({ data: { title: `bulk ${String(i).padStart(4, '0')}`, n: i % 7 } }));
    expect((await post({ items: many.slice(0, 500) })).status).toBe(200);
    expect((await post({ items: many.slice(500) })).status).toBe(200);
    const filter = encodeURIComponent('title ~ "bulk" && n != 3');
    const res = await get(`?filter=${filter}&sort=-n,title`);
    expect(res.status).toBe(200);
    expect(res.body.complete).toBe(true);
    const listed: string[] = [];
    for (let page = 1; ; page++) {
      const p = await http(srv.url, 'GET', `/api/collections/things/records?page=${page}&perPage=500&skipTotal=1&filter=${filter}&sort=-n,title`, { token: admin });
      listed.push(...(p.body.items as Array<{ id: string }>).map((r) => r.id));
      if (p.body.items.length < 500) break;
    }
    expect(listed.length).toBe(620 - many.filter((m) => m.data.n === 3).length);
    expect(res.body.ids).toEqual(listed);
    expect((await get('')).body.ids.length).toBeGreaterThanOrEqual(620);
  });

  it('is for admins only; a bad filter or sort is a 400, an unknown collection a 404', async () => {
    expect((await get('', '')).status).toBe(401);
    for (const q of ['?filter=' + encodeURIComponent('nope = 1'), '?filter=' + encodeURIComponent('title ~'), '?sort=nope']) {
      const res = await get(q);
      expect(res.status, q).toBe(400);
      expect(Object.keys(res.body).sort()).toEqual(['code', 'data', 'message']);
    }
    expect((await get('', admin, '/api/collections/nothing/records-ids')).status).toBe(404);
  });
});

describe('records by ids', () => {
  const BY_IDS = '/api/collections/things/records-by-ids';

  it('gives the records of the ids in their order, as the list gives them, leaving out ids gone', async () => {
    const res = await http(srv.url, 'GET', '/api/collections/things/records?perPage=5&sort=title', { token: admin });
    const listed = res.body.items as Array<{ id: string }>;
    const order = [listed[3].id, 'gone0000000000a', listed[0].id, listed[4].id];
    const got = await post({ ids: order }, admin, BY_IDS);
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    expect(got.body.items).toEqual([listed[3], listed[0], listed[4]]);
  });

  it('is for admins only; bad ids are a 400 with the envelope, an unknown collection a 404', async () => {
    expect((await post({ ids: ['x'] }, '', BY_IDS)).status).toBe(401);
    for (const body of [{}, { ids: [] }, { ids: [1] }, { ids: [''] }, { ids: Array.from({ length: 501 }, (_, i) => `id${i}`) }]) {
      const res = await post(body, admin, BY_IDS);
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(Object.keys(res.body).sort()).toEqual(['code', 'data', 'message']);
    }
    expect((await post({ ids: ['x'] }, admin, '/api/collections/nothing/records-by-ids')).status).toBe(404);
  });
});
