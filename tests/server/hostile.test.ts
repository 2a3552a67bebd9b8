// The hostile-input corpus: hundreds of filters, sorts, expands, bodies, names and files sent over
// HTTP to the fixture. Every answer must be a 2xx-4xx (never a 5xx or a dropped connection) and
// come back within the query budget (plus a margin for a loaded machine), and the server must
// still answer afterwards. Also these 0.22 behaviours: deep JSON, email change with
// SMTP off, a custom id taken in another auth collection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_PASSWORD, http, startServer, type TestServer } from '../helpers/server';

const BUDGET_MS = 3000;
const SLACK_MS = 2000;
let srv: TestServer;
let userToken: string;

beforeAll(async () => {
  srv = await startServer({ fixture: true, queryTimeoutMs: BUDGET_MS });
  const auth = await http(srv.url, 'POST', '/api/collections/users/auth-with-password', {
    body: { identity: 'test@example.com', password: FIXTURE_PASSWORD },
  });
  userToken = auth.body.token;
});

afterAll(async () => {
  await srv?.close();
});

const deep = (n: number, open = '[', close = ']', inner = '1') => open.repeat(n) + inner + close.repeat(n);
const REL6 = 'self_rel_many.self_rel_many.self_rel_many.self_rel_many.self_rel_many.self_rel_many';

/** Expressions a hostile client might try in filter and sort. */
const FILTERS = [
  '', ' ', '(', ')', '()', '((((', '))))', '&&', '||', '=', "'", '"', '`', '\\', '\u0000', '\uFFFF', '💥', "title = '💥'",
  "title = 'x", 'title = "x', "title = 'x' &&", "&& title = 'x'", "title = 'x' || ", 'title ==== 1', 'title =! 1', 'title <> 1',
  "title ~ '%'", "title ~ '%%%%%%%%%%'", "title ~ '_'", "title ~ '\\\\'", "title !~ ''", 'title ?= title', 'title ?!= null',
  "1 = 1", "1 = '1'", 'true', 'false', 'null', 'null = null', "'' = ''", 'id = id', 'id != id', "id > ''", 'rowid > 0',
  '@random', '@rowid', '@request', '@request.auth', '@request.auth.id', "@request.auth.id = ''", '@request.method = "GET"',
  '@request.headers.x = 1', '@request.query.filter = 1', '@request.data.x = 1', '@collection', '@collection.demo1', '@collection.nope.id = 1',
  '@collection.users.passwordHash ~ "$"', '@collection.users:a.id ?= @collection.users:b.id', '@collection.view2.id ?= id',
  '@now > created', '@todayStart < @todayEnd', '@yesterday = 1', '@second = 1', '@nope = 1', "created > '2020-01-01'",
  'title:each = 1', 'title:length = 1', 'title:isset = true', 'self_rel_many:length > 100', 'self_rel_many:each = id',
  'json_object.a.b.c.d.e.f.g = 1', 'json_array.0.1.2 = 1', "json_object.'x' = 1", 'json_array:length = 1',
  `${REL6}.title ?= 'x'`, `${REL6}.title = 'x'`, `${REL6}.${REL6.split('.')[0]}.title = 1`, `${REL6}.id ?!= ${REL6}.title`,
  `${REL6}.self_rel_one.title = 1`, 'demo4_via_self_rel_many.demo4_via_self_rel_many.demo4_via_self_rel_many.title ?= 1',
  'self_rel_one.self_rel_one.self_rel_one.self_rel_one.self_rel_one.self_rel_one.self_rel_one.title = 1',
  'rel_one_no_cascade.title ?= rel_many_cascade.title', 'nope.nope = 1', 'title.x = 1', 'id.id.id = 1',
  "title = 'x'; DROP TABLE demo4; --", "title = '' OR 1=1 --", "title = (SELECT 1)", 'title IN (1,2)', 'title LIKE 1',
  "title = 'a' && title = 'b' && title = 'c' && title = 'd' && title = 'e'",
  deep(2000, '(', ')', "title = 'x'"), deep(200, '(', ')', "title = 'x'"), 'a'.repeat(100_000), `title = '${'x'.repeat(100_000)}'`,
  Array.from({ length: 500 }, (_, i) => `title = '${i}'`).join(' || '),
  Array.from({ length: 200 }, () => `${REL6}.title ?= 'x'`).join(' && '),
  Array.from({ length: 60 }, (_, i) => `@collection.demo4:a${i}.id ?= id`).join(' && '),
  '9'.repeat(400), '-1e999 = 1', '1e999 = title', 'NaN = NaN', '0x10 = 16', '+1 = 1', '.5 = 0.5',
];

