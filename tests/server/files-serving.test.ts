// /api/files over HTTP on a copy of the PocketBase 0.22.12 fixture: its stored files served as
// they are (types, inline or attachment, HEAD, 404s), Range and conditional requests, path tricks.
import fs from 'node:fs';
import nodeHttp from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { srv, withFixtureServer } from '../helpers/fixture-server';
import { http } from '../helpers/server';
import { AVATAR, PROTECTED, USER1, USERS, fetchRaw, fixtureFile, twoTone } from '../helpers/files';

// a streamed response can reach this in-process client before the server saw its 'finish'
withFixtureServer({ settleMs: 200 });

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
    srv.app.db.prepare("UPDATE demo5 SET file = 'ghost_abcdefghij.png' WHERE id = 'la4y2w4o98acwuj'").run();
    expect((await http(srv.url, 'GET', '/api/files/demo5/la4y2w4o98acwuj/ghost_abcdefghij.png')).status).toBe(404);
    srv.app.db.prepare("UPDATE demo5 SET file = '300_uh_lkx91_hvb_Da8K5pl069.png' WHERE id = 'la4y2w4o98acwuj'").run();
  });

  it('serves a file without .attrs sidecar with a sniffed type', async () => {
    const dir = path.join(srv.dataDir, 'storage', 'wzlqyes4orhoygb', '1tmknxy2868d869');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'bare_abcdefghij.bin'), await twoTone(4, 4, 'png'));
    srv.app.db.prepare(`UPDATE demo3 SET files = '["bare_abcdefghij.bin"]' WHERE id = '1tmknxy2868d869'`).run();
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
    srv.app.db.prepare(`UPDATE demo1 SET file_many = '["../../../data.db","..","."]' WHERE id = 'imy661ixudk5izi'`).run();
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
    srv.app.db.prepare(`UPDATE demo1 SET file_many = '[]' WHERE id = 'imy661ixudk5izi'`).run();
  });
});
