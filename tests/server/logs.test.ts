// The request log and the logs API over HTTP against the real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidateLogsStats, LOGS_SCAN_TUNING } from '../../server/services/logs-read';
import { getLogWriter } from '../../server/services/request-log';
import { http, startServer, type TestServer } from '../helpers/server';

const DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const FIXTURE_ADMIN_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6InN5d2JoZWNuaDQ2cmhtMCIsInR5cGUiOiJhZG1pbiIsImV4cCI6MjIwODk4NTI2MX0.M1m--VOqGyv0d23eeUc0r9xE8ZzHaYVmVFw1VZW6gT8';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Flushes the batch writer until `count` logs match `filter` (onResponse runs just after the client got its answer). */
async function waitForLogs(s: TestServer, token: string, filter: string, count = 1) {
  for (let i = 0; i < 50; i++) {
    getLogWriter(s.app.ctx)?.flush();
    const res = await http(s.url, 'GET', `/api/logs?perPage=500&sort=-rowid&filter=${encodeURIComponent(filter)}`, { token });
    if (res.status === 200 && res.body.items.length >= count) return res.body.items as any[];
    await sleep(40);
  }
  throw new Error(`no log matching ${filter}`);
}

describe('request logs on a new data dir', () => {
  let s: TestServer;
  let token: string;

  beforeAll(async () => {
    s = await startServer();
    const email = 'logs-admin@example.com';
    const password = 'a-long-password-123';
    const created = await http(s.url, 'POST', '/api/admins', { body: { email, password, passwordConfirm: password } });
    expect(created.status).toBe(200);
    const auth = await http(s.url, 'POST', '/api/admins/auth-with-password', { body: { identity: email, password } });
    expect(auth.status).toBe(200);
    token = auth.body.token;
  });
  afterAll(async () => s?.close());

  it('is admin only (401 for guests and garbage tokens)', async () => {
    for (const path of ['/api/logs', '/api/logs/stats', '/api/logs/abc']) {
      const res = await http(s.url, 'GET', path);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 401, message: 'The request requires valid admin authorization token to be set.', data: {} });
      expect((await http(s.url, 'GET', path, { token: 'garbage' })).status).toBe(401);
    }
  });

  it('logs a failed request at level 8 with the error and request details', async () => {
    const res = await http(s.url, 'GET', '/api/missing-route%20x?a=1', {
      headers: { 'User-Agent': 'logs-test', Referer: 'http://example.com/page', 'X-Forwarded-For': '203.0.113.7, 10.0.0.1' },
    });
    expect(res.status).toBe(404);
    const [log] = await waitForLogs(s, token, `data.url = "/api/missing-route%20x?a=1"`);
    expect(Object.keys(log)).toEqual(['id', 'created', 'updated', 'data', 'message', 'level']);
    expect(log.id).toMatch(/^[a-z0-9]{15}$/);
    expect(log.created).toMatch(DATE);
    expect(log.updated).toBe(log.created);
    expect(log.level).toBe(8);
    expect(log.message).toBe('GET /api/missing-route x?a=1');
    expect(log.data).toMatchObject({
      type: 'request',
      url: '/api/missing-route%20x?a=1',
      method: 'GET',
      status: 404,
      auth: 'guest',
      error: 'Not Found.',
      referer: 'http://example.com/page',
      userAgent: 'logs-test',
      // no trusted proxy header is configured: the sender's X-Forwarded-For is not believed
      userIp: '127.0.0.1',
      remoteIp: '127.0.0.1',
    });
    expect(typeof log.data.execTime).toBe('number');
    expect(Object.keys(log.data)).toEqual([...Object.keys(log.data)].sort());
  });

  it('logs successful requests at level 0 with the caller kind, but not /api/health or /api/logs', async () => {
    expect((await http(s.url, 'GET', '/api/health')).status).toBe(200);
    expect((await http(s.url, 'GET', '/api/logs', { token })).status).toBe(200);
    expect((await http(s.url, 'GET', '/api/settings', { token })).status).toBe(200);
    const [log] = await waitForLogs(s, token, `message = "GET /api/settings" && level = 0`);
    expect(log.data).toMatchObject({ status: 200, auth: 'admin', method: 'GET', url: '/api/settings' });
    expect(log.data.error).toBeUndefined();
    getLogWriter(s.app.ctx)?.flush();
    const quiet = await http(s.url, 'GET', `/api/logs?filter=${encodeURIComponent(`message ~ "/api/health" || (message ~ "/api/logs" && level = 0)`)}`, { token });
    expect(quiet.body.totalItems).toBe(0);
  });

  it('logs failures even on the quiet routes', async () => {
    expect((await http(s.url, 'GET', '/api/logs?filter=' + encodeURIComponent('nope = 1'), { token })).status).toBe(400);
    const [log] = await waitForLogs(s, token, `data.url ~ "/api/logs?filter=nope" && level = 8`);
    expect(log.data).toMatchObject({ status: 400, auth: 'admin', error: 'Something went wrong while processing your request.' });
    expect(log.data.details).toContain('nope');
  });

  it('logs a guest 401 with the error message', async () => {
    expect((await http(s.url, 'GET', '/api/settings')).status).toBe(401);
    const [log] = await waitForLogs(s, token, `message = "GET /api/settings" && level > 0 && data.auth = "guest"`);
    expect(log.data).toMatchObject({ status: 401, error: 'The request requires valid admin authorization token to be set.' });
  });

  it('writes batches without an explicit flush, 3 s after the last entry', async () => {
    await http(s.url, 'GET', '/api/batch-probe');
    await sleep(3600);
    const res = await http(s.url, 'GET', `/api/logs?filter=${encodeURIComponent('message = "GET /api/batch-probe"')}`, { token });
    expect(res.body.totalItems).toBe(1);
  }, 10_000);

  it('lists with filters, sort, paging, skipTotal and fields', async () => {
    await waitForLogs(s, token, 'data.status >= 400', 3);
    const failed = await http(s.url, 'GET', `/api/logs?filter=${encodeURIComponent('data.status >= 400')}`, { token });
    expect(failed.status).toBe(200);
    expect(Object.keys(failed.body)).toEqual(['page', 'perPage', 'totalItems', 'totalPages', 'items']);
    expect(failed.body.items.every((l: any) => l.data.status >= 400 && l.level === 8)).toBe(true);

    const guests = await http(s.url, 'GET', `/api/logs?filter=${encodeURIComponent('level > 0 && data.auth = "guest"')}&sort=-created`, { token });
    expect(guests.body.items.length).toBeGreaterThan(0);
    expect(guests.body.items.every((l: any) => l.data.auth === 'guest' && l.level > 0)).toBe(true);
    const created = guests.body.items.map((l: any) => l.created);
    expect(created).toEqual([...created].sort().reverse());

    const page = await http(s.url, 'GET', '/api/logs?page=1&perPage=1&skipTotal=1&sort=-rowid', { token });
    expect(page.body).toMatchObject({ page: 1, perPage: 1, totalItems: -1, totalPages: -1 });
    expect(page.body.items).toHaveLength(1);

    const picked = await http(s.url, 'GET', '/api/logs?perPage=2&fields=level,id', { token });
    expect(Object.keys(picked.body)).toEqual(['items', 'page', 'perPage', 'totalItems', 'totalPages']);
    expect(Object.keys(picked.body.items[0])).toEqual(['id', 'level']);

    expect((await http(s.url, 'GET', '/api/logs?page=abc', { token })).status).toBe(400);
    expect((await http(s.url, 'GET', '/api/logs?sort=nope', { token })).status).toBe(400);
  });

  it('answers 400 to injection attempts and keeps the table intact', async () => {
    for (const filter of [`message = ''; DROP TABLE _logs; --`, `'; DROP TABLE _logs; --`, `1 = 1 OR 1=1`, '('.repeat(5000)]) {
      const res = await http(s.url, 'GET', `/api/logs?filter=${encodeURIComponent(filter)}`, { token });
      expect(res.status).toBe(400);
      // past our own length bound the answer names the filter; otherwise 0.22's generic failure
      const message = filter.length > 3500 ? 'Invalid filter - filter is longer than 3500 characters.' : 'Something went wrong while processing your request.';
      expect(res.body).toEqual({ code: 400, message, data: {} });
    }
    const quoted = await http(s.url, 'GET', `/api/logs?filter=${encodeURIComponent(`message = "'; DROP TABLE _logs; --"`)}`, { token });
    expect(quoted.status).toBe(200);
    expect(quoted.body.totalItems).toBe(0);
    expect((await http(s.url, 'GET', '/api/logs', { token })).body.totalItems).toBeGreaterThan(0);
  });

  it('views one log and answers 404 for a missing id', async () => {
    const [first] = (await http(s.url, 'GET', '/api/logs?perPage=1', { token })).body.items;
    const one = await http(s.url, 'GET', `/api/logs/${first.id}`, { token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(first);
    expect(Object.keys(one.body)).toEqual(['id', 'created', 'updated', 'data', 'message', 'level']);
    const missing = await http(s.url, 'GET', '/api/logs/doesnotexist123', { token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 404, message: "The requested resource wasn't found.", data: {} });
  });

  it('answers hourly stats, filterable', async () => {
    const all = await http(s.url, 'GET', '/api/logs/stats', { token });
    expect(all.status).toBe(200);
    expect(all.body.length).toBeGreaterThan(0);
    for (const item of all.body) {
      expect(Object.keys(item)).toEqual(['total', 'date']);
      expect(item.date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:00:00\.000Z$/);
    }
    const total = all.body.reduce((n: number, i: any) => n + i.total, 0);
    expect(total).toBe((await http(s.url, 'GET', '/api/logs', { token })).body.totalItems);

    const errors = await http(s.url, 'GET', `/api/logs/stats?filter=${encodeURIComponent('level = 8')}`, { token });
    const errorTotal = errors.body.reduce((n: number, i: any) => n + i.total, 0);
    expect(errorTotal).toBe((await http(s.url, 'GET', `/api/logs?filter=level%20%3D%208`, { token })).body.totalItems);

    const bad = await http(s.url, 'GET', `/api/logs/stats?filter=${encodeURIComponent("'; DROP")}`, { token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ code: 400, message: 'Invalid filter format.', data: {} });
  });

  it('answers what the Logs page sends: the preset and a normalised term joined with &&', async () => {
    const preset = 'data.auth!="admin"';
    const term = `level~"settings" || message~"settings" || data~"settings"`;
    const joined = `(${preset}) && (${term})`;
    const list = await http(s.url, 'GET', `/api/logs?page=1&perPage=50&sort=-rowid&skipTotal=1&filter=${encodeURIComponent(joined)}`, { token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ page: 1, perPage: 50, totalItems: -1, totalPages: -1 });
    expect(list.body.items.length).toBeGreaterThan(0);
    for (const l of list.body.items) {
      expect(l.data.auth).not.toBe('admin');
      expect(JSON.stringify([l.level, l.message, l.data])).toMatch(/settings/i);
    }
    const stats = await http(s.url, 'GET', `/api/logs/stats?filter=${encodeURIComponent(joined)}`, { token });
    expect(stats.status).toBe(200);
    const counted = await http(s.url, 'GET', `/api/logs?perPage=1&filter=${encodeURIComponent(joined)}`, { token });
    expect(stats.body.reduce((n: number, i: any) => n + i.total, 0)).toBe(counted.body.totalItems);

    // an unknown key or a syntax error: 400 in the envelope, never a 500
    for (const bad of ['(data.auth!="admin") && (nope = 1)', 'level >', '(((']) {
      const l = await http(s.url, 'GET', `/api/logs?filter=${encodeURIComponent(bad)}`, { token });
      expect(l.status).toBe(400);
      expect(l.body).toEqual({ code: 400, message: 'Something went wrong while processing your request.', data: {} });
      const st = await http(s.url, 'GET', `/api/logs/stats?filter=${encodeURIComponent(bad)}`, { token });
      expect(st.status).toBe(400);
      expect(st.body).toEqual({ code: 400, message: 'Invalid filter format.', data: {} });
    }
  });

  it('keeps answering other requests while the stats scan a large table', async () => {
    // 60,000 entries over 7 days, and a filter no index can serve
    const now = Date.now();
    s.app.logsDb
      .prepare(
        `WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < 59999)
         INSERT INTO _logs (id, level, message, data, created, updated)
         SELECT printf('bulk%011d', i), 0, 'GET /bulk/' || i, json_object('auth', 'guest', 'url', '/bulk/' || i, 'type', 'request'),
           strftime('%Y-%m-%d %H:%M:%fZ', ? + i * ?), strftime('%Y-%m-%d %H:%M:%fZ', ? + i * ?) FROM seq`,
      )
      .run(...[now / 86_400_000 + 2440587.5 - 7, 7 / 60000, now / 86_400_000 + 2440587.5 - 7, 7 / 60000]);
    invalidateLogsStats(s.app.logsDb); // rows written behind the server's back
    // many small steps (an hour, 100 rowids), so the scans below surely yield while other requests come
    const tuning = { ...LOGS_SCAN_TUNING };
    Object.assign(LOGS_SCAN_TUNING, { firstWindowRows: 100, firstSliceHours: 1, targetMs: 0 });
    const order: string[] = [];
    const stats = http(s.url, 'GET', `/api/logs/stats?filter=${encodeURIComponent('message ~ "no such text anywhere"')}`, { token }).then((r) => {
      order.push('stats');
      return r;
    });
    await sleep(5);
    const health = http(s.url, 'GET', '/api/health').then((r) => {
      order.push('health');
      return r;
    });
    const [st, h] = await Promise.all([stats, health]);
    expect(st.status).toBe(200);
    expect(st.body).toEqual([]);
    expect(h.status).toBe(200);
    expect(order).toEqual(['health', 'stats']);
    const all = await http(s.url, 'GET', '/api/logs/stats', { token });
    expect(all.body.reduce((n: number, i: any) => n + i.total, 0)).toBeGreaterThanOrEqual(60000);

    // the page's list request (filter, -rowid, no totals) scans in windows: same answer as one query
    const f = encodeURIComponent('message ~ "bulk/1"');
    for (const [page, perPage] of [[1, 50], [3, 40], [2, 500]]) {
      const windows = await http(s.url, 'GET', `/api/logs?filter=${f}&sort=-rowid&skipTotal=1&page=${page}&perPage=${perPage}`, { token });
      const plain = await http(s.url, 'GET', `/api/logs?filter=${f}&sort=-rowid&page=${page}&perPage=${perPage}`, { token });
      expect(windows.status).toBe(200);
      expect(windows.body).toMatchObject({ page, perPage, totalItems: -1, totalPages: -1 });
      expect(windows.body.items.map((l: any) => l.id)).toEqual(plain.body.items.map((l: any) => l.id));
      expect(windows.body.items.length).toBeGreaterThan(0);
    }
    const listOrder: string[] = [];
    const list = http(s.url, 'GET', `/api/logs?filter=${encodeURIComponent('(data.auth!="admin") && (message ~ "no such text anywhere" || data ~ "no such text anywhere")')}&sort=-rowid&skipTotal=1&perPage=50`, { token }).then((r) => {
      listOrder.push('list');
      return r;
    });
    await sleep(5);
    const health2 = http(s.url, 'GET', '/api/health').then((r) => {
      listOrder.push('health');
      return r;
    });
    const [l] = await Promise.all([list, health2]);
    expect(l.status).toBe(200);
    expect(l.body.items).toEqual([]);
    expect(listOrder).toEqual(['health', 'list']);
    Object.assign(LOGS_SCAN_TUNING, tuning);
    s.app.logsDb.prepare("DELETE FROM _logs WHERE id LIKE 'bulk%'").run();
    invalidateLogsStats(s.app.logsDb);
  }, 30_000);

  it('leaves out the IPs when logs.logIp is off', async () => {
    const current = (await http(s.url, 'GET', '/api/settings', { token })).body.logs;
    expect((await http(s.url, 'PATCH', '/api/settings', { token, body: { logs: { ...current, logIp: false } } })).status).toBe(200);
    await http(s.url, 'GET', '/api/no-ip-probe');
    const [log] = await waitForLogs(s, token, 'message = "GET /api/no-ip-probe"');
    expect(log.data.userIp).toBeUndefined();
    expect(log.data.remoteIp).toBeUndefined();
  });

  it('with logs.maxDays 0 clears the logs and logs nothing more', async () => {
    const current = (await http(s.url, 'GET', '/api/settings', { token })).body.logs;
    expect((await http(s.url, 'PATCH', '/api/settings', { token, body: { logs: { ...current, maxDays: 0 } } })).status).toBe(200);
    await http(s.url, 'GET', '/api/after-off');
    await http(s.url, 'GET', '/api/settings', { token });
    await sleep(100);
    getLogWriter(s.app.ctx)?.flush();
    const res = await http(s.url, 'GET', '/api/logs', { token });
    expect(res.body.totalItems).toBe(0);
  });
});