const SORTS = [
  '', ',', ',,,', '-', '+', '--title', '+-title', 'title,', ',title', 'nope', '@random', '-@random', '@rowid', 'rowid', '-rowid',
  'title:each', 'self_rel_many:length', `${REL6}.title`, `-${REL6}.title,${REL6}.id`, 'json_object.a.b', '@collection.demo1.id',
  '@request.auth.id', "title'", 'title;DROP TABLE demo4', Array.from({ length: 300 }, () => 'title').join(','), 'x'.repeat(50_000),
];

const EXPANDS = [
  '', ',', '.', '..', 'nope', 'title', 'self_rel_many', 'self_rel_one.self_rel_one.self_rel_one.self_rel_one.self_rel_one.self_rel_one.self_rel_one',
  REL6, `${REL6},${REL6}`, 'demo4_via_self_rel_many', 'demo4_via_self_rel_many.demo4_via_self_rel_many', 'users_via_nope', 'x_via_y',
  Array.from({ length: 5000 }, (_, i) => `f${i}`).join(','), Array.from({ length: 200 }, () => 'self_rel_many').join('.'), '💥',
  'rel_one_no_cascade,rel_many_no_cascade,rel_one_cascade,rel_many_cascade,rel_one_unique,rel_many_unique',
];

const PAGES = ['page=-1', 'page=0', 'page=1e30', 'page=99999999999999999999', 'perPage=-5', 'perPage=0', 'perPage=1000000', 'page=abc',
  'skipTotal=maybe', 'skipTotal=1&page=9007199254740993', 'fields=*,expand.*', 'fields=' + 'a,'.repeat(5000), 'fields=passwordHash', 'fields=:excerpt(99999999999)'];

