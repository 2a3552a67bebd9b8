// The SQL console's streams and a reader that stops reading (issue 37: the server stays responsive),
// against the built server: while a reader waits, the budget pauses but the statement keeps its
// read-pool child, so a download that takes nothing is cut after twice the budget (5 s at least),
// which frees the child for others' reads, and the request log says why.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http as api, startServer, type TestServer } from '../helpers/server';

const BUDGET_MS = 1000;
const STALL_MS = 5000;
let srv: TestServer;
let token = '';
let other = '';

const signIn = async (email: string) => (await api(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: email, password: '1234567890' } })).body.token as string;

beforeAll(async () => {
  srv = await startServer({ fixture: true, queryTimeoutMs: BUDGET_MS });
  token = await signIn('test@example.com');
  other = await signIn('test2@example.com');
}, 60_000);

afterAll(async () => {
  await srv?.close();
});

/**
 * Starts a CSV export of a huge result, reads its first bytes and then nothing (the socket's
 * buffers fill and the server's writes stop). The server's end of it is seen in its request log:
 * the connection it closes still holds, on this side, the bytes nobody reads.
 */
function stalledDownload(): Promise<http.ClientRequest> {
  const sql = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50000000) SELECT x, printf('%0200d', x) FROM c";
  return new Promise((resolve, reject) => {
    const req = http.request(`${srv.url}/api/outpost/sql/csv`, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' } }, (res) => {
      expect(res.statusCode).toBe(200);
      res.once('data', () => {
        res.pause();
        resolve(req);
      });
      res.on('error', () => undefined);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ sql }));
  });
}

const stalledLogs = async () => {
  const logs = await api(srv.url, 'GET', `/api/logs?perPage=20&filter=${encodeURIComponent('data.url = "/api/outpost/sql/csv"')}`, { token });
  return (logs.body.items as Array<{ data: { details?: { sqlConsole?: string } } }>).filter((l) => l.data.details?.sqlConsole === 'stalled').length;
};

describe('a console download that takes nothing', () => {
  it('is cut after its stall limit, which frees the read pool for others', async () => {
    const t0 = Date.now();
    const downloads: http.ClientRequest[] = [];
    try {
      // as many as one admin may hold (all the pool's children but the one kept for cheap reads), and one more
      for (let i = 0; i < 3; i++) downloads.push(await stalledDownload().catch(() => null as unknown as http.ClientRequest));
      await expect.poll(stalledLogs, { timeout: 60_000, interval: 500 }).toBeGreaterThanOrEqual(2);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(STALL_MS - 500);
      // another admin's costly statement is answered: the children are free again
      const res = await fetch(`${srv.url}/api/outpost/sql`, {
        method: 'POST',
        headers: { authorization: other, 'content-type': 'application/json' },
        body: JSON.stringify({ sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000) SELECT count(*) FROM c' }),
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('[[200000]]');
    } finally {
      for (const d of downloads) d?.destroy();
    }
  }, 120_000);
});
