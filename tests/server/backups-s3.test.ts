// Backups on S3 (s3rver on loopback): with backups.s3 enabled, backups are made into, listed
// from, downloaded from, restored from and deleted from the bucket, and nothing goes to
// pb_data/backups. The settings' S3 test works for the backups filesystem too.
import fs from 'node:fs';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startS3, type TestS3 } from '../helpers/s3';
import { FIXTURE_ADMIN_TOKEN as ADMIN, http, startServer, type TestServer } from '../helpers/server';
import { listZip } from '../helpers/zip';

let srv: TestServer;
let s3: TestS3;

const api = (method: string, p: string, body?: unknown) => http(srv.url, method, p, { token: ADMIN, body });

async function bucketKeys(): Promise<string[]> {
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKey, secretAccessKey: s3.secret },
  });
  try {
    const res = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
    return (res.Contents ?? []).map((o) => o.Key ?? '').sort();
  } finally {
    client.destroy();
  }
}

beforeAll(async () => {
  s3 = await startS3('outpost-backups');
  srv = await startServer({ fixture: true });
});
afterAll(async () => {
  await srv?.close();
  await s3?.close();
});

it('stores, lists, downloads, restores and deletes backups in the bucket', async () => {
  const cfg = { enabled: true, endpoint: s3.endpoint, bucket: s3.bucket, region: s3.region, accessKey: s3.accessKey, secret: s3.secret, forcePathStyle: true };
  expect((await api('PATCH', '/api/settings', { backups: { s3: cfg } })).status).toBe(200);
  expect((await api('POST', '/api/settings/test/s3', { filesystem: 'backups' })).status).toBe(204);
  await api('PATCH', '/api/settings', { meta: { appName: 'On S3' } });

  expect((await api('POST', '/api/backups', { name: 'remote.zip' })).status).toBe(204);
  expect(await bucketKeys()).toEqual(['remote.zip']);
  expect(fs.existsSync(path.join(srv.dataDir, 'backups', 'remote.zip'))).toBe(false);

  const list = await api('GET', '/api/backups');
  expect(list.body).toHaveLength(1);
  expect(list.body[0].key).toBe('remote.zip');
  expect(list.body[0].size).toBeGreaterThan(1000);

  const dup = await api('POST', '/api/backups', { name: 'remote.zip' });
  expect(dup.body.data.name.code).toBe('validation_backup_name_exists');

  const token = (await api('POST', '/api/files/token')).body.token;
  const dl = await fetch(`${srv.url}/api/backups/remote.zip?token=${token}`);
  expect(dl.status).toBe(200);
  const zip = Buffer.from(await dl.arrayBuffer());
  expect(zip.length).toBe(list.body[0].size);
  expect(await listZip(zip)).toContain('data.db');

  // upload a copy under another name, change a setting, restore from the bucket
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), 'copy.zip');
  expect((await fetch(`${srv.url}/api/backups/upload`, { method: 'POST', body: form, headers: { Authorization: ADMIN } })).status).toBe(204);
  expect(await bucketKeys()).toEqual(['copy.zip', 'remote.zip']);
  await api('PATCH', '/api/settings', { meta: { appName: 'Changed' } });
  expect((await api('POST', '/api/backups/copy.zip/restore')).status).toBe(204);
  const settings = (await api('GET', '/api/settings')).body;
  expect(settings.meta.appName).toBe('On S3');
  expect(settings.backups.s3.enabled).toBe(true);

  expect((await api('DELETE', '/api/backups/copy.zip')).status).toBe(204);
  expect((await api('DELETE', '/api/backups/copy.zip')).status).toBe(400);
  expect((await api('POST', '/api/backups/missing.zip/restore')).status).toBe(400);
  expect(await bucketKeys()).toEqual(['remote.zip']);
});