async function expectSane(method: string, path: string, opts: { body?: unknown; raw?: string; token?: string; headers?: Record<string, string> } = {}) {
  const t0 = performance.now();
  let res;
  try {
    res = await http(srv.url, method, path, opts);
  } catch (err) {
    throw new Error(`${method} ${path.slice(0, 200)}: connection failed (${String(err)})`);
  }
  const ms = performance.now() - t0;
  const label = `${method} ${decodeURIComponent(path).slice(0, 160)} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
  expect(res.status, label).toBeGreaterThanOrEqual(200);
  expect(res.status, label).toBeLessThan(500);
  expect(ms, label).toBeLessThan(BUDGET_MS + SLACK_MS);
  if (res.status >= 400 && path.startsWith('/api/')) {
    expect(res.body, label).toEqual({ code: res.status, message: expect.any(String), data: expect.any(Object) });
  }
  return res;
}

const q = encodeURIComponent;

describe('hostile lists', () => {
  const collections = ['demo4', 'demo1', 'users', 'view1', 'view2', 'numeric_id_view', 'nope', '_admins', '_params', '..%2F_admins', '%00'];

  it('answers every filter, on every kind of collection, as guest, user and admin', async () => {
    let count = 0;
    for (const filter of FILTERS) {
      for (const [collection, token] of [
        ['demo4', undefined],
        ['demo4', FIXTURE_ADMIN_TOKEN],
        ['users', userToken],
        ['view2', undefined],
      ] as const) {
        await expectSane('GET', `/api/collections/${collection}/records?filter=${q(filter)}`, { token });
        count++;
      }
    }
    expect(count).toBeGreaterThan(400);
    // the dangerous ones never reached the table
    expect((await http(srv.url, 'GET', '/api/collections/demo4/records', { token: FIXTURE_ADMIN_TOKEN })).status).toBe(200);
  }, 600_000);

  it('answers URLs beyond the header limit in the envelope', async () => {
    const res = await expectSane('GET', `/api/collections/demo4/records?filter=${'a'.repeat(2 << 20)}`);
    expect(res.status).toBe(431);
  });

  it('answers every sort, expand and paging parameter', async () => {
    for (const sort of SORTS) {
      await expectSane('GET', `/api/collections/demo4/records?sort=${q(sort)}`);
      await expectSane('GET', `/api/collections/demo4/records?sort=${q(sort)}`, { token: FIXTURE_ADMIN_TOKEN });
    }
    for (const expand of EXPANDS) {
      await expectSane('GET', `/api/collections/demo4/records?expand=${q(expand)}`);
      await expectSane('GET', `/api/collections/demo4/records/${'x'.repeat(15)}?expand=${q(expand)}`);
      await expectSane('GET', `/api/collections/users/records?expand=${q(expand)}`, { token: FIXTURE_ADMIN_TOKEN });
    }
    for (const page of PAGES) {
      for (const c of collections) await expectSane('GET', `/api/collections/${c}/records?${page}`);
      await expectSane('GET', `/api/collections?${page}`, { token: FIXTURE_ADMIN_TOKEN });
      await expectSane('GET', `/api/logs?${page}`, { token: FIXTURE_ADMIN_TOKEN });
      await expectSane('GET', `/api/admins?${page}`, { token: FIXTURE_ADMIN_TOKEN });
    }
    for (const filter of FILTERS.slice(0, 80)) {
      await expectSane('GET', `/api/logs?filter=${q(filter)}`, { token: FIXTURE_ADMIN_TOKEN });
      await expectSane('GET', `/api/collections?filter=${q(filter)}&sort=${q(filter)}`, { token: FIXTURE_ADMIN_TOKEN });
      await expectSane('GET', `/api/admins?filter=${q(filter)}`, { token: FIXTURE_ADMIN_TOKEN });
    }
  }, 600_000);
});

describe('hostile bodies', () => {
  const bodies: unknown[] = [
    null, 0, -1, 1e308, 'text', '', [], [[]], {}, { title: null }, { title: 1 }, { title: [] }, { title: {} }, { title: 'x'.repeat(1_000_000) },
    { __proto__: { admin: true } }, { constructor: { prototype: { x: 1 } } }, { 'title+': 'x' }, { '+title': 'x' }, { 'self_rel_many-': 'x' },
    { json_object: null }, { json_object: '{' }, { json_array: 'x'.repeat(100) }, { self_rel_many: Array(10_000).fill('x') },
    { self_rel_many: [null, 1, {}, []] }, { id: '' }, { id: null }, { id: 'x'.repeat(10_000) }, { id: '../../etc/pass' }, { id: 42 },
    { rel_one_no_cascade_required: { id: 'x' } }, { '@jsonPayload': '{' }, { expand: { x: 1 } }, { collectionId: 'x', collectionName: 'y' },
  ];

  it('answers every body to create and update, as guest, user and admin', async () => {
    for (const body of bodies) {
      for (const token of [undefined, userToken, FIXTURE_ADMIN_TOKEN]) {
        await expectSane('POST', '/api/collections/demo4/records', { body, token });
        await expectSane('PATCH', '/api/collections/demo4/records/nonexisting0001', { body, token });
        await expectSane('POST', '/api/collections/users/records', { body, token });
      }
      await expectSane('POST', '/api/collections', { body, token: FIXTURE_ADMIN_TOKEN });
      await expectSane('PATCH', '/api/settings', { body, token: FIXTURE_ADMIN_TOKEN });
      await expectSane('POST', '/api/collections/users/auth-with-password', { body });
    }
    for (const raw of ['{', '[', '{"a":', 'nul', '\u0000', '{"title":"\ud800"}', deep(100_000), deep(5000, '{"a":', '}')]) {
      await expectSane('POST', '/api/collections/demo4/records', { raw, token: FIXTURE_ADMIN_TOKEN });
      await expectSane('PATCH', '/api/settings', { raw, token: FIXTURE_ADMIN_TOKEN });
      await expectSane('POST', '/api/admins/auth-with-password', { raw });
      await expectSane('PUT', '/api/collections/import', { raw, token: FIXTURE_ADMIN_TOKEN });
    }
  }, 600_000);

  it('answers JSON nested 5,000 deep in a json field with the clear decoding error, never a RangeError', async () => {
    const body = `{"title":"deep","rel_one_no_cascade_required":"1tmknxy2868d869","rel_many_no_cascade_required":["1tmknxy2868d869"],"json_array":${deep(5000)}}`;
    const res = await expectSane('POST', '/api/collections/demo4/records', { raw: body, token: FIXTURE_ADMIN_TOKEN });
    expect(res.body).toEqual({ code: 400, message: 'Failed to load the submitted data due to invalid formatting.', data: {} });
    // the same value as a multipart form value is a field error; 900 levels are fine
    const form = (value: string) => {
      const fd = new FormData();
      fd.set('title', 'deep');
      fd.set('rel_one_no_cascade_required', '1tmknxy2868d869');
      fd.set('rel_many_no_cascade_required', '1tmknxy2868d869');
      fd.set('json_array', value);
      return fetch(`${srv.url}/api/collections/demo4/records`, { method: 'POST', body: fd, headers: { Authorization: FIXTURE_ADMIN_TOKEN } });
    };
    const multi = await form(deep(5000));
    expect(multi.status).toBe(400);
    expect((await multi.json()).data.json_array.code).toBe('validation_invalid_json');
    const ok = await form(deep(900));
    expect(ok.status).toBe(200);
    const saved = await ok.json();
    const read = await expectSane('GET', `/api/collections/demo4/records/${saved.id}`);
    expect(JSON.stringify(read.body.json_array)).toBe(deep(900));
    // deep bodies elsewhere get their endpoint's decoding error
    const settings = await expectSane('PATCH', '/api/settings', { raw: `{"meta":${deep(5000, '{"a":', '}')}}`, token: FIXTURE_ADMIN_TOKEN });
    expect(settings.body.message).toBe('An error occurred while loading the submitted data.');
  });
});

describe('hostile names and files', () => {
  const names = ['', ' ', 'a b', 'x'.repeat(300), '💥', 'sqlite_x', 'sqlite_master', '_admins', 'a_via_b', '"q"', '`b`', '[x]', "a'b", 'a;b', 'a--b',
    'a\u0000b', 'users', 'USERS', 'select', 'from', 'order', 'where', 'index', '1abc', '_x', 'null', 'true', 'rowid', 'expand', 'id'];

  it('answers every collection and field name', async () => {
    let i = 0;
    for (const name of names) {
      i++;
      await expectSane('POST', '/api/collections', { body: { name, type: 'base', schema: [{ name: 'f', type: 'text' }] }, token: FIXTURE_ADMIN_TOKEN });
      await expectSane('POST', '/api/collections', { body: { name: `hostile_${i}`, type: 'base', schema: [{ name, type: 'text' }] }, token: FIXTURE_ADMIN_TOKEN });
      await expectSane('GET', `/api/collections/${q(name)}/records`);
      await expectSane('GET', `/api/collections/${q(name)}`, { token: FIXTURE_ADMIN_TOKEN });
    }
    // everything created answers lists with filters on its odd field names
    const created = await expectSane('GET', '/api/collections?perPage=500&filter=' + q("name ~ 'hostile_'"), { token: FIXTURE_ADMIN_TOKEN });
    expect(created.body.totalItems).toBeGreaterThan(5);
    for (const c of created.body.items as Array<{ name: string; schema: Array<{ name: string }> }>) {
      const field = c.schema[0].name;
      await expectSane('GET', `/api/collections/${c.name}/records?filter=${q(`${field} = 'x'`)}&sort=-${q(field)}`, { token: FIXTURE_ADMIN_TOKEN });
    }
  }, 300_000);

  it('answers odd uploads and file paths', async () => {
    const upload = async (filename: string, content: string | Uint8Array<ArrayBuffer>, type = 'application/octet-stream') => {
      const fd = new FormData();
      fd.set('title', 'up');
      fd.append('file_one', new Blob([content], { type }), filename);
      const t0 = performance.now();
      const res = await fetch(`${srv.url}/api/collections/demo1/records`, { method: 'POST', body: fd, headers: { Authorization: FIXTURE_ADMIN_TOKEN } });
      expect(res.status, filename).toBeLessThan(500);
      expect(performance.now() - t0).toBeLessThan(BUDGET_MS + SLACK_MS);
      await res.arrayBuffer();
    };
    for (const name of ['../../etc/passwd', '..', '.', '', 'a'.repeat(1000) + '.txt', '💥.png', 'x.php', 'a\u0000.txt', 'CON', '.htaccess']) {
      await upload(name, 'hello');
      await upload(name, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), 'image/png');
    }
    for (const path of ['/api/files/demo1/x/..%2F..%2Fdata.db', '/api/files/..%2F..%2F/x/y', '/api/files/demo1/%00/x', '/api/files/users/x/y?thumb=99999x99999',
      '/api/files/users/x/y?thumb=0x0f', '/api/files/token', '/api/files/demo1/' + 'x'.repeat(5000) + '/y']) {
      await expectSane('GET', path);
    }
  });
});

describe('0.22 behaviours', () => {
  it('request-email-change answers 204 on the fixture (SMTP off)', async () => {
    const res = await http(srv.url, 'POST', '/api/collections/users/request-email-change', { body: { newEmail: 'brand-new@example.com' }, token: userToken });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
  });

  it('a custom id taken in another auth collection fails the save with empty data', async () => {
    const res = await http(srv.url, 'POST', '/api/collections/clients/records', {
      token: FIXTURE_ADMIN_TOKEN,
      body: { id: '4q1xlclmfloku33', email: 'cross-id@example.com', password: '1234567890', passwordConfirm: '1234567890' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 400, message: 'Failed to create record.', data: {} });
    const same = await http(srv.url, 'POST', '/api/collections/users/records', {
      token: FIXTURE_ADMIN_TOKEN,
      body: { id: '4q1xlclmfloku33', email: 'same-id@example.com', password: '1234567890', passwordConfirm: '1234567890' },
    });
    expect(same.status).toBe(400);
    expect(same.body.data.id.code).toBe('validation_invalid_id');
  });

  it('is still healthy after the corpus', async () => {
    const res = await expectSane('GET', '/api/health');
    expect(res.status).toBe(200);
    expect((await http(srv.url, 'GET', '/api/collections/demo4/records')).status).toBe(200);
  });
});
