// Records API on a copy of PocketBase 0.22.12's own test fixture, over HTTP with the SDK as
// client: every rule outcome for guest / user / admin, list parameters, expand (nested,
// back-relations, rules applied), fields, hidden email, views, cascade delete and bad input.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import PocketBase, { ClientResponseError } from 'pocketbase';
import { http, startServer, type TestServer } from '../helpers/server';
import { newRecordAuthToken } from '../../server/services/tokens';
import { onRecordChange, type RecordChange } from '../../server/records/events';

const ADMIN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6InN5d2JoZWNuaDQ2cmhtMCIsInR5cGUiOiJhZG1pbiIsImV4cCI6MjIwODk4NTI2MX0.M1m--VOqGyv0d23eeUc0r9xE8ZzHaYVmVFw1VZW6gT8';
/** users/4q1xlclmfloku33 (test@example.com). */
const USER =
  'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6IjRxMXhsY2xtZmxva3UzMyIsInR5cGUiOiJhdXRoUmVjb3JkIiwiY29sbGVjdGlvbklkIjoiX3BiX3VzZXJzX2F1dGhfIiwiZXhwIjoyMjA4OTg1MjYxfQ.UwD8JvkbQtXpymT09d7J6fdA0aP9g4FJ1GPh_ggEkzc';

let srv: TestServer;
let CLIENT = '';
const api = (method: string, p: string, opts: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {}) =>
  http(srv.url, method, p, opts);
const sdk = (token?: string): PocketBase => {
  const pb = srv.client();
  if (token) pb.authStore.save(token, null);
  return pb;
};
async function status(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (err) {
    return (err as ClientResponseError).status;
  }
}

beforeAll(async () => {
  srv = await startServer({ fixture: true });
  // a clients token (verified test@example.com) minted with the fixture's key
  const row = srv.app.db.prepare("SELECT id, tokenKey FROM clients WHERE id = 'gk390qegs4y47wn'").get() as { id: string; tokenKey: string };
  CLIENT = newRecordAuthToken(srv.app.ctx.settings.get(), { id: row.id, tokenKey: row.tokenKey, collectionId: 'v851q4r790rhknl' });
});

afterAll(async () => {
  await srv?.close();
});

describe('rules: null = admins only', () => {
  it('answers 403 to guests and users for every action on demo1', async () => {
    for (const token of [undefined, USER]) {
      for (const [m, p, body] of [
        ['GET', '/api/collections/demo1/records'],
        ['GET', '/api/collections/demo1/records/84nmscqy84lsi1t'],
        ['POST', '/api/collections/demo1/records', {}],
        ['PATCH', '/api/collections/demo1/records/84nmscqy84lsi1t', {}],
        ['DELETE', '/api/collections/demo1/records/84nmscqy84lsi1t'],
      ] as const) {
        const res = await api(m, p, { token, body });
        expect(res.status, `${m} ${p} ${token ? 'user' : 'guest'}`).toBe(403);
        expect(res.body).toEqual({ code: 403, message: 'Only admins can perform this action.', data: {} });
      }
    }
  });

  it('lets admins do everything', async () => {
    const list = await sdk(ADMIN).collection('demo1').getList(1, 10);
    expect(list.totalItems).toBe(3);
    const one = await sdk(ADMIN).collection('demo1').getOne('84nmscqy84lsi1t');
    expect(one.text).toBe('test');
  });
});

