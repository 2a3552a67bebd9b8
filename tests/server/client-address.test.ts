// The client's address (server/http/client-address.ts) against the real server: the settings'
// trustedProxy (PocketBase 0.23's shape, stored in the 0.22 settings row, validated with its schema
// file), which headers are believed (only those listed: last line, rightmost or leftmost valid IP),
// and everything that keys on it: the request log's userIp (remoteIp stays the socket's), the
// sign-in limiter per address, the realtime origin, and health's realIP / possibleProxyHeader for
// the dashboard's hint. Through a real nginx: tests/server/reverse-proxy.test.ts.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getLogWriter } from '../../server/services/request-log';
import { brokerOf } from '../../server/http/realtime';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_PASSWORD, http as api, startServer, type TestServer } from '../helpers/server';

let s: TestServer;
const token = FIXTURE_ADMIN_TOKEN;

beforeAll(async () => {
  // the PocketBase 0.22.12 fixture: its stored settings row has no trustedProxy
  s = await startServer({ fixture: true });
});
afterAll(() => s?.close());

const storedRow = () => JSON.parse((s.app.db.prepare("SELECT value FROM _params WHERE key = 'settings'").get() as { value: string }).value);
const setProxy = async (trustedProxy: unknown) => {
  const res = await api(s.url, 'PATCH', '/api/settings', { token, body: { trustedProxy } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.trustedProxy;
};

/** A GET with header lines as given (an array sends the header once per item, as proxies chain them). */
function rawGet(path: string, headers: Record<string, string | string[]>, auth?: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${s.url}${path}`, { agent: false, headers: { ...headers, ...(auth ? { Authorization: auth } : {}) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
  });
}

/** The address health resolves for a request with these headers (admins get realIP). */
const resolved = async (headers: Record<string, string | string[]>) => (await rawGet('/api/health', headers, token)).body.data.realIP as string;

async function loggedIps(path: string): Promise<{ userIp: string; remoteIp: string }> {
  for (let i = 0; i < 50; i++) {
    getLogWriter(s.app.ctx)?.flush();
    const res = await api(s.url, 'GET', `/api/logs?sort=-rowid&filter=${encodeURIComponent(`data.url = "${path}"`)}`, { token });
    if (res.body.items?.length) return res.body.items[0].data;
    await new Promise((r) => setTimeout(r, 40));
  }
  throw new Error(`no log of ${path}`);
}

describe('the trustedProxy setting', () => {
  it('defaults to no header over a 0.22 row without it, and is stored in that row next to 0.22\'s keys', async () => {
    const before = storedRow();
    expect(before.trustedProxy).toBeUndefined();
    expect((await api(s.url, 'GET', '/api/settings', { token })).body.trustedProxy).toEqual({ headers: [], useLeftmostIP: false });

    expect(await setProxy({ headers: ['X-Real-IP'], useLeftmostIP: true })).toEqual({ headers: ['X-Real-IP'], useLeftmostIP: true });
    const after = storedRow();
    expect(after.trustedProxy).toEqual({ headers: ['X-Real-IP'], useLeftmostIP: true });
    // everything 0.22 stored is still there, unchanged (0.22 decodes the row with encoding/json, which skips unknown keys)
    expect(after).toMatchObject(before);
    // a null list empties it, as Go's json.Unmarshal does
    expect(await setProxy({ headers: null })).toEqual({ headers: [], useLeftmostIP: true });
    expect(await setProxy({ useLeftmostIP: false })).toEqual({ headers: [], useLeftmostIP: false });
  });

  it('refuses a header that is no header name, and values of the wrong type, in the 400 envelope', async () => {
    const bad = await api(s.url, 'PATCH', '/api/settings', { token, body: { trustedProxy: { headers: ['X-Real-IP', 'not a header'] } } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 400, message: 'An error occurred while submitting the form.' });
    expect(bad.body.data.trustedProxy.headers['1']).toMatchObject({ message: 'Must be a valid header name.' });
    for (const trustedProxy of [{ headers: 'X-Real-IP' }, { headers: [1] }, { useLeftmostIP: 'yes' }, 'X-Real-IP']) {
      const res = await api(s.url, 'PATCH', '/api/settings', { token, body: { trustedProxy } });
      expect(res.status, JSON.stringify(trustedProxy)).toBe(400);
      expect(res.body.data.trustedProxy).toBeTruthy();
    }
    expect((await api(s.url, 'GET', '/api/settings', { token })).body.trustedProxy).toEqual({ headers: [], useLeftmostIP: false });
  });
});

describe('which address is believed', () => {
  it('with no header listed, none: the socket\'s address, in the log and for health', async () => {
    await setProxy({ headers: [], useLeftmostIP: false });
    const spoof = { 'X-Forwarded-For': '203.0.113.7', 'X-Real-IP': '203.0.113.8', 'CF-Connecting-IP': '203.0.113.9' };
    expect(await resolved(spoof)).toBe('127.0.0.1');
    await rawGet('/api/untrusted-probe', spoof);
    expect(await loggedIps('/api/untrusted-probe')).toMatchObject({ userIp: '127.0.0.1', remoteIp: '127.0.0.1' });
  });

  it('a listed header: its last line, the rightmost valid IP (leftmost with useLeftmostIP); the log keeps the socket as remoteIp', async () => {
    await setProxy({ headers: ['x-forwarded-for'], useLeftmostIP: false });
    expect(await resolved({ 'X-Forwarded-For': '203.0.113.7, 198.51.100.2' })).toBe('198.51.100.2');
    // the earlier line may be the client's own: only the last (the nearest proxy's) counts
    expect(await resolved({ 'X-Forwarded-For': ['198.51.100.66', '203.0.113.7'] })).toBe('203.0.113.7');
    // entries that are no IP are skipped; none at all: the socket's
    expect(await resolved({ 'X-Forwarded-For': '203.0.113.7, unknown, 198.51.100.2:8080' })).toBe('203.0.113.7');
    expect(await resolved({ 'X-Forwarded-For': 'unknown' })).toBe('127.0.0.1');
    expect(await resolved({})).toBe('127.0.0.1');
    // one spelling per address
    expect(await resolved({ 'X-Forwarded-For': '2001:DB8:0:0:0:0:0:1' })).toBe('2001:db8::1');
    expect(await resolved({ 'X-Forwarded-For': '::ffff:192.0.2.1' })).toBe('192.0.2.1');
    await rawGet('/api/trusted-probe', { 'X-Forwarded-For': '203.0.113.7, 198.51.100.2' });
    expect(await loggedIps('/api/trusted-probe')).toMatchObject({ userIp: '198.51.100.2', remoteIp: '127.0.0.1' });

    await setProxy({ headers: ['X-Forwarded-For'], useLeftmostIP: true });
    expect(await resolved({ 'X-Forwarded-For': 'bogus, 203.0.113.7, 198.51.100.2' })).toBe('203.0.113.7');
  });

  it('several listed headers are tried in order; an unlisted one is never read', async () => {
    await setProxy({ headers: ['CF-Connecting-IP', 'X-Real-IP'], useLeftmostIP: false });
    expect(await resolved({ 'X-Real-IP': '192.0.2.5', 'CF-Connecting-IP': '192.0.2.6' })).toBe('192.0.2.6');
    expect(await resolved({ 'X-Real-IP': '192.0.2.5', 'CF-Connecting-IP': 'garbage' })).toBe('192.0.2.5');
    expect(await resolved({ 'X-Forwarded-For': '192.0.2.7' })).toBe('127.0.0.1');
  });
});

describe('health for the dashboard\'s hint', () => {
  it('names a forwarding header the request carries (a listed one first) and the resolved address, for admins only', async () => {
    await setProxy({ headers: ['X-Real-IP'], useLeftmostIP: false });
    const health = async (headers: Record<string, string>, auth?: string) => (await rawGet('/api/health', headers, auth)).body.data;
    expect(await health({ 'X-Forwarded-For': '203.0.113.7' }, token)).toMatchObject({ realIP: '127.0.0.1', possibleProxyHeader: 'X-Forwarded-For' });
    expect(await health({ 'X-Forwarded-For': '203.0.113.7', 'X-Real-IP': '203.0.113.8' }, token)).toMatchObject({ realIP: '203.0.113.8', possibleProxyHeader: 'X-Real-IP' });
    expect(await health({}, token)).toMatchObject({ realIP: '127.0.0.1', possibleProxyHeader: '' });
    // guests get 0.22's answer only
    expect(await health({ 'X-Forwarded-For': '203.0.113.7' })).toEqual({ canBackup: true });
  });
});

describe('what keys on the client', () => {
  const adminSignIn = (identity: string, password: string, ip: string) =>
    api(s.url, 'POST', '/api/admins/auth-with-password', { body: { identity, password }, headers: { 'X-Real-IP': ip } });

  it('the sign-in limiter counts per resolved address: failures from one do not lock the victim out from another', async () => {
    await setProxy({ headers: ['X-Real-IP'], useLeftmostIP: false });
    for (let i = 0; i < 5; i++) expect((await adminSignIn('test@example.com', `wrong-${i}`, '192.0.2.10')).status).toBe(400);
    expect((await adminSignIn('test@example.com', FIXTURE_PASSWORD, '192.0.2.10')).status).toBe(429);
    expect((await adminSignIn('test@example.com', FIXTURE_PASSWORD, '192.0.2.11')).status).toBe(200);
    // (60 made-up identities from one client against another: tests/server/reverse-proxy.test.ts, through nginx)
  });

  it('a realtime connection\'s origin (the per-address subscription caps) is the resolved address', async () => {
    await setProxy({ headers: ['X-Real-IP'], useLeftmostIP: false });
    const { clientId, close } = await new Promise<{ clientId: string; close: () => void }>((resolve, reject) => {
      const req = http.get(`${s.url}/api/realtime`, { agent: false, headers: { Accept: 'text/event-stream', 'X-Real-IP': '192.0.2.20' } }, (res) => {
        res.setEncoding('utf8');
        let text = '';
        res.on('data', (c: string) => {
          text += c;
          const m = /"clientId":"([^"]+)"/.exec(text);
          if (m) resolve({ clientId: m[1], close: () => req.destroy() });
        });
      });
      req.on('error', reject);
    });
    try {
      expect(brokerOf(s.app.ctx)?.get(clientId)?.origin).toBe('192.0.2.20');
    } finally {
      close();
    }
  });
});
