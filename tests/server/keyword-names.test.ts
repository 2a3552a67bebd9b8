// Every collection and field name PocketBase 0.22 accepts is accepted here, SQL keywords included:
// a collection whose name and fields are all SQL keywords goes through create, records, filter,
// sort, index, expand, back-relations, rename and import — which only works when every identifier
// in every generated statement is quoted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startServer, type TestServer } from '../helpers/server';

let srv: TestServer;
let token: string;

const KEYWORDS = ['when', 'order', 'group', 'select', 'from', 'where', 'table', 'limit', 'values', 'default', 'check', 'primary', 'index', 'case'];

beforeAll(async () => {
  srv = await startServer();
  const admin = { email: 'admin@example.com', password: 'admin-password' };
  await http(srv.url, 'POST', '/api/admins', { body: { ...admin, passwordConfirm: admin.password } });
  token = (await http(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: admin.email, password: admin.password } })).body.token;
});

afterAll(async () => {
  await srv?.close();
});

const api = (method: string, path: string, body?: unknown) => http(srv.url, method, path, { token, body });

describe('a collection whose names are all SQL keywords', () => {
  let selectId: string;
  const ids: string[] = [];

  it('is created with keyword fields, a keyword relation and an index on keyword columns', async () => {
    const res = await api('POST', '/api/collections', {
      name: 'select',
      type: 'base',
      listRule: '',
      viewRule: '',
      schema: [
        ...KEYWORDS.filter((k) => k !== 'order' && k !== 'limit').map((name) => ({ name, type: 'text' })),
        { name: 'order', type: 'number' },
        { name: 'limit', type: 'bool' },
        // a field of a type 0.22 does not know is dropped silently on save
        { name: 'money', type: 'currency' },
      ],
      indexes: ['CREATE INDEX `idx_order_group` ON `select` (`order`, `group`)', 'CREATE UNIQUE INDEX `idx_where` ON `select` (`where`)'],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    selectId = res.body.id;
    expect(res.body.schema.map((f: { name: string }) => f.name).sort()).toEqual([...KEYWORDS].sort());
    const from = await api('POST', '/api/collections', {
      name: 'from',
      type: 'base',
      listRule: '',
      viewRule: '',
      schema: [
        { name: 'join', type: 'relation', options: { collectionId: selectId, maxSelect: null } },
        { name: 'on', type: 'relation', options: { collectionId: selectId, maxSelect: 1 } },
        { name: 'group', type: 'text' },
      ],
      indexes: ['CREATE INDEX `idx_on` ON `from` (`on`)'],
    });
    expect(from.status, JSON.stringify(from.body)).toBe(200);
  });

  it('stores records and answers filters, sorts and expands over keyword names', async () => {
    for (let i = 0; i < 5; i++) {
      const body: Record<string, unknown> = Object.fromEntries(KEYWORDS.map((k) => [k, `${k}-${i}`]));
      body.order = i;
      body.limit = i % 2 === 0;
      const res = await api('POST', '/api/collections/select/records', body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      ids.push(res.body.id);
    }
    const dup = await api('POST', '/api/collections/select/records', { where: 'where-0' });
    expect(dup.status).toBe(400);
    expect(dup.body.data.where.code).toBe('validation_not_unique');

    const filtered = await http(
      srv.url,
      'GET',
      `/api/collections/select/records?filter=${encodeURIComponent("order >= 1 && (when ~ 'when-' || group = 'x') && limit = true && select != ''")}&sort=-order,group`,
    );
    expect(filtered.status, JSON.stringify(filtered.body)).toBe(200);
    expect(filtered.body.items.map((r: { order: number }) => r.order)).toEqual([4, 2]);

    const linked = await api('POST', '/api/collections/from/records', { join: [ids[0], ids[3]], on: ids[4], group: 'g' });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    const list = await http(
      srv.url,
      'GET',
      `/api/collections/from/records?filter=${encodeURIComponent("join.order ?= 3 && on.case = 'case-4' && join.group ?~ 'group'")}&sort=-on.order&expand=join,on`,
    );
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.totalItems).toBe(1);
    expect(list.body.items[0].expand.on.where).toBe('where-4');
    expect(list.body.items[0].expand.join.map((r: { order: number }) => r.order)).toEqual([0, 3]);

    const back = await http(srv.url, 'GET', `/api/collections/select/records?filter=${encodeURIComponent("from_via_join.group ?= 'g'")}&expand=from_via_join,from_via_on&sort=order`);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.items.map((r: { order: number }) => r.order)).toEqual([0, 3]);
    expect(back.body.items[1].expand.from_via_join).toHaveLength(1);
  });

  it('renames keyword fields and the collection, keeping data and indexes', async () => {
    const current = (await api('GET', `/api/collections/${selectId}`)).body;
    const schema = current.schema.map((f: { name: string }) => (f.name === 'when' ? { ...f, name: 'having' } : f));
    const res = await api('PATCH', `/api/collections/${selectId}`, { name: 'union', schema });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.indexes.join(' ')).toContain('`union`');
    const list = await http(srv.url, 'GET', `/api/collections/union/records?filter=${encodeURIComponent("having = 'when-2'")}&sort=order`);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0].order).toBe(2);
    const expanded = await http(srv.url, 'GET', `/api/collections/from/records?expand=join&filter=${encodeURIComponent("join.having ?= 'when-3'")}`);
    expect(expanded.status).toBe(200);
    expect(expanded.body.items[0].expand.join[1].having).toBe('when-3');
  });

  it('imports a PocketBase export whose collections and fields are SQL keywords', async () => {
    const exported = {
      collections: [
        {
          id: 'kwimport000001a',
          name: 'where',
          type: 'base',
          system: false,
          schema: [
            { id: 'kwf00001', name: 'group', type: 'text', system: false, required: false, presentable: false, unique: false, options: { min: null, max: null, pattern: '' } },
            { id: 'kwf00002', name: 'order', type: 'number', system: false, required: false, presentable: false, unique: false, options: { min: null, max: null, noDecimal: false } },
            { id: 'kwf00003', name: 'odd', type: 'geoPoint', system: false, required: false, presentable: false, unique: false, options: {} },
          ],
          indexes: ['CREATE INDEX `idx_kw` ON `where` (`group`, `order`)'],
          listRule: '',
          viewRule: '',
          createRule: '',
          updateRule: null,
          deleteRule: null,
          options: {},
        },
      ],
      deleteMissing: false,
    };
    const res = await api('PUT', '/api/collections/import', exported);
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    const made = await http(srv.url, 'POST', '/api/collections/where/records', { body: { group: 'a', order: 2 } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const got = await http(srv.url, 'GET', `/api/collections/where/records?filter=${encodeURIComponent("group = 'a' && order = 2")}&sort=-order`);
    expect(got.body.totalItems).toBe(1);
    const col = (await api('GET', '/api/collections/where')).body;
    expect(col.schema.map((f: { name: string }) => f.name)).toEqual(['group', 'order']);
  });
});
