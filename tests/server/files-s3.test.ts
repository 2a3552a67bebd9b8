// Record files on S3 (PocketBase 0.22's `settings.s3`), against a real S3-compatible server on
// loopback (s3rver), with `serve` (the built server in the 'server-built' project) started twice on
// the same pb_data. Saving the setting switches the storage without a restart; uploads, serving
// (HEAD, ranges, conditional requests, thumbs, protected files with a file token), replacing,
// deleting and a pb_hooks `$filesystem` save all work on the bucket, under 0.22's keys and object
// attributes, and nothing lands in pb_data/storage. Files stored before a switch stay where they
// are (0.22 moves none). A missing object or a failing storage is a 404 in 0.22's envelope, an
// upload to a failing storage 'Failed to create record.', both logged.
import fs from 'node:fs';
import path from 'node:path';
import { DeleteObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCliServer } from '../helpers/cli';
import { startS3, type TestS3 } from '../helpers/s3';
import { http as call, tempDir } from '../helpers/server';
import type { ServerProcess } from '../helpers/server-process';

const ADMIN = { email: 's3-files@example.com', password: 's3-files-pass-1234' };
const MEMBER = { email: 'member@example.com', password: 'member-pass-1234' };
const NOT_FOUND = { code: 404, message: "The requested resource wasn't found.", data: {} };
const HOOKS = `routerAdd("POST", "/s3/hook-file", (c) => {
  const record = new Record($app.dao().findCollectionByNameOrId("docs"), { title: "from a hook" });
  record.set("attachment", $filesystem.fileFromBytes("written by a hook", "Hook Notes.txt"));
  $app.dao().saveRecord(record);
  return c.json(200, { id: record.id, attachment: record.get("attachment") });
});
// ?as=<key>: serve another stored file (0.22's e.servedPath is a storage key)
onFileDownloadRequest((e) => {
  const as = e.httpContext.queryParam("as");
  if (as) e.servedPath = as;
}, "docs");
`;

const work = tempDir('outpost-files-s3-');
const dataDir = path.join(work, 'pb_data');
let srv: ServerProcess;
let s3: TestS3;
let bucket: S3Client;
let adminToken = '';
const ids: Record<string, string> = {};

const api = (method: string, p: string, body?: unknown, token = adminToken) => call(srv.url, method, p, { token, body });
const fileUrl = (collection: string, id: string, name: string, query = '') => `${srv.url}/api/files/${collection}/${id}/${name}${query}`;
const onDisk = (...p: string[]) => fs.existsSync(path.join(dataDir, 'storage', ...p));

async function fetchRaw(url: string, init: RequestInit = {}) {
  const res = await fetch(url, init);
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

async function keys(prefix = ''): Promise<string[]> {
  const res = await bucket.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix || undefined }));
  return (res.Contents ?? []).map((o) => o.Key ?? '').sort();
}

async function eventually(check: () => Promise<boolean>, ms = 5000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (await check()) return true;
  return check();
}

const s3Settings = (extra: Record<string, unknown> = {}) => ({
  enabled: true,
  endpoint: s3.endpoint,
  bucket: s3.bucket,
  region: s3.region,
  accessKey: s3.accessKey,
  secret: s3.secret,
  forcePathStyle: true,
  ...extra,
});

/** A multipart create or update with files (field name → [file name, bytes, type]). */
async function upload(method: 'POST' | 'PATCH', collection: string, id: string, fields: Record<string, string>, files: Array<[string, string, Buffer, string]>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [field, name, data, type] of files) form.append(field, new Blob([new Uint8Array(data)], { type }), name);
  const p = `/api/collections/${collection}/records${id ? `/${id}` : ''}`;
  const res = await fetch(srv.url + p, { method, body: form, headers: { Authorization: adminToken } });
  return { status: res.status, body: await res.json() };
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } }).png().toBuffer();

async function start(): Promise<void> {
  srv = await startCliServer([`--dir=${dataDir}`, '--automigrate=false'], work);
  adminToken = (await call(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: ADMIN.email, password: ADMIN.password } })).body.token;
}