describe('rules: "" = everyone, expressions filter', () => {
  it('lists and views demo2 for guests', async () => {
    const list = await sdk().collection('demo2').getFullList({ sort: 'title' });
    expect(list.map((r) => r.title)).toEqual(['test1', 'test2', 'test3']);
    expect(Object.keys(list[0])).toEqual([...Object.keys(list[0])].sort());
  });

  it('applies the list rule as a filter (demo5: select_many:length = 3)', async () => {
    const res = await api('GET', '/api/collections/demo5/records');
    expect(res.status).toBe(200);
    for (const item of res.body.items) expect(item.select_many).toHaveLength(3);
  });

  it('answers 404 when the view rule fails and 200 when it passes (users: id = @request.auth.id)', async () => {
    expect((await api('GET', '/api/collections/users/records/4q1xlclmfloku33')).status).toBe(404);
    expect((await api('GET', '/api/collections/users/records/oap640cot4yru2s', { token: USER })).status).toBe(404);
    const own = await api('GET', '/api/collections/users/records/4q1xlclmfloku33', { token: USER });
    expect(own.status).toBe(200);
    expect(own.body.email).toBe('test@example.com');
    expect(own.body.passwordHash).toBeUndefined();
    expect(own.body.tokenKey).toBeUndefined();
  });

  it('answers 403 to a guest list of users (null listRule) but not to an admin', async () => {
    expect((await api('GET', '/api/collections/users/records')).status).toBe(403);
    const res = await api('GET', '/api/collections/users/records', { token: ADMIN });
    expect(res.body.totalItems).toBe(3);
    // admins see every email
    expect(res.body.items.every((u: any) => typeof u.email === 'string')).toBe(true);
  });

  it('demo3 rule: only non-users auth records', async () => {
    expect((await api('GET', '/api/collections/demo3/records')).body.totalItems).toBe(0);
    expect((await api('GET', '/api/collections/demo3/records', { token: USER })).body.totalItems).toBe(0);
    expect((await api('GET', '/api/collections/demo3/records', { token: CLIENT })).body.totalItems).toBe(4);
    expect((await api('GET', '/api/collections/demo3/records/7nwo8tuiatetxdm', { token: USER })).status).toBe(404);
    expect((await api('GET', '/api/collections/demo3/records/7nwo8tuiatetxdm', { token: CLIENT })).status).toBe(200);
    // create fails the rule with 400, update/delete with 404
    expect((await api('POST', '/api/collections/demo3/records', { token: USER, body: { title: 'x' } })).status).toBe(400);
    expect((await api('PATCH', '/api/collections/demo3/records/7nwo8tuiatetxdm', { token: USER, body: { title: 'x' } })).status).toBe(404);
    expect((await api('DELETE', '/api/collections/demo3/records/7nwo8tuiatetxdm', { token: USER })).status).toBe(404);
    const created = await api('POST', '/api/collections/demo3/records', { token: CLIENT, body: { title: 'by client' } });
    expect(created.status).toBe(200);
    expect(created.body.title).toBe('by client');
  });

  it('create rule with @request.data (demo5: total = 3) and modifiers resolved first', async () => {
    const fail = await api('POST', '/api/collections/demo5/records', { body: { total: 2 } });
    expect(fail.status).toBe(400);
    expect(fail.body).toEqual({ code: 400, message: 'Failed to create record.', data: {} });
    expect((await api('POST', '/api/collections/demo5/records', { body: { total: 3 } })).status).toBe(200);
    const mod = await api('POST', '/api/collections/demo5/records', { body: { 'total+': 3 } });
    expect(mod.status).toBe(200);
    expect(mod.body.total).toBe(3);
  });

  it('delete rule with @request.query (demo5: test:isset)', async () => {
    expect((await api('DELETE', '/api/collections/demo5/records/la4y2w4o98acwuj')).status).toBe(404);
    expect((await api('DELETE', '/api/collections/demo5/records/la4y2w4o98acwuj?test=1')).status).toBe(204);
  });

  it('forbids @request / @collection in a non-admin filter or sort', async () => {
    const res = await api('GET', `/api/collections/demo2/records?filter=${encodeURIComponent("@request.auth.id != ''")}`);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Only admins can filter by @request.');
    expect((await api('GET', `/api/collections/demo2/records?sort=${encodeURIComponent('@collection.demo2.title')}`)).status).toBe(403);
    expect((await api('GET', `/api/collections/demo2/records?filter=${encodeURIComponent("@request.auth.id = ''")}`, { token: ADMIN })).status).toBe(200);
  });

  it('nologin manageRule: a users record may manage nologin records (email shown, verified settable)', async () => {
    const guest = await api('GET', '/api/collections/nologin/records/dc49k6jgejn40h3');
    expect(guest.status).toBe(200);
    expect(guest.body.email).toBeUndefined();
    const manager = await api('GET', '/api/collections/nologin/records/dc49k6jgejn40h3', { token: USER });
    expect(manager.body.email).toBe('test@example.com');
    // a guest cannot set verified, a manager can
    expect((await api('PATCH', '/api/collections/nologin/records/phhq3wr65cap535', { body: { verified: true } })).status).toBe(400);
    const ok = await api('PATCH', '/api/collections/nologin/records/phhq3wr65cap535', { token: USER, body: { verified: true } });
    expect(ok.status).toBe(200);
    expect(ok.body.verified).toBe(true);
  });
});

