// The SQL console's API (POST /api/outpost/sql and /api/outpost/sql/csv) against the real server on
// the 0.22 fixture, with a 2 s query budget: admins only; rows as NDJSON (the first 10,000), plans
// and read-only pragmas; every refusal answered 400 in PocketBase's envelope and written to the
// request log with the statement; a runaway recursive CTE stopped at the budget while /api/health
// stays fast; an error after rows went out; the whole result as streamed CSV (200,000 rows, a
// reader slower than the budget, CSV escaping, a cut download when the query fails midway).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getLogWriter } from '../../server/services/request-log';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_PASSWORD, http, startServer, type TestServer } from '../helpers/server';

const BUDGET_MS = 2000;
const COUNTER = (limit?: number) => `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c${limit ? ` LIMIT ${limit}` : ''})`;
const RUNAWAY = `${COUNTER()} SELECT count(*) FROM c`;

let srv: TestServer;
let userToken = '';

beforeAll(async () => {
  srv = await startServer({ fixture: true, queryTimeoutMs: BUDGET_MS });
  userToken = (await http(srv.url, 'POST', '/api/collections/users/auth-with-password', { body: { identity: 'test@example.com', password: FIXTURE_PASSWORD } })).body.token;
  expect(userToken).toBeTruthy();
}, 60_000);

afterAll(async () => {
  await srv?.close();
});

interface Ndjson {
  status: number;
  head: { kind: string; columns: string[] };
  rows: unknown[][];
  tail: Record<string, any>;
  body: any;
}

async function run(sql: string, token = FIXTURE_ADMIN_TOKEN, path = '/api/outpost/sql'): Promise<Ndjson> {
  const res = await fetch(srv.url + path, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: JSON.stringify({ sql }) });
  const text = await res.text();
  if (res.status !== 200) return { status: res.status, head: { kind: '', columns: [] }, rows: [], tail: {}, body: JSON.parse(text) };
  expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
  const lines = text.trimEnd().split('\n').map((l) => JSON.parse(l));
  return { status: 200, head: lines[0], rows: lines.slice(1, -1).flatMap((l) => l.rows), tail: lines[lines.length - 1], body: null };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The request log entries of the console whose statement is `sql`, newest first (flushed first). */
async function loggedFor(sql: string): Promise<Array<{ level: number; data: Record<string, any> }>> {
  for (let i = 0; i < 50; i++) {
    getLogWriter(srv.app.ctx)?.flush();
    const res = await http(srv.url, 'GET', `/api/logs?perPage=500&sort=-rowid&filter=${encodeURIComponent('data.url ~ "/api/outpost/sql"')}`, { token: FIXTURE_ADMIN_TOKEN });
    const mine = res.status === 200 ? (res.body.items as Array<{ level: number; data: Record<string, any> }>).filter((l) => l.data.details?.statement === sql) : [];
    if (mine.length) return mine;
    await sleep(40);
  }
  return [];
}

describe('access', () => {
  it('answers guests and auth records 401 in the envelope, as the other admin-only routes', async () => {
    for (const path of ['/api/outpost/sql', '/api/outpost/sql/csv']) {
      for (const token of ['', userToken]) {
        const res = await http(srv.url, 'POST', path, { token: token || undefined, body: { sql: 'SELECT 1' } });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ code: 401, message: 'The request requires valid admin authorization token to be set.', data: {} });
      }
    }
  });

  it('checks the body with its schema file', async () => {
    const missing = await http(srv.url, 'POST', '/api/outpost/sql', { token: FIXTURE_ADMIN_TOKEN, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.data.sql.code).toBe('validation_required');
    const long = await http(srv.url, 'POST', '/api/outpost/sql', { token: FIXTURE_ADMIN_TOKEN, body: { sql: 'SELECT 1 ' + ' '.repeat(100_000) } });
    expect(long.status).toBe(400);
    expect(long.body.data.sql.code).toBe('validation_length_out_of_range');
    const blank = await run('  -- nothing\n ;');
    expect(blank.status).toBe(400);
    expect(blank.body.data.sql).toEqual({ code: 'sql_empty', message: 'Enter an SQL statement to run.' });
  });
});