beforeAll(async () => {
  s3 = await startS3('outpost-files');
  bucket = new S3Client({ endpoint: s3.endpoint, region: s3.region, forcePathStyle: true, credentials: { accessKeyId: s3.accessKey, secretAccessKey: s3.secret } });
  fs.mkdirSync(path.join(work, 'pb_hooks'), { recursive: true });
  fs.writeFileSync(path.join(work, 'pb_hooks', 's3.pb.js'), HOOKS);
  expect((await runCli(['admin', 'create', ADMIN.email, ADMIN.password, `--dir=${dataDir}`], work)).stdout).toContain('Successfully created');
  await start();
  const file = (name: string, extra: Record<string, unknown> = {}) => ({ name, type: 'file', options: { maxSelect: 1, maxSize: 5242880, mimeTypes: [], thumbs: [], protected: false, ...extra } });
  const create = async (body: Record<string, unknown>) => {
    const res = await api('POST', '/api/collections', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.id as string;
  };
  ids.docs = await create({ name: 'docs', type: 'base', schema: [{ name: 'title', type: 'text' }, file('attachment', { thumbs: ['20x10'] }), file('gallery', { maxSelect: 5 })], listRule: '', viewRule: '' });
  ids.members = await create({ name: 'members', type: 'auth', schema: [], options: { allowEmailAuth: true, allowUsernameAuth: true, minPasswordLength: 8 } });
  ids.vault = await create({ name: 'vault', type: 'base', schema: [file('secret', { protected: true })], viewRule: "@request.auth.id != ''" });
  const member = await api('POST', '/api/collections/members/records', { email: MEMBER.email, password: MEMBER.password, passwordConfirm: MEMBER.password });
  expect(member.status, JSON.stringify(member.body)).toBe(200);

  // stored on disk while S3 is off
  const before = await upload('POST', 'docs', '', { title: 'before' }, [['attachment', 'before.txt', Buffer.from('stored on disk'), 'text/plain']]);
  expect(before.status, JSON.stringify(before.body)).toBe(200);
  ids.before = before.body.id;
  ids.beforeFile = before.body.attachment;
  expect(onDisk(ids.docs, ids.before, ids.beforeFile)).toBe(true);

  // the setting takes effect once saved: no restart
  expect((await api('POST', '/api/settings/test/s3', { filesystem: 'storage' })).status).toBe(400);
  expect((await api('PATCH', '/api/settings', { s3: s3Settings() })).status).toBe(200);
  expect((await api('POST', '/api/settings/test/s3', { filesystem: 'storage' })).status).toBe(204);
});

afterAll(async () => {
  await srv?.stop();
  bucket?.destroy();
  await s3?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe.each(['first', 'second'])('record files on S3 (%s start)', (startName) => {
  let id = '';
  let photo = '';
  let photoBytes = Buffer.alloc(0);

  beforeAll(async () => {
    if (startName === 'second') {
      await srv.stop();
      await start();
    }
  });

  it('stores uploads in the bucket under 0.22\u2019s keys, with Content-Type and the original name, nothing on disk', async () => {
    photoBytes = await png(60, 40);
    const res = await upload('POST', 'docs', '', { title: startName }, [
      ['attachment', 'Holiday Photo.png', photoBytes, 'image/png'],
      ['gallery', 'a.txt', Buffer.from('alpha'), 'text/plain'],
      ['gallery', 'b.txt', Buffer.from('bravo'), 'text/plain'],
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    id = res.body.id;
    photo = res.body.attachment;
    expect(photo).toMatch(/^holiday_photo_[A-Za-z0-9]{10}\.png$/);
    expect(res.body.gallery).toHaveLength(2);
    expect(await keys(`${ids.docs}/${id}/`)).toEqual([photo, ...res.body.gallery].map((n: string) => `${ids.docs}/${id}/${n}`).sort());
    expect(fs.existsSync(path.join(dataDir, 'storage', ids.docs, id))).toBe(false);

    const head = await bucket.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `${ids.docs}/${id}/${photo}` }));
    expect(head.ContentType).toBe('image/png');
    expect(head.ContentLength).toBe(photoBytes.length);
    // s3blob's metadata: url.PathEscape'd values
    expect(head.Metadata).toEqual({ 'original-filename': 'Holiday%20Photo.png' });
  });

  it('serves them as 0.22 does: headers, HEAD, ranges, conditional requests', async () => {
    const res = await fetchRaw(fileUrl('docs', id, photo));
    expect(res.status).toBe(200);
    expect(res.body.equals(photoBytes)).toBe(true);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename=${photo}`);
    expect(res.headers.get('cache-control')).toBe('max-age=2592000, stale-while-revalidate=86400');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-length')).toBe(String(photoBytes.length));
    expect(res.headers.get('x-frame-options')).toBeNull();
    const lastModified = res.headers.get('last-modified') ?? '';
    expect(Date.parse(lastModified)).not.toBeNaN();

    const head = await fetchRaw(fileUrl('docs', id, photo), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers.get('content-length')).toBe(String(photoBytes.length));

    const range = await fetchRaw(fileUrl('docs', id, photo), { headers: { Range: 'bytes=1-8' } });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe(`bytes 1-8/${photoBytes.length}`);
    expect(range.body.equals(photoBytes.subarray(1, 9))).toBe(true);
    const suffix = await fetchRaw(fileUrl('docs', id, photo), { headers: { Range: 'bytes=-4' } });
    expect(suffix.body.equals(photoBytes.subarray(-4))).toBe(true);

    const multi = await fetchRaw(fileUrl('docs', id, photo), { headers: { Range: 'bytes=0-3,10-13' } });
    expect(multi.status).toBe(206);
    expect(multi.headers.get('content-type')).toMatch(/^multipart\/byteranges; boundary=/);
    expect(multi.body.includes(photoBytes.subarray(10, 14))).toBe(true);
    expect(Number(multi.headers.get('content-length'))).toBe(multi.body.length);

    const past = await fetchRaw(fileUrl('docs', id, photo), { headers: { Range: `bytes=${photoBytes.length + 10}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${photoBytes.length}`);

    expect((await fetchRaw(fileUrl('docs', id, photo), { headers: { 'If-Modified-Since': lastModified } })).status).toBe(304);
    expect((await fetchRaw(fileUrl('docs', id, photo), { headers: { Range: 'bytes=0-1', 'If-Range': lastModified } })).status).toBe(206);

    const text = await fetchRaw(fileUrl('docs', id, (await api('GET', `/api/collections/docs/records/${id}`)).body.gallery[0]));
    expect(text.body.toString()).toBe('alpha');
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(text.headers.get('content-disposition')).toMatch(/^attachment; /);
  });

  it('makes thumbs in the bucket once, with the original\u2019s type', async () => {
    for (const [size, w, h] of [['100x100', 100, 100], ['20x10', 20, 10]] as const) {
      const res = await fetchRaw(fileUrl('docs', id, photo, `?thumb=${size}`));
      expect(res.status, size).toBe(200);
      expect(res.headers.get('content-disposition')).toBe(`inline; filename=${size}_${photo}`);
      const meta = await sharp(res.body).metadata();
      expect([meta.width, meta.height], size).toEqual([w, h]);
      const key = `${ids.docs}/${id}/thumbs_${photo}/${size}_${photo}`;
      const head = await bucket.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
      expect(head.ContentType).toBe('image/png');
      expect(head.Metadata ?? {}).toEqual({});
      const again = await fetchRaw(fileUrl('docs', id, photo, `?thumb=${size}`));
      expect(again.body.equals(res.body)).toBe(true);
      expect(again.headers.get('last-modified')).toBe(res.headers.get('last-modified'));
    }
    // a size the field does not list: the original
    expect((await fetchRaw(fileUrl('docs', id, photo, '?thumb=30x30'))).body.equals(photoBytes)).toBe(true);
    expect(await keys(`${ids.docs}/${id}/thumbs_`)).toHaveLength(2);
  });

  it('serves protected files only with a file token that satisfies the viewRule', async () => {
    const created = await upload('POST', 'vault', '', {}, [['secret', 'secret.txt', Buffer.from('top secret'), 'text/plain']]);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const url = fileUrl('vault', created.body.id, created.body.secret);
    expect(await keys(`${ids.vault}/${created.body.id}/`)).toEqual([`${ids.vault}/${created.body.id}/${created.body.secret}`]);
    expect((await fetchRaw(url)).status).toBe(403);
    expect((await fetchRaw(url, { headers: { Authorization: adminToken } })).status).toBe(403);
    const adminFileToken = (await api('POST', '/api/files/token')).body.token;
    expect((await fetchRaw(`${url}?token=${adminFileToken}`)).body.toString()).toBe('top secret');
    const memberToken = (await call(srv.url, 'POST', '/api/collections/members/auth-with-password', { body: { identity: MEMBER.email, password: MEMBER.password } })).body.token;
    const memberFileToken = (await api('POST', '/api/files/token', undefined, memberToken)).body.token;
    const member = await fetchRaw(`${url}?token=${memberFileToken}`, { headers: { Range: 'bytes=4-9' } });
    expect(member.status).toBe(206);
    expect(member.body.toString()).toBe('secret');
    expect((await fetchRaw(`${url}?token=${memberToken}`)).status).toBe(403);
  });

  it('replaces and removes files: the old objects and their thumbs go', async () => {
    const record = (await api('GET', `/api/collections/docs/records/${id}`)).body;
    const next = await png(30, 30);
    const res = await upload('PATCH', 'docs', id, { 'gallery-': record.gallery[1] }, [['attachment', 'next.png', next, 'image/png']]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.attachment).not.toBe(photo);
    expect(res.body.gallery).toEqual([record.gallery[0]]);
    expect(await keys(`${ids.docs}/${id}/`)).toEqual([res.body.attachment, record.gallery[0]].map((n: string) => `${ids.docs}/${id}/${n}`).sort());
    const old = await call(srv.url, 'GET', `/api/files/docs/${id}/${photo}`);
    expect(old.status).toBe(404);
    expect(old.body).toEqual(NOT_FOUND);
    expect((await fetchRaw(fileUrl('docs', id, res.body.attachment))).body.equals(next)).toBe(true);
    photo = res.body.attachment;
  });

  it('answers 404 for an object that is not in the bucket and for path tricks', async () => {
    const [name] = (await api('GET', `/api/collections/docs/records/${id}`)).body.gallery;
    await bucket.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: `${ids.docs}/${id}/${name}` }));
    const gone = await call(srv.url, 'GET', `/api/files/docs/${id}/${name}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual(NOT_FOUND);
    expect((await fetchRaw(fileUrl('docs', id, name), { method: 'HEAD' })).status).toBe(404);
    expect((await fetchRaw(fileUrl('docs', id, name, '?thumb=100x100'))).status).toBe(404);
    for (const p of [`/api/files/docs/${id}/..%2F${id}%2F${photo}`, `/api/files/docs/${id}/%2e%2e`, `/api/files/docs/..%2F${id}/${photo}`, `/api/files/docs/${id}/${photo}%00`]) {
      expect((await call(srv.url, 'GET', p)).status, p).toBe(404);
    }
    // a hook's servedPath is a key: another file of the bucket, never a path out of it
    const other = (await api('GET', `/api/collections/docs/records/${ids.before}`)).body.attachment;
    expect((await fetchRaw(fileUrl('docs', id, photo, `?as=${ids.docs}/${id}/thumbs_x/../../${other}`))).status).toBe(404);
    const alt = await fetchRaw(fileUrl('docs', id, photo, `?as=${encodeURIComponent(`${ids.docs}/${id}/${photo}`)}`));
    expect(alt.status).toBe(200);
  });

  it('leaves files stored before the switch where they are: not served while S3 is on', async () => {
    expect(onDisk(ids.docs, ids.before, ids.beforeFile)).toBe(true);
    const res = await call(srv.url, 'GET', `/api/files/docs/${ids.before}/${ids.beforeFile}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });

  it('stores a pb_hooks $filesystem file in the bucket', async () => {
    const res = await api('POST', '/s3/hook-file');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const key = `${ids.docs}/${res.body.id}/${res.body.attachment}`;
    expect(await keys(key)).toEqual([key]);
    const head = await bucket.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
    expect(head.Metadata).toEqual({ 'original-filename': 'Hook%20Notes.txt' });
    expect((await fetchRaw(fileUrl('docs', res.body.id, res.body.attachment))).body.toString()).toBe('written by a hook');
    ids[`hook-${startName}`] = res.body.id;
  });

  it('deletes a record\u2019s objects with it', async () => {
    const extra = await upload('POST', 'docs', '', { title: 'doomed' }, [['attachment', 'doomed.png', await png(10, 10), 'image/png']]);
    expect((await fetchRaw(fileUrl('docs', extra.body.id, extra.body.attachment, '?thumb=100x100'))).status).toBe(200);
    expect(await keys(`${ids.docs}/${extra.body.id}/`)).toHaveLength(2);
    expect((await api('DELETE', `/api/collections/docs/records/${extra.body.id}`)).status).toBe(204);
    expect(await eventually(async () => (await keys(`${ids.docs}/${extra.body.id}/`)).length === 0)).toBe(true);
  });

  it('still serves what the first start stored', async () => {
    if (startName === 'first') {
      ids.kept = id;
      ids.keptFile = photo;
      return;
    }
    expect((await fetchRaw(fileUrl('docs', ids.kept, ids.keptFile))).status).toBe(200);
    expect((await fetchRaw(fileUrl('docs', ids['hook-first'], (await api('GET', `/api/collections/docs/records/${ids['hook-first']}`)).body.attachment))).body.toString()).toBe('written by a hook');
  });
});

describe('switching and failing', () => {
  it('a failing storage: serving answers 404, uploads fail the save, both logged; the settings switch back without a restart', async () => {
    // nothing listens on port 9 of the loopback
    expect((await api('PATCH', '/api/settings', { s3: s3Settings({ endpoint: 'http://127.0.0.1:9' }) })).status).toBe(200);
    const served = await call(srv.url, 'GET', `/api/files/docs/${ids.kept}/${ids.keptFile}`);
    expect(served.status).toBe(404);
    expect(served.body).toEqual(NOT_FOUND);
    const before = (await api('GET', '/api/collections/docs/records')).body.totalItems;
    const failed = await upload('POST', 'docs', '', { title: 'lost' }, [['attachment', 'lost.txt', Buffer.from('lost'), 'text/plain']]);
    expect(failed.status).toBe(400);
    expect(failed.body).toEqual({ code: 400, message: 'Failed to create record.', data: {} });
    expect((await api('GET', '/api/collections/docs/records')).body.totalItems).toBe(before);
    expect(srv.output()).toContain(`[files] s3 storage failed to read ${ids.docs}/${ids.kept}/${ids.keptFile}`);
    expect(srv.output()).toContain('[records] failed to store the files of docs');

    // off again: the disk's files are served, the bucket's are not, uploads go to disk
    expect((await api('PATCH', '/api/settings', { s3: { enabled: false } })).status).toBe(200);
    expect((await fetchRaw(fileUrl('docs', ids.before, ids.beforeFile))).body.toString()).toBe('stored on disk');
    expect((await call(srv.url, 'GET', `/api/files/docs/${ids.kept}/${ids.keptFile}`)).status).toBe(404);
    const local = await upload('POST', 'docs', '', { title: 'local again' }, [['attachment', 'local.txt', Buffer.from('local'), 'text/plain']]);
    expect(onDisk(ids.docs, local.body.id, local.body.attachment)).toBe(true);
    expect(await keys(`${ids.docs}/${local.body.id}/`)).toEqual([]);

    expect((await api('PATCH', '/api/settings', { s3: s3Settings() })).status).toBe(200);
    expect((await fetchRaw(fileUrl('docs', ids.kept, ids.keptFile))).status).toBe(200);
  });

  it('deleting a collection deletes its objects', async () => {
    expect((await keys(`${ids.vault}/`)).length).toBeGreaterThan(0);
    expect((await api('DELETE', '/api/collections/vault')).status).toBe(204);
    expect(await eventually(async () => (await keys(`${ids.vault}/`)).length === 0)).toBe(true);
    // the other collections' objects stay
    expect((await keys(`${ids.docs}/`)).length).toBeGreaterThan(0);
  });
});
