// /api/files over HTTP on a copy of the PocketBase 0.22.12 fixture: its stored files and thumbs
// served as they are, thumbs generated once per mode (checked by decoding them with sharp),
// protected files with and without file tokens, Range and conditional requests, path tricks.
import fs from 'node:fs';
import nodeHttp from 'node:http';
import path from 'node:path';
import sharp, { type Metadata } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIR, http, startServer, type TestServer } from '../helpers/server';
import { getStorage } from '../../server/services/storage';

const ADMIN_AUTH =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6InN5d2JoZWNuaDQ2cmhtMCIsInR5cGUiOiJhZG1pbiIsImV4cCI6MjIwODk4NTI2MX0.M1m--VOqGyv0d23eeUc0r9xE8ZzHaYVmVFw1VZW6gT8';
const USER1_AUTH =
  'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6IjRxMXhsY2xtZmxva3UzMyIsInR5cGUiOiJhdXRoUmVjb3JkIiwiY29sbGVjdGlvbklkIjoiX3BiX3VzZXJzX2F1dGhfIiwiZXhwIjoyMjA4OTg1MjYxfQ.UwD8JvkbQtXpymT09d7J6fdA0aP9g4FJ1GPh_ggEkzc';
// the fixture's file tokens: valid until 2029-12-31, and deliberately expired ones (2021-12-31)
const ADMIN_FILE_2029 =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6InN5d2JoZWNuaDQ2cmhtMCIsImV4cCI6MTg5MzQ1MjQ2MSwidHlwZSI6ImFkbWluIn0.LyAMpSfaHVsuUqIlqqEbhDQSdFzoPz_EIDcb2VJMBsU';
const ADMIN_FILE_EXPIRED =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6InN5d2JoZWNuaDQ2cmhtMCIsImV4cCI6MTY0MDk5MTY2MSwidHlwZSI6ImFkbWluIn0.g7Q_3UX6H--JWJ7yt1Hoe-1ugTX1KpbKzdt0zjGSe-E';
const USER1_FILE_2029 =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6IjRxMXhsY2xtZmxva3UzMyIsImV4cCI6MTg5MzQ1MjQ2MSwiY29sbGVjdGlvbklkIjoiX3BiX3VzZXJzX2F1dGhfIiwidHlwZSI6ImF1dGhSZWNvcmQifQ.0d_0EO6kfn9ijZIQWAqgRi8Bo1z7MKcg1LQpXhQsEPk';
const FIXTURE_FILE_TOKENS_VALID = Date.now() < Date.UTC(2029, 11, 31, 23, 0, 0);

const USERS = '_pb_users_auth_';
const USER1 = '4q1xlclmfloku33';
const AVATAR = '300_1SEi6Q6U72.png';
const PROTECTED = '/api/files/demo1/al1h9ijdeojtsjy/300_Jsjq7RdBgA.png';
const FORBIDDEN = { code: 403, message: 'Insufficient permissions to access the file resource.', data: {} };

let srv: TestServer;

const fixtureFile = (...p: string[]) => fs.readFileSync(path.join(FIXTURE_DIR, 'storage', ...p));