describe('logs of the PocketBase fixture', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ fixture: true });
  });
  afterAll(async () => s?.close());

  it('lists and views the fixture entry with 0.22 fields', async () => {
    const res = await http(s.url, 'GET', '/api/logs', { token: FIXTURE_ADMIN_TOKEN });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ page: 1, perPage: 30, totalItems: 1, totalPages: 1 });
    const [log] = res.body.items;
    expect(log).toEqual({
      id: '382ieorl6ivjum4',
      created: '2024-01-03 09:01:55.630Z',
      updated: '2024-01-03 09:01:55.630Z',
      data: {
        auth: 'admin',
        execTime: 12.397243,
        method: 'PATCH',
        referer: 'http://localhost:8090/_/',
        remoteIp: '127.0.0.1',
        status: 200,
        type: 'request',
        url: '/api/settings',
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
        userIp: '127.0.0.1',
      },
      message: 'PATCH /api/settings',
      level: 0,
    });
    expect(Object.keys(log)).toEqual(['id', 'created', 'updated', 'data', 'message', 'level']);
    const view = await http(s.url, 'GET', '/api/logs/382ieorl6ivjum4', { token: FIXTURE_ADMIN_TOKEN });
    expect(view.body).toEqual(log);
    const stats = await http(s.url, 'GET', '/api/logs/stats', { token: FIXTURE_ADMIN_TOKEN });
    expect(stats.body).toEqual([{ total: 1, date: '2024-01-03 09:00:00.000Z' }]);
    const filtered = await http(s.url, 'GET', `/api/logs?filter=${encodeURIComponent('data.auth = "admin" && data.method = "PATCH"')}`, { token: FIXTURE_ADMIN_TOKEN });
    expect(filtered.body.totalItems).toBe(1);
  });
});
