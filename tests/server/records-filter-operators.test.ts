// Every operator and modifier of the filter language over HTTP, on a copy of the fixture: the
// records list must answer exactly the rows PocketBase 0.22 would (ids written down as facts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_ADMIN_TOKEN, http, startServer, type TestServer } from '../helpers/server';

let srv: TestServer;
beforeAll(async () => {
  srv = await startServer({ fixture: true });
});
afterAll(async () => {
  await srv?.close();
});

// demo1 (admins only): A text 'test', number 123456, bool true, select_many [optionB, optionC],
// rel_many [oap640cot4yru2s (verified)], datetime 2022-10-01, email test@example.com;
// B text 'test2', number 456, bool false, select_many [optionB], rel_many [bgs820n361vj1qd (verified),
// 4q1xlclmfloku33 (unverified, username users75657), oap640cot4yru2s]; C text 'lorem ipsum', number 0,
// everything else empty.
const A = '84nmscqy84lsi1t';
const B = 'al1h9ijdeojtsjy';
const C = 'imy661ixudk5izi';

async function ids(collection: string, filter: string, token?: string): Promise<string[]> {
  const res = await http(srv.url, 'GET', `/api/collections/${collection}/records?perPage=100&filter=${encodeURIComponent(filter)}`, {
    token,
  });
  expect(res.status, `${filter}: ${JSON.stringify(res.body)}`).toBe(200);
  return (res.body.items as { id: string }[]).map((r) => r.id).sort();
}

const sorted = (...xs: string[]) => [...xs].sort();

describe('filter operators over HTTP (fixture demo1, as admin)', () => {
  const cases: Array<[string, string[]]> = [
    ["text = 'test'", [A]],
    ["text != 'test'", [B, C]],
    ['number > 456', [A]],
    ['number >= 456', [A, B]],
    ['number < 456', [C]],
    ['number <= 456', [B, C]],
    ["text ~ 'test'", [A, B]],
    ["text !~ 'test'", [C]],
    ["text ~ 'te%2'", [B]],
    ["text ?~ 'lorem'", [C]],
    ['number ?> 400', [A, B]],
    ['bool = true', [A]],
    ["email = ''", [C]],
    ['email = null', [C]],
    ["email != ''", [A, B]],
    ["datetime > '2022-01-01'", [A]],
    ["rel_many.username ?= 'users75657'", [B]],
    ['rel_many.verified ?= true', [A, B]],
    // 0.22 joins multi-value relations with LEFT JOIN: a record with no related rows compares as
    // an empty value, so `?!=` matches it too.
    ['rel_many.verified ?!= true', [B, C]],
    ["select_many ~ 'optionC'", [A]],
    ['select_many:length = 2', [A]],
    ['select_many:length > 0', [A, B]],
    ['rel_many:length = 3', [B]],
    ["select_many:each ?= 'optionC'", [A]],
    ["number > 1000 || text = 'test2' && bool = false", [A, B]],
    ["(number > 1000 || text = 'test2') && bool = true", [A]],
    ['created < @now', [A, B, C]],
    ['created > @todayStart', []],
    ["@collection.demo2.title ?= 'test1' && number = 456", [B]],
  ];
  for (const [filter, expected] of cases) {
    it(filter, async () => {
      expect(await ids('demo1', filter, FIXTURE_ADMIN_TOKEN)).toEqual(sorted(...expected));
    });
  }

  it('json paths compare inside the stored JSON (demo4)', async () => {
    expect(await ids('demo4', 'json_object.a = 123', FIXTURE_ADMIN_TOKEN)).toEqual(['qzaqccwrmva4o1n']);
    expect(await ids('demo4', "json_object.a.b = 'test'", FIXTURE_ADMIN_TOKEN)).toEqual(['i9naidtvr6qsgb4']);
  });

  it('a guest filters a public collection the same way (demo2)', async () => {
    expect(await ids('demo2', "title ~ 'test' && active = true")).toEqual(sorted('achvryl401bhse3', '0yxhwia2amd8gec'));
  });

  it('@request.query values resolve for admins', async () => {
    const res = await http(
      srv.url,
      'GET',
      `/api/collections/demo1/records?x=test2&filter=${encodeURIComponent('text = @request.query.x')}`,
      { token: FIXTURE_ADMIN_TOKEN },
    );
    expect(res.status).toBe(200);
    expect(res.body.items.map((r: { id: string }) => r.id)).toEqual([B]);
  });

  it('hostile filters are a 400, never a 500, and change nothing', async () => {
    for (const filter of ["text = 'x'; DROP TABLE demo1; --", "text = 'unbalanced", 'nope = 1', '(((((text = 1', 'text ==== 1']) {
      const res = await http(srv.url, 'GET', `/api/collections/demo1/records?filter=${encodeURIComponent(filter)}`, {
        token: FIXTURE_ADMIN_TOKEN,
      });
      expect(res.status, filter).toBe(400);
    }
    expect(await ids('demo1', "id != ''", FIXTURE_ADMIN_TOKEN)).toEqual(sorted(A, B, C));
  });
});