describe('hidden email', () => {
  it('omits the email key of others unless emailVisibility is on', async () => {
    const res = await api('GET', '/api/collections/nologin/records?sort=created');
    for (const item of res.body.items) {
      expect('email' in item).toBe(item.emailVisibility === true);
    }
  });

  it('matches email in a non-admin filter only on visible emails', async () => {
    const res = await api('GET', `/api/collections/nologin/records?filter=${encodeURIComponent("email = 'test@example.com'")}`);
    expect(res.body.totalItems).toBe(0);
    const admin = await api('GET', `/api/collections/nologin/records?filter=${encodeURIComponent("email = 'test@example.com'")}`, { token: ADMIN });
    expect(admin.body.totalItems).toBe(1);
  });
});

describe('list parameters', () => {
  it('sorts by several fields, skips the total and clamps perPage', async () => {
    const res = await api('GET', '/api/collections/demo2/records?sort=-active,title&skipTotal=1&perPage=900');
    expect(res.body.totalItems).toBe(-1);
    expect(res.body.totalPages).toBe(-1);
    expect(res.body.perPage).toBe(500);
    expect(res.body.items.map((r: any) => r.title)).toEqual(['test2', 'test3', 'test1']);
    const random = await api('GET', '/api/collections/demo2/records?sort=@random');
    expect(random.body.totalItems).toBe(3);
    const page = await api('GET', '/api/collections/demo2/records?page=2&perPage=2&sort=title');
    expect(page.body).toMatchObject({ page: 2, perPage: 2, totalItems: 3, totalPages: 2 });
    expect(page.body.items.map((r: any) => r.title)).toEqual(['test3']);
    const empty = await api('GET', `/api/collections/demo2/records?filter=${encodeURIComponent("title = 'none'")}`);
    expect(empty.body).toMatchObject({ totalItems: 0, totalPages: 0, items: [] });
    expect(Object.keys(empty.body)).toEqual(['page', 'perPage', 'totalItems', 'totalPages', 'items']);
  });

  it('filters through relations and json', async () => {
    const res = await api('GET', `/api/collections/demo4/records?filter=${encodeURIComponent("json_object.a.b = 'test'")}`);
    expect(res.body.items.map((r: any) => r.id)).toEqual(['i9naidtvr6qsgb4']);
    const rel = await api('GET', `/api/collections/users/records?filter=${encodeURIComponent("rel.title = 'test1'")}`, { token: ADMIN });
    expect(rel.body.items.map((r: any) => r.id)).toEqual(['4q1xlclmfloku33']);
  });

  it('picks fields, with :excerpt', async () => {
    const res = await api('GET', '/api/collections/demo2/records?sort=title&fields=id,title:excerpt(3,true)');
    expect(res.body.items[0]).toEqual({ id: 'llvuca81nly1qls', title: 'tes...' });
    // hidden or unknown columns are a clear 400, for admins too, on list and view
    for (const fields of ['id,passwordHash', 'tokenKey', 'nope', 'id,nope:excerpt(3)']) {
      const bad = await api('GET', `/api/collections/users/records?fields=${encodeURIComponent(fields)}`, { token: ADMIN });
      expect(bad.status, fields).toBe(400);
      expect(bad.body.code).toBe(400);
    }
    const badView = await api('GET', '/api/collections/users/records/4q1xlclmfloku33?fields=passwordHash', { token: ADMIN });
    expect(badView.status).toBe(400);
    const nested = await api('GET', '/api/collections/users/records?fields=id,expand.rel.title&expand=rel', { token: ADMIN });
    expect(nested.status).toBe(200);
  });
});