describe('what runs', () => {
  it('streams a query: its columns, then its rows, then a summary', async () => {
    const res = await run("SELECT id, name, type FROM _collections WHERE name IN ('users', 'demo1') ORDER BY name");
    expect(res.status).toBe(200);
    expect(res.head).toEqual({ kind: 'query', columns: ['id', 'name', 'type'] });
    expect(res.rows.map((r) => r[1])).toEqual(['demo1', 'users']);
    expect(res.tail).toMatchObject({ done: true, rowCount: 2, truncated: false });
    expect(typeof res.tail.ms).toBe('number');
  });

  it('reads the non-secret columns of auth tables, through views and CTEs too', async () => {
    const res = await run('WITH a AS (SELECT id, email, verified FROM users) SELECT email FROM a WHERE email = \'test@example.com\'');
    expect(res.status).toBe(200);
    expect(res.rows).toEqual([['test@example.com']]);
    expect((await run('SELECT id, email, avatar, created FROM _admins')).status).toBe(200);
  });

  it('gives the first 10,000 rows and says when there were more', async () => {
    const more = await run(`${COUNTER(25_000)} SELECT x, 'row ' || x AS label FROM c`);
    expect(more.rows).toHaveLength(10_000);
    expect(more.rows[9_999]).toEqual([10_000, 'row 10000']);
    expect(more.tail).toMatchObject({ done: true, rowCount: 10_000, truncated: true });
    const exact = await run(`${COUNTER(10_000)} SELECT x FROM c`);
    expect(exact.tail).toMatchObject({ rowCount: 10_000, truncated: false });
  });

  it('runs EXPLAIN QUERY PLAN (the rows the dashboard draws as a tree)', async () => {
    const res = await run("EXPLAIN QUERY PLAN SELECT u.email FROM users u JOIN _collections c ON c.name = 'users' WHERE u.email = 'x' ORDER BY u.created");
    expect(res.status).toBe(200);
    expect(res.head).toEqual({ kind: 'plan', columns: ['id', 'parent', 'notused', 'detail'] });
    expect(res.rows.length).toBeGreaterThan(1);
    expect(res.rows.some((r) => /SEARCH|SCAN/.test(String(r[3])))).toBe(true);
    const ids = new Set(res.rows.map((r) => r[0]));
    for (const r of res.rows) expect(r[1] === 0 || ids.has(r[1])).toBe(true);
  });

  it('runs the read-only pragmas, with an argument where they take one', async () => {
    const info = await run('PRAGMA table_info(_admins)');
    expect(info.head).toEqual({ kind: 'pragma', columns: ['cid', 'name', 'type', 'notnull', 'dflt_value', 'pk'] });
    expect(info.rows.map((r) => r[1])).toContain('passwordHash'); // structure, not values
    for (const sql of ['PRAGMA main.index_list("users")', 'pragma user_version', 'PRAGMA integrity_check', "PRAGMA foreign_key_list('demo2');", 'PRAGMA table_list']) {
      expect((await run(sql)).status, sql).toBe(200);
    }
  });

  it("shows values as SQLite has them: NULL as null, blobs as their x'…' literal", async () => {
    const res = await run("SELECT NULL AS n, 1.5 AS r, x'00ff' AS b, 'text' AS t");
    expect(res.rows).toEqual([[null, 1.5, "x'00ff'", 'text']]);
  });

  it("answers SQLite's own error as a 400 for the editor", async () => {
    const res = await run('SELECT * FROM no_such_table');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 400, message: 'no such table: no_such_table', data: { sql: { code: 'sql_failed', message: 'no such table: no_such_table' } } });
  });
});

