// The records list keeps its compiled statements per collections version (server/query/plan-cache.ts)
// when nothing of the request's can change them. What must hold: a changed rule, field or index is
// obeyed by the next request; rules and filters that read @request.* or a date macro are compiled
// for each request (each caller sees its own rows); the same list twice answers the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_ADMIN_TOKEN, http, startServer, type TestServer } from '../helpers/server';

/** users/4q1xlclmfloku33 (test@example.com), minted with the fixture's key. */
const USER =
  'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6IjRxMXhsY2xtZmxva3UzMyIsInR5cGUiOiJhdXRoUmVjb3JkIiwiY29sbGVjdGlvbklkIjoiX3BiX3VzZXJzX2F1dGhfIiwiZXhwIjoyMjA4OTg1MjYxfQ.UwD8JvkbQtXpymT09d7J6fdA0aP9g4FJ1GPh_ggEkzc';
const USER_ID = '4q1xlclmfloku33';

let srv: TestServer;
const api = (method: string, p: string, token?: string, body?: unknown) => http(srv.url, method, p, { token, body });
const titles = async (p: string, token?: string) => {
  const res = await api('GET', p, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { titles: (res.body.items as Array<{ title: string }>).map((r) => r.title), total: res.body.totalItems as number };
};

beforeAll(async () => {
  srv = await startServer({ fixture: true });
  const created = await api('POST', '/api/collections', FIXTURE_ADMIN_TOKEN, {
    name: 'kept',
    type: 'base',
    listRule: '',
    schema: [
      { name: 'title', type: 'text' },
      { name: 'hidden', type: 'bool' },
      { name: 'n', type: 'number' },
      { name: 'owner', type: 'text' },
    ],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  for (let i = 0; i < 6; i++) {
    const body = { title: `t${i}`, hidden: i % 2 === 1, n: i, owner: i < 2 ? USER_ID : 'someone' };
    expect((await api('POST', '/api/collections/kept/records', FIXTURE_ADMIN_TOKEN, body)).status).toBe(200);
  }
});
afterAll(async () => {
  await srv?.close();
});

const LIST = '/api/collections/kept/records?filter=' + encodeURIComponent('n >= 0') + '&sort=-n&perPage=4';

describe('records list plans', () => {
  it('answers the same list the same way twice, and the next page too', async () => {
    const first = await titles(LIST);
    expect(first).toEqual({ titles: ['t5', 't4', 't3', 't2'], total: 6 });
    expect(await titles(LIST)).toEqual(first);
    expect(await titles(`${LIST}&page=2`)).toEqual({ titles: ['t1', 't0'], total: 6 });
  });

  it('obeys a changed rule, and an added index, on the next request', async () => {
    expect((await titles(LIST)).total).toBe(6);
    const patched = await api('PATCH', '/api/collections/kept', FIXTURE_ADMIN_TOKEN, { listRule: 'hidden = false', indexes: ['CREATE INDEX idx_kept_n ON kept (n)'] });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(await titles(LIST)).toEqual({ titles: ['t4', 't2', 't0'], total: 3 });
    // admins are not under the rule
    expect((await titles(LIST, FIXTURE_ADMIN_TOKEN)).total).toBe(6);
    const locked = await api('PATCH', '/api/collections/kept', FIXTURE_ADMIN_TOKEN, { listRule: null });
    expect(locked.status).toBe(200);
    expect((await api('GET', LIST)).status).toBe(403);
  });

  it('compiles @request rules and date macros per request: each caller sees its own rows', async () => {
    const patched = await api('PATCH', '/api/collections/kept', FIXTURE_ADMIN_TOKEN, { listRule: 'owner = @request.auth.id' });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(await titles(LIST)).toEqual({ titles: [], total: 0 });
    expect(await titles(LIST, USER)).toEqual({ titles: ['t1', 't0'], total: 2 });
    expect(await titles(LIST)).toEqual({ titles: [], total: 0 });
    const macro = '/api/collections/kept/records?filter=' + encodeURIComponent('created <= @now && n >= 0') + '&sort=-n';
    expect((await titles(macro, USER)).total).toBe(2);
  });

  it('refuses a filter that does not compile every time', async () => {
    for (let i = 0; i < 2; i++) expect((await api('GET', '/api/collections/kept/records?filter=' + encodeURIComponent('nope ~'), FIXTURE_ADMIN_TOKEN)).status).toBe(400);
  });
});