describe('expand', () => {
  it('expands single and multiple relations, nested', async () => {
    const r = await sdk(ADMIN).collection('demo1').getOne('84nmscqy84lsi1t', { expand: 'rel_many.rel' });
    const users = r.expand?.rel_many;
    expect(Array.isArray(users)).toBe(true);
    expect(users[0].id).toBe('oap640cot4yru2s');
  });

  it('expands back-relations as arrays (object with a unique index)', async () => {
    const res = await api('GET', '/api/collections/demo3/records/mk5fmymtx4wsprk?expand=demo4_via_rel_many_cascade,demo4_via_rel_one_no_cascade', { token: ADMIN });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.expand.demo4_via_rel_many_cascade)).toBe(true);
    expect(res.body.expand.demo4_via_rel_many_cascade[0].id).toBe('qzaqccwrmva4o1n');
    const unique = await api('GET', '/api/collections/demo3/records?expand=demo4_via_rel_one_unique', { token: ADMIN });
    for (const item of unique.body.items) {
      if (item.expand?.demo4_via_rel_one_unique) expect(Array.isArray(item.expand.demo4_via_rel_one_unique)).toBe(false);
    }
  });

  it('applies the target viewRule and drops null-rule targets for non-admins', async () => {
    // demo4 is public, demo3 needs a non-users auth record
    const guest = await api('GET', '/api/collections/demo4/records/qzaqccwrmva4o1n?expand=rel_one_cascade,self_rel_many');
    expect(guest.status).toBe(200);
    expect(guest.body.expand?.rel_one_cascade).toBeUndefined();
    const client = await api('GET', '/api/collections/demo4/records/qzaqccwrmva4o1n?expand=rel_one_cascade', { token: CLIENT });
    expect(client.body.expand.rel_one_cascade.id).toBe('7nwo8tuiatetxdm');
  });

  it('skips unknown paths and stops self-relation loops at depth 6', async () => {
    const deep = Array(12).fill('self_rel_one').join('.');
    const res = await api('GET', `/api/collections/demo4/records?expand=missing,${deep},rel_one.nope`);
    expect(res.status).toBe(200);
  });

  it('expands in a constant number of queries per level', async () => {
    const { queryCounter } = await import('../../server/records/store');
    const counter = queryCounter(srv.app.ctx);
    const before = counter.queries;
    await api('GET', '/api/collections/demo4/records?expand=self_rel_many.self_rel_many,rel_many_no_cascade_required', { token: ADMIN });
    // list count/select are not counted; 2 levels + 1 path = 3 fetches
    expect(counter.queries - before).toBeLessThanOrEqual(4);
  });
});

describe('views', () => {
  it('are readable under their rules and read-only', async () => {
    expect((await api('GET', '/api/collections/view1/records')).body.totalItems).toBe(0);
    expect((await api('GET', '/api/collections/view1/records', { token: USER })).body.items.every((r: any) => r.bool)).toBe(true);
    const numeric = await api('GET', '/api/collections/numeric_id_view/records');
    expect(numeric.body.items.map((r: any) => r.id)).toEqual(['1', '2']);
    expect(numeric.body.items[0].created).toBeUndefined();
    for (const [m, p] of [
      ['POST', '/api/collections/view1/records'],
      ['PATCH', '/api/collections/view1/records/84nmscqy84lsi1t'],
      ['DELETE', '/api/collections/view1/records/84nmscqy84lsi1t'],
    ]) {
      const res = await api(m, p, { token: ADMIN, body: m === 'DELETE' ? undefined : { text: 'x' } });
      expect(res.body).toEqual({ code: 400, message: 'Unsupported collection type.', data: {} });
    }
  });
});