describe('refusals: 400 in the envelope, and written to the request log', () => {
  const cases: Array<[string, string, RegExp]> = [
    ["INSERT INTO _admins (id) VALUES ('x')", 'write', /INSERT is not one/],
    ["UPDATE users SET name = 'x'", 'write', /UPDATE is not one/],
    ['DELETE FROM demo1', 'write', /DELETE is not one/],
    ["REPLACE INTO demo1 (id) VALUES ('x')", 'write', /REPLACE is not one/],
    ['WITH x AS (SELECT 1) DELETE FROM demo1', 'write', /this one writes \(DELETE\)/],
    ["WITH x AS (SELECT 1) INSERT INTO demo1 (id) SELECT 'a' FROM x", 'write', /this one writes \(INSERT\)/],
    ['CREATE TABLE t (a)', 'write', /CREATE is not one/],
    ['CREATE TEMP VIEW v AS SELECT 1', 'write', /CREATE is not one/],
    ['DROP TABLE demo1', 'write', /DROP is not one/],
    ['ALTER TABLE demo1 ADD COLUMN z', 'write', /ALTER is not one/],
    ['VACUUM', 'write', /VACUUM is not one/],
    ['BEGIN', 'write', /BEGIN is not one/],
    ['EXPLAIN QUERY PLAN DELETE FROM demo1', 'write', /SELECT and WITH queries only, not DELETE/],
    ["ATTACH DATABASE '/tmp/other.db' AS other", 'attach', /^ATTACH is not allowed/],
    ['DETACH other', 'attach', /^DETACH is not allowed/],
    ["SELECT load_extension('/tmp/evil.so')", 'load_extension', /load_extension\(\) is not allowed/],
    ['SELECT "load_extension"(\'x\')', 'load_extension', /load_extension\(\) is not allowed/],
    ['SELECT 1; SELECT 2', 'several_statements', /Only one statement/],
    ['SELECT 1; DELETE FROM demo1', 'several_statements', /Only one statement/],
    ['SELECT passwordHash FROM _admins', 'secret', /the column "passwordHash" of "_admins"/],
    ['SELECT id FROM _admins WHERE tokenKey = 1', 'secret', /the column "tokenKey" of "_admins"/],
    ['SELECT * FROM users', 'secret', /of "users"/],
    ['WITH t AS (SELECT passwordHash AS p FROM users) SELECT length(p) AS id FROM t', 'secret', /the column "passwordHash" of "users"/],
    ['SELECT (SELECT tokenKey FROM users LIMIT 1) AS k', 'secret', /the column "tokenKey" of "users"/],
    ['SELECT value FROM _params', 'secret', /the column "value" of "_params"/],
    ['SELECT providerId FROM _externalAuths', 'secret', /the column "providerId" of "_externalAuths"/],
    ['EXPLAIN QUERY PLAN SELECT passwordHash FROM _admins', 'secret', /passwordHash/],
    ['PRAGMA user_version = 7', 'pragma', /can be read here, not set/],
    ['PRAGMA page_size(8192)', 'pragma', /not set: PRAGMA page_size takes no argument/],
    ['PRAGMA journal_mode', 'pragma', /PRAGMA journal_mode is not available here/],
    ['PRAGMA writable_schema', 'pragma', /PRAGMA writable_schema is not available here/],
    ['EXPLAIN SELECT 1', 'explain', /Only EXPLAIN QUERY PLAN/],
    ['SELECT * FROM demo1 WHERE id = ?', 'parameters', /parameters/],
  ];

  it.each(cases)('%s → sql_%s', async (sql, reason, message) => {
    const res = await run(sql);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(400);
    expect(res.body.message).toMatch(message);
    expect(res.body.data).toEqual({ sql: { code: `sql_${reason}`, message: res.body.message } });
    // the CSV export refuses the same way
    const csv = await http(srv.url, 'POST', '/api/outpost/sql/csv', { token: FIXTURE_ADMIN_TOKEN, body: { sql } });
    expect(csv.status).toBe(400);
    expect(csv.body.data.sql.code).toBe(`sql_${reason}`);
    const logged = await loggedFor(sql);
    expect(logged.length, `no log entry for ${sql}`).toBeGreaterThanOrEqual(2);
    expect(logged[0].level).toBe(8);
    expect(logged[0].data.error).toBe(res.body.message);
    expect(logged[0].data.details).toEqual({ sqlConsole: 'refused', reason, statement: sql });
  });

  it('changed nothing', async () => {
    const res = await run("SELECT (SELECT count(*) FROM demo1) AS records, (SELECT count(*) FROM sqlite_schema WHERE name IN ('t', 'v')) AS tables");
    expect(res.rows[0][1]).toBe(0);
    expect(res.rows[0][0]).toBeGreaterThan(0);
  });
});

