// Outpost's GET /api/outpost/find-record/:id (server/http/find-record.ts): which collection holds a
// record id, across every base, auth and view collection, for admins only; a missing id answers
// 404 with a message of its own (unlike PocketBase's 'Not Found.' for a missing route).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startServer, type TestServer } from '../helpers/server';

let srv: TestServer;
let admin = '';
let user = '';
const COUNT = 55;
const find = (id: string, token = admin) => http(srv.url, 'GET', `/api/outpost/find-record/${encodeURIComponent(id)}`, { token });

beforeAll(async () => {
  srv = await startServer();
  const creds = { email: 'admin@example.com', password: '1234567890' };
  await http(srv.url, 'POST', '/api/admins', { body: { ...creds, passwordConfirm: creds.password } });
  admin = (await http(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: creds.email, password: creds.password } })).body.token;
  for (let i = 0; i < COUNT; i++) {
    const res = await http(srv.url, 'POST', '/api/collections', { token: admin, body: { name: `c${String(i).padStart(2, '0')}`, schema: [{ name: 'title', type: 'text' }] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const last = `c${COUNT - 1}`;
  expect((await http(srv.url, 'POST', `/api/collections/${last}/records`, { token: admin, body: { id: 'lastcollection1', title: 'x' } })).status).toBe(200);
  const users = await http(srv.url, 'POST', '/api/collections/users/records', {
    body: { id: 'someuserrecord1', email: 'u@example.com', password: '1234567890', passwordConfirm: '1234567890' },
  });
  expect(users.status, JSON.stringify(users.body)).toBe(200);
  user = (await http(srv.url, 'POST', '/api/collections/users/auth-with-password', { body: { identity: 'u@example.com', password: '1234567890' } })).body.token;
  // a view whose ids are not those of any table: only the view can answer for them
  const view = await http(srv.url, 'POST', '/api/collections', {
    token: admin,
    body: { name: 'zview', type: 'view', options: { query: "SELECT 'viewonlyrecord1' AS id, 'v' AS title" } },
  });
  expect(view.status, JSON.stringify(view.body)).toBe(200);
}, 60_000);

afterAll(async () => {
  await srv?.close();
});

describe('find-record', () => {
  it('finds a record in the last of 55+ collections and in users', async () => {
    const collections = await http(srv.url, 'GET', '/api/collections?perPage=200', { token: admin });
    const byName = new Map((collections.body.items as Array<{ id: string; name: string }>).map((c) => [c.name, c.id]));
    expect(byName.size).toBeGreaterThan(COUNT);
    const last = await find('lastcollection1');
    expect(last.status).toBe(200);
    expect(last.body).toEqual({ collectionId: byName.get(`c${COUNT - 1}`), collectionName: `c${COUNT - 1}`, id: 'lastcollection1' });
    const u = await find('someuserrecord1');
    expect(u.body).toEqual({ collectionId: byName.get('users'), collectionName: 'users', id: 'someuserrecord1' });
  });

  it('finds a record only a view collection gives', async () => {
    const res = await find('viewonlyrecord1');
    expect(res.status).toBe(200);
    expect(res.body.collectionName).toBe('zview');
  });

  it('answers a missing id with 404 and its own message, unlike a missing route', async () => {
    const res = await find('missingrecord01');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 404, message: 'No record with this id in any collection.', data: {} });
    const route = await http(srv.url, 'GET', '/api/outpost/no-such-route/x', { token: admin });
    expect(route.status).toBe(404);
    expect(route.body.message).toBe('Not Found.');
  });

  it('binds a hostile id as a value: 404, never 500', async () => {
    for (const id of [`"' OR 1=1 --`, "x' UNION SELECT 1 --", '%', 'x'.repeat(1000)]) {
      const res = await find(id);
      expect(res.status, id).toBe(404);
      expect(res.body.data).toEqual({});
    }
  });

  it('refuses guests and users as admin-only endpoints do', async () => {
    const guest = await find('lastcollection1', '');
    expect(guest.status).toBe(401);
    const asUser = await find('lastcollection1', user);
    expect([401, 403]).toContain(asUser.status);
    expect(asUser.body.data).toEqual({});
  });

  it('answers quickly with 100+ collections', async () => {
    for (let i = COUNT; i < 101; i++) {
      expect((await http(srv.url, 'POST', '/api/collections', { token: admin, body: { name: `c${i}`, schema: [{ name: 'title', type: 'text' }] } })).status).toBe(200);
    }
    await find('missingrecord01'); // warm-up: the statements' shape
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      expect((await find('lastcollection1')).status).toBe(200);
      times.push(performance.now() - t);
    }
    expect(Math.min(...times)).toBeLessThan(100);
  }, 60_000);
});
