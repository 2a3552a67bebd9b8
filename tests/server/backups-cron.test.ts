// Automatic backups on the real clock: a cron of every minute ('* * * * *', UTC) makes an
// '@auto_pb_backup_' backup at the next minute and keeps only the newest cronMaxKeep of them
// (older automatic ones deleted, manual ones untouched). One wait of up to a minute.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runAutoBackup } from '../../server/services/backups/cron';
import { databaseSnapshot } from '../../server/services/backups/create';
import { getLogWriter } from '../../server/services/request-log';
import { FIXTURE_ADMIN_TOKEN as ADMIN, http, startServer, type TestServer } from '../helpers/server';

let srv: TestServer;

beforeAll(async () => {
  srv = await startServer({ fixture: true });
});
afterAll(async () => {
  await srv?.close();
});

it('a failing automatic run is logged to logs.db and the server keeps serving', async () => {
  const api = (method: string, p: string, body?: unknown) => http(srv.url, method, p, { token: ADMIN, body });
  // backups on an S3 endpoint nobody listens on: the run must fail
  const s3 = { enabled: true, endpoint: 'http://127.0.0.1:9', bucket: 'b', region: 'us-east-1', accessKey: 'k', secret: 's', forcePathStyle: true };
  expect((await api('PATCH', '/api/settings', { backups: { s3 } })).status).toBe(200);
  await expect(runAutoBackup(srv.app.ctx, databaseSnapshot(srv.app.db, srv.app.logsDb))).resolves.toBeUndefined();
  getLogWriter(srv.app.ctx)?.flush();
  const logs = await api('GET', `/api/logs?filter=${encodeURIComponent("message~'automatic backup'")}`);
  expect(logs.status).toBe(200);
  expect(logs.body.items.map((l: { message: string }) => l.message)).toContain('Failed to create the automatic backup');
  expect((await http(srv.url, 'GET', '/api/health')).body.data.canBackup).toBe(true);
  expect((await api('PATCH', '/api/settings', { backups: { s3: { ...s3, enabled: false } } })).status).toBe(200);
});

it('a cron of every minute makes a backup and keeps cronMaxKeep automatic ones', async () => {
  const api = (method: string, p: string, body?: unknown) => http(srv.url, method, p, { token: ADMIN, body });
  expect((await api('POST', '/api/backups', { name: 'manual.zip' })).status).toBe(204);
  const dir = path.join(srv.dataDir, 'backups');
  // three older automatic backups (real archives, dated in the past)
  const old = ['@auto_pb_backup_20200101000000.zip', '@auto_pb_backup_20200102000000.zip', '@auto_pb_backup_20200103000000.zip'];
  old.forEach((name, i) => {
    fs.copyFileSync(path.join(dir, 'manual.zip'), path.join(dir, name));
    const t = new Date(Date.UTC(2020, 0, 1 + i));
    fs.utimesSync(path.join(dir, name), t, t);
  });

  const invalid = await api('PATCH', '/api/settings', { backups: { cron: '61 * * * *', cronMaxKeep: 2 } });
  expect(invalid.status).toBe(400);
  expect((await api('PATCH', '/api/settings', { backups: { cron: '* * * * *', cronMaxKeep: 2 } })).status).toBe(200);

  const autos = () => fs.readdirSync(dir).filter((n) => n.startsWith('@auto_pb_backup_')).sort();
  const deadline = Date.now() + 100_000;
  while (Date.now() < deadline) {
    const list = autos();
    if (list.some((n) => !old.includes(n)) && list.length === 2) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const list = autos();
  expect(list).toHaveLength(2);
  expect(list[0]).toBe(old[2]); // the newest of the old ones stays
  expect(list[1]).toMatch(/^@auto_pb_backup_acme_test_\d{14}\.zip$/);
  expect(fs.existsSync(path.join(dir, 'manual.zip'))).toBe(true);
  // the API lists it like any other backup
  const keys = (await api('GET', '/api/backups')).body.map((b: { key: string }) => b.key);
  expect(keys).toContain(list[1]);

  // off: no more runs are scheduled
  expect((await api('PATCH', '/api/settings', { backups: { cron: '' } })).status).toBe(200);
}, 130_000);