async function fetchRaw(p: string, init: RequestInit = {}) {
  const res = await fetch(srv.url + p, init);
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

/** A GET whose path is sent byte for byte (fetch would resolve '..' segments itself). */
function rawGet(p: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(srv.url);
  return new Promise((resolve, reject) => {
    const req = nodeHttp.request({ hostname, port, path: p, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function fileToken(auth: string): Promise<string> {
  const res = await http(srv.url, 'POST', '/api/files/token', { token: auth });
  expect(res.status).toBe(200);
  return res.body.token;
}

async function setViewRule(collection: string, viewRule: string | null) {
  const res = await http(srv.url, 'PATCH', `/api/collections/${collection}`, { token: ADMIN_AUTH, body: { viewRule } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** A width x height PNG: top half red, bottom half blue. */
function twoTone(width: number, height: number, format: 'png' | 'jpeg' | 'gif' | 'webp' = 'png'): Promise<Buffer> {
  const top = Math.floor(height / 2);
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      if (y < top) raw[i] = 255;
      else raw[i + 2] = 255;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).toFormat(format).toBuffer();
}

/** Stores `data` as a file of a record and puts its name in the record's field. */
async function attach(collectionId: string, table: string, recordId: string, field: string, name: string, data: Buffer, type: string, multi = false) {
  await getStorage(srv.app.ctx).save(collectionId, recordId, name, data, type);
  const value = multi ? JSON.stringify([name]) : name;
  srv.app.ctx.db.prepare(`UPDATE "${table}" SET "${field}" = ? WHERE id = ?`).run(value, recordId);
}

beforeAll(async () => {
  srv = await startServer({ fixture: true });
});

afterAll(async () => {
  // A streamed response can reach this in-process client before the server saw its 'finish';
  // give the keep-alive socket a moment to turn idle, or close() waits for keepAliveTimeout.
  await new Promise((r) => setTimeout(r, 200));
  await srv?.close();
});

describe('serving stored files', () => {
  it('serves a text file as an attachment with its stored type and cache headers', async () => {
    const res = await fetchRaw('/api/files/_pb_users_auth_/oap640cot4yru2s/test_kfd2wYLxkz.txt');
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('test\n');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename=test_kfd2wYLxkz.txt');
    expect(res.headers.get('cache-control')).toBe('max-age=2592000, stale-while-revalidate=86400');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; media-src 'self'; style-src 'unsafe-inline'; sandbox");
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-length')).toBe('5');
    expect(Date.parse(res.headers.get('last-modified') ?? '')).not.toBeNaN();
    // 0.22's Secure middleware covers file downloads too, except X-Frame-Options (files may embed)
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves images inline (by collection name or id) and as attachments with ?download=1', async () => {
    for (const coll of ['users', USERS, 'USERS']) {
      const res = await fetchRaw(`/api/files/${coll}/${USER1}/${AVATAR}`);
      expect(res.status).toBe(200);
      expect(res.body.equals(fixtureFile(USERS, USER1, AVATAR))).toBe(true);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('content-disposition')).toBe(`inline; filename=${AVATAR}`);
    }
    const download = await fetchRaw(`/api/files/users/${USER1}/${AVATAR}?download=1`);
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename=${AVATAR}`);
    const notDownload = await fetchRaw(`/api/files/users/${USER1}/${AVATAR}?download=0`);
    expect(notDownload.headers.get('content-disposition')).toBe(`inline; filename=${AVATAR}`);
  });

  it('serves svg as image/svg+xml, never inline', async () => {
    const res = await fetchRaw('/api/files/demo5/qjeql998mtp1azp/logo_vcf_jjg5_tah_9MtIHytOmZ.svg');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
  });

  it('answers HEAD with the headers only', async () => {
    const res = await fetchRaw(`/api/files/users/${USER1}/${AVATAR}`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Number(res.headers.get('content-length'))).toBe(fixtureFile(USERS, USER1, AVATAR).length);
    const missing = await fetchRaw(`/api/files/users/${USER1}/missing.png`, { method: 'HEAD' });
    expect(missing.status).toBe(404);
    expect(missing.body.length).toBe(0);
    expect((await fetchRaw(`${PROTECTED}`, { method: 'HEAD' })).status).toBe(403);
  });

  it('ignores the Authorization header and the viewRule for non-protected files', async () => {
    // users' viewRule is `id = @request.auth.id`, yet the file field is public
    expect((await fetchRaw('/api/files/users/oap640cot4yru2s/test_kfd2wYLxkz.txt')).status).toBe(200);
    const withHeader = await fetchRaw('/api/files/users/oap640cot4yru2s/test_kfd2wYLxkz.txt', { headers: { Authorization: 'garbage' } });
    expect(withHeader.status).toBe(200);
  });

  it('answers 404 for missing collections, records and files (also a name on another record)', async () => {
    for (const p of [
      `/api/files/missing/${USER1}/${AVATAR}`,
      `/api/files/users/missing/${AVATAR}`,
      `/api/files/users/${USER1}/missing.png`,
      `/api/files/users/${USER1}/test_kfd2wYLxkz.txt`, // exists, but on another record
      `/api/files/demo2/llvuca81nly1qls/${AVATAR}`,
    ]) {
      const res = await http(srv.url, 'GET', p);
      expect(res.status, p).toBe(404);
      expect(res.body).toEqual({ code: 404, message: "The requested resource wasn't found.", data: {} });
    }
  });

  it('answers 404 when the record names a file that is not in storage', async () => {
    srv.app.ctx.db.prepare("UPDATE demo5 SET file = 'ghost_abcdefghij.png' WHERE id = 'la4y2w4o98acwuj'").run();
    expect((await http(srv.url, 'GET', '/api/files/demo5/la4y2w4o98acwuj/ghost_abcdefghij.png')).status).toBe(404);
    srv.app.ctx.db.prepare("UPDATE demo5 SET file = '300_uh_lkx91_hvb_Da8K5pl069.png' WHERE id = 'la4y2w4o98acwuj'").run();
  });

  it('serves a file without .attrs sidecar with a sniffed type', async () => {
    const dir = path.join(srv.dataDir, 'storage', 'wzlqyes4orhoygb', '1tmknxy2868d869');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'bare_abcdefghij.bin'), await twoTone(4, 4, 'png'));
    srv.app.ctx.db.prepare(`UPDATE demo3 SET files = '["bare_abcdefghij.bin"]' WHERE id = '1tmknxy2868d869'`).run();
    // demo3's viewRule does not matter: the field is not protected
    const res = await fetchRaw('/api/files/demo3/1tmknxy2868d869/bare_abcdefghij.bin');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
  });
});

describe('Range and conditional requests', () => {
  const TXT = '/api/files/users/oap640cot4yru2s/test_kfd2wYLxkz.txt';

  it('answers single ranges with 206 and Content-Range', async () => {
    for (const [range, body, contentRange] of [
      ['bytes=0-1', 'te', 'bytes 0-1/5'],
      ['bytes=3-', 't\n', 'bytes 3-4/5'],
      ['bytes=-2', 't\n', 'bytes 3-4/5'],
      ['bytes=1-100', 'est\n', 'bytes 1-4/5'],
    ]) {
      const res = await fetchRaw(TXT, { headers: { Range: range } });
      expect(res.status, range).toBe(206);
      expect(res.body.toString()).toBe(body);
      expect(res.headers.get('content-range')).toBe(contentRange);
      expect(res.headers.get('content-length')).toBe(String(body.length));
    }
    const image = await fetchRaw(`/api/files/users/${USER1}/${AVATAR}`, { headers: { Range: 'bytes=0-7' } });
    expect(image.status).toBe(206);
    expect(image.body.equals(fixtureFile(USERS, USER1, AVATAR).subarray(0, 8))).toBe(true);
  });

  it('answers 416 for a range past the end or a malformed range (as Go); ranges adding up past the size get the whole file', async () => {
    const res = await fetchRaw(TXT, { headers: { Range: 'bytes=10-20' } });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe('bytes */5');
    for (const range of ['bytes=5-1', 'bytes=2-1', 'items=0-1', 'bytes=x-y', 'bytes=3', 'bytes=-', 'bytes=0-1,4-2']) {
      const bad = await fetchRaw(TXT, { headers: { Range: range } });
      expect(bad.status, range).toBe(416);
      expect(bad.body.toString(), range).toMatch(/^invalid range/);
    }
    for (const [range, status] of [['bytes=0-1,10-20', 206], ['bytes=0-,1-', 200], ['bytes=0-1,3-4', 206]] as const) {
      const res = await fetchRaw(TXT, { headers: { Range: range } });
      expect(res.status, range).toBe(status);
    }
  });

  it('honours If-Modified-Since and If-Range', async () => {
    const first = await fetchRaw(TXT);
    const lastModified = first.headers.get('last-modified')!;
    const cached = await fetchRaw(TXT, { headers: { 'If-Modified-Since': lastModified } });
    expect(cached.status).toBe(304);
    expect(cached.body.length).toBe(0);
    const stale = await fetchRaw(TXT, { headers: { 'If-Modified-Since': 'Mon, 01 Jan 2001 00:00:00 GMT' } });
    expect(stale.status).toBe(200);
    expect((await fetchRaw(TXT, { headers: { Range: 'bytes=0-1', 'If-Range': lastModified } })).status).toBe(206);
    expect((await fetchRaw(TXT, { headers: { Range: 'bytes=0-1', 'If-Range': 'Mon, 01 Jan 2001 00:00:00 GMT' } })).status).toBe(200);
  });
});

describe('path tricks', () => {
  it('never leaves the storage directory', async () => {
    // a record value pointing outside storage must not be served either
    srv.app.ctx.db.prepare(`UPDATE demo1 SET file_many = '["../../../data.db","..","."]' WHERE id = 'imy661ixudk5izi'`).run();
    for (const p of [
      '/api/files/demo1/imy661ixudk5izi/..%2F..%2F..%2Fdata.db',
      '/api/files/demo1/imy661ixudk5izi/%2e%2e',
      '/api/files/demo1/imy661ixudk5izi/..',
      '/api/files/demo1/imy661ixudk5izi/.',
      '/api/files/demo1/..%2Fal1h9ijdeojtsjy/300_Jsjq7RdBgA.png',
      '/api/files/..%2Fwsmn24bux7wo113/al1h9ijdeojtsjy/300_Jsjq7RdBgA.png',
      `/api/files/users/${USER1}/${AVATAR}%00.txt`,
      `/api/files/users/${USER1}/${AVATAR}%00`,
      `/api/files/users/${USER1}/thumbs_${AVATAR}%2F100x100_${AVATAR}`,
      `/api/files/users/${USER1}/..%5C..%5Cdata.db`,
      `/api/files/users/${USER1}/../../data.db`,
      `/api/files/users/${USER1}/%2e%2e/%2e%2e/data.db`,
      `/api/files/users/../../data.db`,
    ]) {
      const res = await rawGet(p);
      expect(res.status, p).toBe(404);
      expect(res.body, p).not.toContain('SQLite format');
    }
    srv.app.ctx.db.prepare(`UPDATE demo1 SET file_many = '[]' WHERE id = 'imy661ixudk5izi'`).run();
  });
});

describe('file tokens and protected files', () => {
  it('POST /api/files/token: admins and auth records get one, guests 400', async () => {
    const guest = await http(srv.url, 'POST', '/api/files/token');
    expect(guest.body).toEqual({ code: 400, message: 'Failed to generate file token.', data: {} });
    expect((await http(srv.url, 'POST', '/api/files/token', { token: 'garbage' })).status).toBe(400);

    const admin = JSON.parse(Buffer.from((await fileToken(ADMIN_AUTH)).split('.')[1], 'base64url').toString());
    expect(admin).toMatchObject({ id: 'sywbhecnh46rhm0', type: 'admin' });
    expect(admin.exp - Date.now() / 1000).toBeLessThanOrEqual(180);
    const record = JSON.parse(Buffer.from((await fileToken(USER1_AUTH)).split('.')[1], 'base64url').toString());
    expect(record).toMatchObject({ id: USER1, type: 'authRecord', collectionId: USERS });

    const pb = srv.client();
    pb.authStore.save(ADMIN_AUTH, null);
    const sdkToken = await pb.files.getToken();
    expect(sdkToken.split('.')).toHaveLength(3);
  });

  it('a protected file needs an admin file token while the viewRule is null', async () => {
    expect((await http(srv.url, 'GET', PROTECTED)).body).toEqual(FORBIDDEN);
    // the Authorization header is ignored, and an auth token is not a file token
    expect((await http(srv.url, 'GET', PROTECTED, { token: ADMIN_AUTH })).status).toBe(403);
    expect((await http(srv.url, 'GET', `${PROTECTED}?token=${ADMIN_AUTH}`)).status).toBe(403);
    expect((await http(srv.url, 'GET', `${PROTECTED}?token=${ADMIN_FILE_EXPIRED}`)).status).toBe(403);
    expect((await http(srv.url, 'GET', `${PROTECTED}?token=garbage`)).status).toBe(403);

    const token = await fileToken(ADMIN_AUTH);
    const ok = await fetchRaw(`${PROTECTED}?token=${token}`);
    expect(ok.status).toBe(200);
    expect(ok.body.equals(fixtureFile('wsmn24bux7wo113', 'al1h9ijdeojtsjy', '300_Jsjq7RdBgA.png'))).toBe(true);
    // a record file token with a null viewRule: guest-like, denied
    expect((await http(srv.url, 'GET', `${PROTECTED}?token=${await fileToken(USER1_AUTH)}`)).status).toBe(403);

    const sdk = srv.client();
    expect(sdk.files.getUrl({ collectionId: 'wsmn24bux7wo113', id: 'al1h9ijdeojtsjy' } as never, '300_Jsjq7RdBgA.png', { token })).toContain(
      `?token=${token}`,
    );
  });

  it.skipIf(!FIXTURE_FILE_TOKENS_VALID)('accepts the fixture file tokens until they expire (2029-12-31)', async () => {
    expect((await http(srv.url, 'GET', `${PROTECTED}?token=${ADMIN_FILE_2029}`)).status).toBe(200);
    expect((await http(srv.url, 'GET', `${PROTECTED}?token=${USER1_FILE_2029}`)).status).toBe(403);
  });

  it('with a viewRule, the record behind a file token (or a guest) must satisfy it', async () => {
    const userToken = await fileToken(USER1_AUTH);
    await setViewRule('demo1', '@request.auth.verified = false');
    expect((await http(srv.url, 'GET', `${PROTECTED}?token=${userToken}`)).status).toBe(200);
    if (FIXTURE_FILE_TOKENS_VALID) expect((await http(srv.url, 'GET', `${PROTECTED}?token=${USER1_FILE_2029}`)).status).toBe(200);
    expect((await http(srv.url, 'GET', PROTECTED)).status).toBe(403);
    // an auth token in ?token= is still a guest
    expect((await http(srv.url, 'GET', `${PROTECTED}?token=${USER1_AUTH}`)).status).toBe(403);

    await setViewRule('demo1', '@request.auth.verified = true');
    expect((await http(srv.url, 'GET', `${PROTECTED}?token=${userToken}`)).status).toBe(403);

    await setViewRule('demo1', '@request.context = "protectedFile" && id = "al1h9ijdeojtsjy"');
    expect((await http(srv.url, 'GET', PROTECTED)).status).toBe(200);

    await setViewRule('demo1', '');
    expect((await http(srv.url, 'GET', PROTECTED)).status).toBe(200);
    await setViewRule('demo1', null);
    expect((await http(srv.url, 'GET', PROTECTED)).status).toBe(403);
  });

  it('protected files of a view follow the view\u2019s viewRule and come from the source record', async () => {
    const userToken = await fileToken(USER1_AUTH);
    expect((await http(srv.url, 'GET', `/api/files/view1/al1h9ijdeojtsjy/300_Jsjq7RdBgA.png?token=${userToken}`)).status).toBe(403);
    const ok = await fetchRaw(`/api/files/view1/84nmscqy84lsi1t/test_d61b33QdDU.txt?token=${userToken}`);
    expect(ok.status).toBe(200);
    expect(ok.body.toString()).toBe('test\n');
    // non-protected view file: public
    expect((await fetchRaw('/api/files/view1/84nmscqy84lsi1t/test_QZFjKjXchk.txt')).status).toBe(200);
    expect((await fetchRaw('/api/files/view2/84nmscqy84lsi1t/test_QZFjKjXchk.txt')).status).toBe(200);
  });

  it('the file token stops working when the account\u2019s tokenKey changes', async () => {
    const token = await fileToken(ADMIN_AUTH);
    const before = srv.app.ctx.db.prepare("SELECT tokenKey FROM _admins WHERE id = 'sywbhecnh46rhm0'").get() as { tokenKey: string };
    srv.app.ctx.db.prepare("UPDATE _admins SET tokenKey = 'rotated-key' WHERE id = 'sywbhecnh46rhm0'").run();
    expect((await http(srv.url, 'GET', `${PROTECTED}?token=${token}`)).status).toBe(403);
    srv.app.ctx.db.prepare("UPDATE _admins SET tokenKey = ? WHERE id = 'sywbhecnh46rhm0'").run(before.tokenKey);
  });
});

describe('thumbs', () => {
  it('serves the fixture\u2019s pre-generated thumbs byte for byte', async () => {
    for (const size of ['100x100', '70x50', '70x50t', '70x50b', '70x50f', '0x50', '70x0']) {
      const res = await fetchRaw(`/api/files/users/${USER1}/${AVATAR}?thumb=${size}`);
      expect(res.status, size).toBe(200);
      expect(res.body.equals(fixtureFile(USERS, USER1, `thumbs_${AVATAR}`, `${size}_${AVATAR}`)), size).toBe(true);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('content-disposition')).toBe(`inline; filename=${size}_${AVATAR}`);
    }
    // demo3 has no configured thumbs: 100x100 only
    const demo3 = await fetchRaw('/api/files/demo3/mk5fmymtx4wsprk/300_JdfBOieXAW.png?thumb=100x100');
    expect(demo3.body.equals(fixtureFile('wzlqyes4orhoygb', 'mk5fmymtx4wsprk', 'thumbs_300_JdfBOieXAW.png', '100x100_300_JdfBOieXAW.png'))).toBe(true);
  });

  it('serves the original for unconfigured sizes, bad sizes and non-images', async () => {
    const original = fixtureFile(USERS, USER1, AVATAR);
    for (const size of ['999x999', '70x50x', '0x0', 'abc', '50x70', '']) {
      const res = await fetchRaw(`/api/files/users/${USER1}/${AVATAR}?thumb=${size}`);
      expect(res.status, size).toBe(200);
      expect(res.body.equals(original), size).toBe(true);
    }
    const txt = await fetchRaw('/api/files/users/oap640cot4yru2s/test_kfd2wYLxkz.txt?thumb=100x100');
    expect(txt.body.toString()).toBe('test\n');
    const svg = await fetchRaw('/api/files/demo5/qjeql998mtp1azp/logo_vcf_jjg5_tah_9MtIHytOmZ.svg?thumb=100x100');
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(fs.existsSync(path.join(srv.dataDir, 'storage', '9n89pl5vkct6330', 'qjeql998mtp1azp', 'thumbs_logo_vcf_jjg5_tah_9MtIHytOmZ.svg'))).toBe(false);
  });

  it('generates each mode once with 0.22\u2019s sizes and crops', async () => {
    // a wide 300x200 and a tall 200x300 image, top half red and bottom half blue
    await attach(USERS, 'users', 'bgs820n361vj1qd', 'avatar', 'wide_abcdefghij.png', await twoTone(300, 200), 'image/png');
    await attach(USERS, 'users', 'oap640cot4yru2s', 'avatar', 'tall_abcdefghij.png', await twoTone(200, 300), 'image/png');

    const expectations: Array<[string, string, number, number]> = [
      ['bgs820n361vj1qd/wide_abcdefghij.png', '100x100', 100, 100],
      ['bgs820n361vj1qd/wide_abcdefghij.png', '70x50', 70, 50],
      ['bgs820n361vj1qd/wide_abcdefghij.png', '70x50f', 70, 46], // fit: 300x200 → 70x46 (truncated)
      ['bgs820n361vj1qd/wide_abcdefghij.png', '0x50', 75, 50],
      ['bgs820n361vj1qd/wide_abcdefghij.png', '70x0', 70, 47], // 46.67 rounds to 47
      ['oap640cot4yru2s/tall_abcdefghij.png', '70x50t', 70, 50],
      ['oap640cot4yru2s/tall_abcdefghij.png', '70x50b', 70, 50],
      ['oap640cot4yru2s/tall_abcdefghij.png', '70x50f', 33, 50],
    ];
    for (const [file, size, width, height] of expectations) {
      const res = await fetchRaw(`/api/files/users/${file}?thumb=${size}`);
      expect(res.status, size).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      const meta = await sharp(res.body).metadata();
      expect([meta.format, meta.width, meta.height], `${file} ${size}`).toEqual(['png', width, height]);
    }

    // crop from the top of the tall image is all red, from the bottom all blue, the centre both
    const pixel = async (file: string, size: string, y: number) => {
      const res = await fetchRaw(`/api/files/users/${file}?thumb=${size}`);
      const { data, info } = await sharp(res.body).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const i = (y * info.width + 35) * info.channels;
      return [data[i], data[i + 1], data[i + 2]];
    };
    const red = (c: number[]) => c[0] > 200 && c[2] < 50;
    const blue = (c: number[]) => c[2] > 200 && c[0] < 50;
    expect(red(await pixel('oap640cot4yru2s/tall_abcdefghij.png', '70x50t', 49))).toBe(true);
    expect(blue(await pixel('oap640cot4yru2s/tall_abcdefghij.png', '70x50b', 0))).toBe(true);
    expect(red(await pixel('oap640cot4yru2s/tall_abcdefghij.png', '70x50', 0))).toBe(true);
    expect(blue(await pixel('oap640cot4yru2s/tall_abcdefghij.png', '70x50', 49))).toBe(true);

    // cached at storage/{collectionId}/{recordId}/thumbs_{name}/{size}_{name} with a sidecar, made once
    const cached = path.join(srv.dataDir, 'storage', USERS, 'bgs820n361vj1qd', 'thumbs_wide_abcdefghij.png', '70x50_wide_abcdefghij.png');
    expect(fs.existsSync(cached)).toBe(true);
    expect(JSON.parse(fs.readFileSync(cached + '.attrs', 'utf8'))['user.content_type']).toBe('image/png');
    const mtime = fs.statSync(cached).mtimeMs;
    const again = await fetchRaw('/api/files/users/bgs820n361vj1qd/wide_abcdefghij.png?thumb=70x50');
    expect(again.body.equals(fs.readFileSync(cached))).toBe(true);
    expect(fs.statSync(cached).mtimeMs).toBe(mtime);
  });

  it('makes one thumb for concurrent requests, and keeps jpg/gif formats', async () => {
    await attach('wzlqyes4orhoygb', 'demo3', '7nwo8tuiatetxdm', 'files', 'photo_abcdefghij.jpg', await twoTone(160, 120, 'jpeg'), 'image/jpeg', true);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => fetchRaw('/api/files/demo3/7nwo8tuiatetxdm/photo_abcdefghij.jpg?thumb=100x100')),
    );
    for (const r of results) {
      expect(r.status).toBe(200);
      expect(r.body.equals(results[0].body)).toBe(true);
    }
    expect(r0meta(await sharp(results[0].body).metadata())).toEqual(['jpeg', 100, 100]);
    expect(results[0].headers.get('content-type')).toBe('image/jpeg');
    const thumbDir = path.join(srv.dataDir, 'storage', 'wzlqyes4orhoygb', '7nwo8tuiatetxdm', 'thumbs_photo_abcdefghij.jpg');
    expect(fs.readdirSync(thumbDir).sort()).toEqual(['100x100_photo_abcdefghij.jpg', '100x100_photo_abcdefghij.jpg.attrs']);

    await attach('wzlqyes4orhoygb', 'demo3', 'lcl9d87w22ml6jy', 'files', 'anim_abcdefghij.gif', await twoTone(50, 30, 'gif'), 'image/gif', true);
    const gif = await fetchRaw('/api/files/demo3/lcl9d87w22ml6jy/anim_abcdefghij.gif?thumb=100x100');
    expect(r0meta(await sharp(gif.body).metadata())).toEqual(['gif', 100, 100]);

    // webp is not thumbed: the original comes back
    const webp = await twoTone(50, 30, 'webp');
    await attach('wzlqyes4orhoygb', 'demo3', 'mk5fmymtx4wsprk', 'files', 'pic_abcdefghij.webp', webp, 'image/webp', true);
    const w = await fetchRaw('/api/files/demo3/mk5fmymtx4wsprk/pic_abcdefghij.webp?thumb=100x100');
    expect(w.body.equals(webp)).toBe(true);
    expect(w.headers.get('content-disposition')).toBe('inline; filename=pic_abcdefghij.webp');
  });

  it('falls back to the original when the image cannot be decoded', async () => {
    const junk = Buffer.from('definitely not a png');
    await attach(USERS, 'users', USER1, 'avatar', 'broken_abcdefghij.png', junk, 'image/png');
    const res = await fetchRaw(`/api/files/users/${USER1}/broken_abcdefghij.png?thumb=100x100`);
    expect(res.status).toBe(200);
    expect(res.body.equals(junk)).toBe(true);
    srv.app.ctx.db.prepare('UPDATE users SET avatar = ? WHERE id = ?').run(AVATAR, USER1);
  });
});

const r0meta = (m: Metadata) => [m.format, m.width, m.height];