describe('delete', () => {
  it('refuses a record in a required relation, changing nothing', async () => {
    const before = srv.app.db.prepare('SELECT COUNT(*) AS n FROM demo4').get();
    const res = await api('DELETE', '/api/collections/demo3/records/7nwo8tuiatetxdm', { token: ADMIN });
    expect(res.body).toEqual({
      code: 400,
      message: 'Failed to delete record. Make sure that the record is not part of a required relation reference.',
      data: {},
    });
    expect(srv.app.db.prepare('SELECT COUNT(*) AS n FROM demo4').get()).toEqual(before);
    expect((await api('GET', '/api/collections/demo3/records/7nwo8tuiatetxdm', { token: ADMIN })).status).toBe(200);
  });

  it('shortens non-required references', async () => {
    expect((await api('DELETE', '/api/collections/demo3/records/1tmknxy2868d869', { token: ADMIN })).status).toBe(204);
    const demo4 = await api('GET', '/api/collections/demo4/records/qzaqccwrmva4o1n', { token: ADMIN });
    expect(demo4.body.rel_many_no_cascade).toEqual([]);
    expect(demo4.body.rel_many_no_cascade_required).toEqual(['lcl9d87w22ml6jy']);
  });

  it('cascades and removes files, external auths and folders', async () => {
    const changes: RecordChange[] = [];
    const off = onRecordChange(srv.app.ctx, (c) => changes.push(c));
    const storage = path.join(srv.dataDir, 'storage');
    expect(fs.existsSync(path.join(storage, 'wsmn24bux7wo113', '84nmscqy84lsi1t'))).toBe(true);
    expect((await api('DELETE', '/api/collections/users/records/oap640cot4yru2s', { token: ADMIN })).status).toBe(204);
    off();
    expect((await api('GET', '/api/collections/demo1/records/84nmscqy84lsi1t', { token: ADMIN })).status).toBe(404);
    expect(fs.existsSync(path.join(storage, 'wsmn24bux7wo113', '84nmscqy84lsi1t'))).toBe(false);
    expect(fs.existsSync(path.join(storage, '_pb_users_auth_', 'oap640cot4yru2s'))).toBe(false);
    expect(changes.filter((c) => c.action === 'delete').map((c) => c.record.data.id).sort()).toEqual(['84nmscqy84lsi1t', 'oap640cot4yru2s']);

    expect((await api('DELETE', '/api/collections/users/records/4q1xlclmfloku33', { token: USER })).status).toBe(204);
    const ext = srv.app.db.prepare("SELECT COUNT(*) AS n FROM _externalAuths WHERE recordId = '4q1xlclmfloku33'").get() as { n: number };
    expect(ext.n).toBe(0);
  });

  it('answers 404 for missing collections and records', async () => {
    expect((await api('DELETE', '/api/collections/missing/records/x', { token: ADMIN })).status).toBe(404);
    expect((await api('DELETE', '/api/collections/demo2/records/missing', { token: ADMIN })).status).toBe(404);
    expect(await status(sdk().collection('demo2').getOne('missing'))).toBe(404);
  });
});

describe('bad input on lists (4xx, never 500)', () => {
  const bad = [
    'missing = 1',
    "title = 'unbalanced",
    "title = ''; DROP TABLE demo2; --'",
    'title = 1) OR (1=1',
    '(' .repeat(200) + "title = 'x'" + ')'.repeat(200),
    Array(400).fill("title = 'x'").join(' || '),
    'x'.repeat(5000),
    'passwordHash != ""',
  ];
  it.each(bad)('rejects filter %#', async (filter) => {
    const res = await api('GET', `/api/collections/users/records?filter=${encodeURIComponent(filter)}`, { token: ADMIN });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(400);
    expect(srv.app.db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'demo2'").get()).toEqual({ n: 1 });
  });

  it('rejects sorting by unknown or hidden columns and non-numeric pages', async () => {
    for (const q of ['sort=passwordHash', 'sort=tokenKey', 'sort=missing', 'sort=-id;DROP', 'page=abc', 'perPage=1e3']) {
      const res = await api('GET', `/api/collections/users/records?${q}`, { token: ADMIN });
      expect(res.status, q).toBe(400);
    }
  });
});
