// The create rule is checked on the read pool against the committed data plus the pending record
// (server/records/upsert.ts): it must keep 0.22's meaning (the record is seen as if inserted, by
// its own fields, by multi-value subqueries, by relations and by @collection of its own table),
// leave nothing behind, and keep the manageRule outcome.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_PASSWORD, http, startServer, type TestServer } from '../helpers/server';

let srv: TestServer;
let userToken = '';
let rootId = '';
let otherId = '';

const admin = (method: string, p: string, body?: unknown) => http(srv.url, method, p, { token: FIXTURE_ADMIN_TOKEN, body });
const create = (body: Record<string, unknown>, token?: string) => http(srv.url, 'POST', '/api/collections/posts/records', { token, body });

async function setRule(createRule: string) {
  const res = await admin('PATCH', '/api/collections/posts', { createRule });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

beforeAll(async () => {
  srv = await startServer({ fixture: true });
  const auth = await http(srv.url, 'POST', '/api/collections/users/auth-with-password', { body: { identity: 'test@example.com', password: FIXTURE_PASSWORD } });
  userToken = auth.body.token;
  const made = await admin('POST', '/api/collections', {
    name: 'posts',
    listRule: '',
    createRule: '',
    schema: [
      { name: 'title', type: 'text' },
      { name: 'tags', type: 'select', options: { maxSelect: 3, values: ['a', 'b', 'c'] } },
    ],
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const withParent = await admin('PATCH', '/api/collections/posts', {
    schema: [
      ...made.body.schema,
      { name: 'parent', type: 'relation', options: { collectionId: made.body.id, maxSelect: 1 } },
      { name: 'rels', type: 'relation', options: { collectionId: made.body.id, maxSelect: null } },
    ],
  });
  expect(withParent.status, JSON.stringify(withParent.body)).toBe(200);
  rootId = (await create({ title: 'root' })).body.id;
  otherId = (await create({ title: 'other' })).body.id;
});

afterAll(async () => {
  await srv?.close();
});

const DENIED = { code: 400, message: 'Failed to create record.', data: {} };

describe('create rule on the pending record', () => {
  it("reads the record's own fields", async () => {
    await setRule("title = 'ok'");
    expect((await create({ title: 'ok' })).status).toBe(200);
    const denied = await create({ title: 'no' });
    expect(denied.status).toBe(400);
    expect(denied.body).toEqual(DENIED);
  });

  it('keeps the all-elements meaning of a multiple relation (a subquery over the table)', async () => {
    await setRule("rels.title = 'root'");
    expect((await create({ title: 'm1', rels: [rootId] })).status).toBe(200);
    expect((await create({ title: 'm2', rels: [rootId, otherId] })).body).toEqual(DENIED);
    await setRule("rels.title ?= 'other' && tags:each ?= 'b'");
    expect((await create({ title: 'm3', rels: [rootId, otherId], tags: ['a', 'b'] })).status).toBe(200);
    expect((await create({ title: 'm4', rels: [rootId, otherId], tags: ['c'] })).body).toEqual(DENIED);
  });

  it('follows a relation to its own collection', async () => {
    await setRule("parent.title = 'root'");
    expect((await create({ title: 'child', parent: rootId })).status).toBe(200);
    expect((await create({ title: 'stray', parent: otherId })).body).toEqual(DENIED);
  });

  it('sees the new record through @collection of its own table, as the inserted row 0.22 checks', async () => {
    await setRule('@collection.posts.title ?= title');
    expect((await create({ title: 'a title nobody else has' })).status).toBe(200);
    await setRule("@collection.posts.title ?= 'never-written'");
    expect((await create({ title: 'x' })).body).toEqual(DENIED);
  });

  it('answers the request data and auth as before', async () => {
    await setRule('@request.auth.id != "" && @request.data.title = title');
    expect((await create({ title: 'mine' }, userToken)).status).toBe(200);
    expect((await create({ title: 'mine' })).body).toEqual(DENIED);
  });

  it('leaves nothing behind: denied records are never listed, later reads see the table as it is', async () => {
    await setRule('');
    const list = await http(srv.url, 'GET', '/api/collections/posts/records?perPage=200&sort=created');
    expect(list.status).toBe(200);
    const titles = (list.body.items as Array<{ title: string }>).map((r) => r.title).sort();
    expect(titles).toEqual(['a title nobody else has', 'child', 'm1', 'm3', 'mine', 'ok', 'other', 'root']);
    expect(list.body.totalItems).toBe(8);
  });

  it('reports unique violations before the rule, as 0.22 does', async () => {
    await setRule("title = 'never'");
    const dup = await create({ id: rootId, title: 'dup' });
    expect(dup.status).toBe(400);
    expect(dup.body.data.id?.code).toBe('validation_invalid_id');
  });
});

describe('manageRule decided with the create rule', () => {
  it('lets a caller matching manageRule set verified on create, and not a guest', async () => {
    // fixture: nologin has createRule "" and manageRule "@request.auth.collectionName = 'users'"
    const body = { email: 'managed@example.com', password: '1234567890', passwordConfirm: '1234567890', verified: true };
    const managed = await http(srv.url, 'POST', '/api/collections/nologin/records', { token: userToken, body });
    expect(managed.status, JSON.stringify(managed.body)).toBe(200);
    expect(managed.body.verified).toBe(true);
    const guest = await http(srv.url, 'POST', '/api/collections/nologin/records', { body: { ...body, email: 'guest@example.com' } });
    expect(guest.status).toBe(400);
    expect(guest.body.data.verified?.code).toBe('validation_in_invalid');
  });
});