describe('the budget', () => {
  it('stops a runaway recursive CTE and says so, while /api/health stays fast', async () => {
    const latencies: number[] = [];
    let done = false;
    const t0 = performance.now();
    const runaway = run(RUNAWAY).finally(() => (done = true));
    // a second runaway beside it: the pool keeps a child free for cheap reads
    const second = run(`${COUNTER()} SELECT max(x) FROM c`);
    while (!done) {
      const s = performance.now();
      const res = await fetch(srv.url + '/api/health');
      await res.arrayBuffer();
      latencies.push(performance.now() - s);
      await sleep(5);
    }
    const res = await runaway;
    const elapsed = performance.now() - t0;
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The query was stopped: it ran past your time budget of 2 s.');
    expect(res.body.data.sql.code).toBe('sql_stopped');
    expect(elapsed).toBeGreaterThanOrEqual(BUDGET_MS - 50);
    expect(elapsed).toBeLessThan(BUDGET_MS + 3000);
    expect((await second).status).toBe(400);
    // a list (cheap reads) still answers while runaways run
    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))];
    console.log(`[sql-console] /api/health during a runaway: ${latencies.length} calls, p50 ${latencies[latencies.length >> 1].toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
    expect(latencies.length).toBeGreaterThan(20);
    // (not blocked: a stall would be the 2 s budget; the 100 ms figure is the bench's, on a quiet machine)
    expect(p99).toBeLessThan(500);
    const [log] = await loggedFor(RUNAWAY);
    expect(log.data.details).toMatchObject({ sqlConsole: 'stopped', budgetMs: BUDGET_MS });
    // the stopped statement's process is gone: nothing is left running
    expect(srv.app.ctx.reads.busyPids()).toEqual([]);
  });

  it('ends the rows with an {error} line when the statement fails after rows went out', async () => {
    const failing = await run(`${COUNTER(2000)} SELECT CASE WHEN x < 1500 THEN x ELSE json('not json') END AS v FROM c`);
    expect(failing.status).toBe(200);
    expect(failing.rows.length).toBeGreaterThan(0);
    expect(failing.rows.length).toBeLessThan(1500);
    expect(failing.tail.error).toEqual({ code: 400, message: 'malformed JSON', data: { sql: { code: 'sql_failed', message: 'malformed JSON' } } });
    expect(failing.tail.rowCount).toBe(failing.rows.length);

    const stalled = await run(`${COUNTER()} SELECT x FROM c WHERE x <= 700 OR x < 0`);
    expect(stalled.status).toBe(200);
    expect(stalled.rows.length).toBeGreaterThanOrEqual(500);
    expect(stalled.tail.error.message).toBe('The query was stopped: it ran past your time budget of 2 s.');
  });
});

describe('CSV export', () => {
  async function csvResponse(sql: string): Promise<Response> {
    return fetch(srv.url + '/api/outpost/sql/csv', { method: 'POST', headers: { authorization: FIXTURE_ADMIN_TOKEN, 'content-type': 'application/json' }, body: JSON.stringify({ sql }) });
  }

  it('streams every row of a large result (200,000 rows, well past the screen limit)', async () => {
    const res = await csvResponse(`${COUNTER(200_000)} SELECT x, 'row ' || x AS label FROM c`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="query_\d{8}_\d{6}\.csv"$/);
    // streamed: no length up front, many chunks
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.headers.get('content-encoding')).toBeNull();
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let chunks = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks++;
      text += decoder.decode(value, { stream: true });
    }
    const lines = text.split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(200_001);
    expect(lines[0]).toBe('x,label');
    expect(lines[1]).toBe('1,row 1');
    expect(lines[200_000]).toBe('200000,row 200000');
    expect(chunks).toBeGreaterThan(10);
  });

  it("charges the budget with SQLite's time only: a reader slower than the budget gets every row", async () => {
    const rows = 100_000;
    const res = await csvResponse(`${COUNTER(rows)} SELECT x FROM c`);
    const reader = res.body!.getReader();
    const t0 = performance.now();
    let bytes = 0;
    for (let reads = 0; ; reads++) {
      const { value, done } = await reader.read();
      if (done) break;
      bytes += value.length;
      // after the first rows the reader stalls longer than the whole budget, then reads on slowly
      await sleep(reads === 0 ? BUDGET_MS + 500 : 10);
    }
    expect(performance.now() - t0).toBeGreaterThan(BUDGET_MS + 500);
    const expected = 'x\r\n'.length + Array.from({ length: rows }, (_, i) => String(i + 1).length + 2).reduce((a, b) => a + b, 0);
    expect(bytes).toBe(expected);
  });

  it('writes CSV as spreadsheets read it: quotes, line breaks, NULL, blobs, formulas', async () => {
    const res = await csvResponse(`SELECT 'a,b' AS "comma, col", 'say "hi"' AS q, 'line1\nline2' AS nl, NULL AS n, 2.5 AS r, x'0aff' AS b, '=1+2' AS f, -3 AS neg, ' pad' AS p`);
    expect(await res.text()).toBe(`"comma, col",q,nl,n,r,b,f,neg,p\r\n"a,b","say ""hi""","line1\nline2",,2.5,x'0aff','=1+2,-3," pad"\r\n`);
  });

  it('cuts the download short when the statement fails midway (never a file that looks complete), and logs why', async () => {
    const sql = `${COUNTER()} SELECT x FROM c WHERE x <= 3000 OR x < 0`;
    const res = await csvResponse(sql);
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    const [log] = await loggedFor(sql);
    expect(log.level).toBe(8);
    expect(log.data.error).toBe('The query was stopped: it ran past your time budget of 2 s.');
    expect(log.data.details).toMatchObject({ sqlConsole: 'stopped' });
  });
});
