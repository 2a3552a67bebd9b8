// PocketBase 0.22.12 details over HTTP on a copy of the fixture: generated backup names carry the
// snake-cased app name (core/base_backup.go generateBackupName, tools/inflector Snakecase);
// downloads name the file without quotes (tools/filesystem Serve); stored files may be framed
// (apis/file.go drops X-Frame-Options); several byte ranges answer one multipart/byteranges body
// (Go's http.ServeContent); a filter nested 5,000 deep is an ordinary 400 (apis/record_crud.go
// answers a failed list with NewBadRequestError("", err)).
import fs from 'node:fs';
import nodeHttp from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAutoBackup } from '../../server/services/backups/cron';
import { databaseSnapshot } from '../../server/services/backups/create';
import { snakecase } from '../../server/services/backups/names';
import { getStorage } from '../../server/services/storage';
import { FIXTURE_ADMIN_TOKEN as ADMIN, http, startServer, type TestServer } from '../helpers/server';

let srv: TestServer;

beforeAll(async () => {
  srv = await startServer({ fixture: true });
});

afterAll(async () => {
  // let streamed answers' sockets go idle first (close() would wait for keep-alive)
  await new Promise((r) => setTimeout(r, 200));
  await srv?.close();
});

interface RawResponse {
  status: number;
  /** Header values as the bytes sent, read as UTF-8 (fetch would read them as latin1). */
  headers: Record<string, string>;
  body: Buffer;
}

/** A request read with node:http, headers taken byte for byte from the wire. */
function raw(p: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  const { hostname, port } = new URL(srv.url);
  return new Promise((resolve, reject) => {
    const req = nodeHttp.request({ hostname, port, path: p, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const out: Record<string, string> = {};
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          out[res.rawHeaders[i].toLowerCase()] = Buffer.from(res.rawHeaders[i + 1], 'latin1').toString('utf8');
        }
        resolve({ status: res.statusCode ?? 0, headers: out, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const api = (method: string, p: string, body?: unknown) => http(srv.url, method, p, { token: ADMIN, body });
const backupKeys = async (): Promise<string[]> => ((await api('GET', '/api/backups')).body as Array<{ key: string }>).map((b) => b.key);
const stampNow = () => new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);

async function setAppName(appName: string) {
  const res = await api('PATCH', '/api/settings', { meta: { appName } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Backups whose keys were not there before `fn` ran. */
async function newBackups(fn: () => Promise<unknown>): Promise<string[]> {
  const before = new Set(await backupKeys());
  await fn();
  return (await backupKeys()).filter((k) => !before.has(k));
}

async function backupToken(): Promise<string> {
  return (await api('POST', '/api/files/token')).body.token;
}

const TXT = '/api/files/users/oap640cot4yru2s/test_kfd2wYLxkz.txt'; // "test\n"

describe('generated backup names (0.22 generateBackupName)', () => {
  it("snake-cases like 0.22's inflector.Snakecase (its own test table)", () => {
    const table: Array<[string, string]> = [
      ['', ''], ['  ', ''], ['!@#$%^', ''], ['...', ''], ['_', ''], ['John Doe', 'john_doe'], ['John_Doe', 'john_doe'],
      ['.a!b@c#d$e%123. ', 'a_b_c_d_e_123'], ['HelloWorld', 'hello_world'], ['HelloWorld1HelloWorld2', 'hello_world1_hello_world2'],
      ['TEST', 'test'], ['testABR', 'test_abr'],
      // Go's \W is ASCII-only: other letters split words too
      ['myTestDB Ünïcode', 'my_test_db_n_code'],
    ];
    for (const [input, expected] of table) expect(snakecase(input), input).toBe(expected);
  });

  it('names manual and automatic backups pb_backup_<app name>_<UTC stamp>.zip, at most 50 chars of the name', async () => {
    const from = stampNow();
    // the fixture's app name is acme_test; no name field, then an empty one
    // (each name differs: a second backup with the same generated name within a second would
    // replace the first, as in 0.22)
    const [plain] = await newBackups(async () => expect((await api('POST', '/api/backups', {})).status).toBe(204));
    expect(plain).toMatch(/^pb_backup_acme_test_\d{14}\.zip$/);

    await setAppName('My Shop: Staging-DB');
    const [named] = await newBackups(async () => expect((await api('POST', '/api/backups', { name: '' })).status).toBe(204));
    expect(named).toMatch(/^pb_backup_my_shop_staging_db_\d{14}\.zip$/);

    await setAppName(`${'Long'.repeat(20)} App`);
    const [long] = await newBackups(() => api('POST', '/api/backups', {}));
    // "long_long_…_long_app" cut at 50 bytes ends in '_', then the stamp's own '_' follows
    expect(long).toMatch(new RegExp(`^pb_backup_${'long_'.repeat(10)}_\\d{14}\\.zip$`));

    // nothing left of the name: an empty middle, as 0.22 leaves it
    await setAppName('¡¿!');
    const [none] = await newBackups(() => api('POST', '/api/backups', {}));
    expect(none).toMatch(/^pb_backup__\d{14}\.zip$/);

    await setAppName('Cron App');
    const [auto] = await newBackups(() => runAutoBackup(srv.app.ctx, databaseSnapshot(srv.app.db, srv.app.logsDb)));
    expect(auto).toMatch(/^@auto_pb_backup_cron_app_\d{14}\.zip$/);

    const to = stampNow();
    for (const key of [plain, named, long, none, auto]) {
      const stamp = key.slice(-18, -4);
      expect(stamp >= from && stamp <= to, `${key} between ${from} and ${to}`).toBe(true);
    }
    await setAppName('acme_test');
  });
});

describe('Content-Disposition without quotes (0.22 filesystem.Serve)', () => {
  it('names backup downloads as `attachment; filename=<key>`, the bytes of the name as they are', async () => {
    const token = await backupToken();
    const dir = path.join(srv.dataDir, 'backups');
    expect((await api('POST', '/api/backups', { name: 'for_download.zip' })).status).toBe(204);
    const plain = await raw(`/api/backups/for_download.zip?token=${token}`);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-disposition']).toBe('attachment; filename=for_download.zip');
    // an uploaded backup may have any plain file name
    const odd = 'my backup "ü".zip';
    fs.copyFileSync(path.join(dir, 'for_download.zip'), path.join(dir, odd));
    const res = await raw(`/api/backups/${encodeURIComponent(odd)}?token=${token}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename=${odd}`);
    fs.rmSync(path.join(dir, odd));
  });

  it('names record files the same way, inline or with ?download=1', async () => {
    const inline = await raw('/api/files/users/4q1xlclmfloku33/300_1SEi6Q6U72.png');
    expect(inline.headers['content-disposition']).toBe('inline; filename=300_1SEi6Q6U72.png');
    const download = await raw('/api/files/users/4q1xlclmfloku33/300_1SEi6Q6U72.png?download=1');
    expect(download.headers['content-disposition']).toBe('attachment; filename=300_1SEi6Q6U72.png');
    // a stored name with a space and a non-ASCII letter is not quoted or encoded either
    const name = 'notes ä_abcdefghij.txt';
    await getStorage(srv.app.ctx).save('_pb_users_auth_', 'bgs820n361vj1qd', name, Buffer.from('hello'), 'text/plain; charset=utf-8');
    srv.app.db.prepare('UPDATE users SET file = ? WHERE id = ?').run(JSON.stringify([name]), 'bgs820n361vj1qd');
    const odd = await raw(`/api/files/users/bgs820n361vj1qd/${encodeURIComponent(name)}?download=1`);
    expect(odd.status).toBe(200);
    expect(odd.headers['content-disposition']).toBe(`attachment; filename=${name}`);
    expect(odd.body.toString()).toBe('hello');
  });
});

describe('X-Frame-Options (0.22 drops it for served files only)', () => {
  it('is absent from stored files (full, ranged, not modified, HEAD, thumbs) and present everywhere else', async () => {
    const file = await raw(TXT);
    expect(file.status).toBe(200);
    const ranged = await raw(TXT, { Range: 'bytes=0-1' });
    expect(ranged.status).toBe(206);
    const cached = await raw(TXT, { 'If-Modified-Since': file.headers['last-modified'] });
    expect(cached.status).toBe(304);
    const head = await raw(TXT, {}, 'HEAD');
    const thumb = await raw('/api/files/users/4q1xlclmfloku33/300_1SEi6Q6U72.png?thumb=100x100');
    expect(thumb.status).toBe(200);
    for (const res of [file, ranged, cached, head, thumb]) {
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }

    const kept = [
      await raw('/api/files/users/oap640cot4yru2s/missing.txt'), // 404: no file of the record
      await raw('/api/files/demo1/al1h9ijdeojtsjy/300_Jsjq7RdBgA.png'), // 403: protected
      await raw('/api/health'),
      await raw('/api/collections/demo2/records'),
      await raw(`/api/backups/${(await backupKeys())[0]}?token=${await backupToken()}`), // backups are not files
    ];
    expect(kept.map((r) => r.status)).toEqual([404, 403, 200, 200, 200]);
    for (const res of kept) expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    const token = await http(srv.url, 'POST', '/api/files/token', { token: ADMIN });
    expect(token.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });
});

/** The parts of a multipart/byteranges body, checked against Go's layout. */
function parseByteranges(res: RawResponse): Array<{ headers: string; body: Buffer }> {
  const m = /^multipart\/byteranges; boundary=([0-9a-f]{60})$/.exec(res.headers['content-type'] ?? '');
  expect(m, res.headers['content-type']).not.toBeNull();
  const boundary = m![1];
  expect(Number(res.headers['content-length'])).toBe(res.body.length);
  const text = res.body.toString('latin1');
  expect(text.startsWith(`--${boundary}\r\n`)).toBe(true);
  expect(text.endsWith(`\r\n--${boundary}--\r\n`)).toBe(true);
  const inner = text.slice(`--${boundary}\r\n`.length, -`\r\n--${boundary}--\r\n`.length);
  return inner.split(`\r\n--${boundary}\r\n`).map((part) => {
    const split = part.indexOf('\r\n\r\n');
    return { headers: part.slice(0, split), body: Buffer.from(part.slice(split + 4), 'latin1') };
  });
}

describe('several byte ranges (Go http.ServeContent)', () => {
  const part = (range: string, type: string, body: string) => ({ headers: `Content-Range: bytes ${range}\r\nContent-Type: ${type}`, body: Buffer.from(body, 'latin1') });
  const TEXT = 'text/plain; charset=utf-8';

  it('answers 206 multipart/byteranges, each part with its Content-Range and Content-Type', async () => {
    const res = await raw(TXT, { Range: 'bytes=0-0,2-2' });
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBeUndefined();
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(parseByteranges(res)).toEqual([part('0-0/5', TEXT, 't'), part('2-2/5', TEXT, 's')]);

    // overlapping ranges are served as asked; ends past the file are cut at its end
    expect(parseByteranges(await raw(TXT, { Range: 'bytes=0-1,1-2' }))).toEqual([part('0-1/5', TEXT, 'te'), part('1-2/5', TEXT, 'es')]);
    expect(parseByteranges(await raw(TXT, { Range: 'bytes=-1, 0-0 ,3-100' }))).toEqual([
      part('4-4/5', TEXT, '\n'),
      part('0-0/5', TEXT, 't'),
      part('3-4/5', TEXT, 't\n'),
    ]);
    // HEAD: the same length, no body
    const head = await raw(TXT, { Range: 'bytes=0-0,2-2' }, 'HEAD');
    expect(head.status).toBe(206);
    expect(Number(head.headers['content-length'])).toBe(res.body.length);
    expect(head.body.length).toBe(0);

    // a binary file comes back byte for byte
    const png = fs.readFileSync(path.join(srv.dataDir, 'storage', '_pb_users_auth_', '4q1xlclmfloku33', '300_1SEi6Q6U72.png'));
    const parts = parseByteranges(await raw('/api/files/users/4q1xlclmfloku33/300_1SEi6Q6U72.png', { Range: 'bytes=0-7,100-199' }));
    expect(parts.map((p) => p.headers)).toEqual([
      `Content-Range: bytes 0-7/${png.length}\r\nContent-Type: image/png`,
      `Content-Range: bytes 100-199/${png.length}\r\nContent-Type: image/png`,
    ]);
    expect(parts[0].body.equals(png.subarray(0, 8))).toBe(true);
    expect(parts[1].body.equals(png.subarray(100, 200))).toBe(true);
  });

  it('keeps single ranges; ignores ranges adding up past the size; 416 with bytes */size when none overlaps', async () => {
    const single = await raw(TXT, { Range: 'bytes=1-2' });
    expect([single.status, single.headers['content-range'], single.body.toString()]).toEqual([206, 'bytes 1-2/5', 'es']);
    // only one of them overlaps the file: a single range
    const one = await raw(TXT, { Range: 'bytes=0-0,10-20' });
    expect([one.status, one.headers['content-range'], one.body.toString()]).toEqual([206, 'bytes 0-0/5', 't']);
    // 3 + 4 bytes of a 5-byte file: the whole file
    const whole = await raw(TXT, { Range: 'bytes=0-2,1-4' });
    expect([whole.status, whole.headers['content-type'], whole.body.toString()]).toEqual([200, TEXT, 'test\n']);
    const none = await raw(TXT, { Range: 'bytes=10-20,30-' });
    expect(none.status).toBe(416);
    expect(none.headers['content-range']).toBe('bytes */5');
    expect(none.body.toString()).toBe('invalid range: failed to overlap\n');
    const bad = await raw(TXT, { Range: 'bytes=0-0,x-1' });
    expect([bad.status, bad.body.toString()]).toEqual([416, 'invalid range\n']);
  });

  it('serves backups the same way', async () => {
    const key = (await backupKeys())[0];
    const zip = fs.readFileSync(path.join(srv.dataDir, 'backups', key));
    const res = await raw(`/api/backups/${key}?token=${await backupToken()}`, { Range: 'bytes=0-3,-4' });
    expect(res.status).toBe(206);
    const parts = parseByteranges(res);
    expect(parts.map((p) => p.headers)).toEqual([
      `Content-Range: bytes 0-3/${zip.length}\r\nContent-Type: application/zip`,
      `Content-Range: bytes ${zip.length - 4}-${zip.length - 1}/${zip.length}\r\nContent-Type: application/zip`,
    ]);
    expect(Buffer.concat(parts.map((p) => p.body)).equals(Buffer.concat([zip.subarray(0, 4), zip.subarray(-4)]))).toBe(true);
  });
});

describe('a filter nested 5,000 parentheses deep', () => {
  const deep = (inner: string) => '('.repeat(5000) + inner + ')'.repeat(5000);
  // 0.22 answers a list whose filter fails with NewBadRequestError("", err): the default message.
  // A filter past one of our own bounds (0.22 has none) names the filter instead.
  const LIST_FAILED = { code: 400, message: 'Something went wrong while processing your request.', data: {} };
  const TOO_LONG = { code: 400, message: 'Invalid filter - filter is longer than 3500 characters.', data: {} };

  it('is a filter-specific 400 on every list (records, collections, admins, logs), never a 500', async () => {
    const filter = deep('id!=""');
    for (const [p, token] of [
      ['/api/collections/demo1/records', ADMIN],
      ['/api/collections/demo2/records', undefined], // a public list rule: guests too
      ['/api/collections', ADMIN],
      ['/api/admins', ADMIN],
      ['/api/logs', ADMIN],
    ] as const) {
      // parentheses raw and percent-encoded (a 30 KB URL)
      for (const q of [encodeURIComponent(filter), filter.replace(/\(/g, '%28').replace(/\)/g, '%29').replace(/"/g, '%22').replace(/!/g, '%21')]) {
        const res = await http(srv.url, 'GET', `${p}?filter=${q}`, { token });
        expect(res.status, p).toBe(400);
        expect(res.body, p).toEqual(TOO_LONG);
      }
    }
    // the logs stats are the one place 0.22 names the filter (apis/logs.go)
    const stats = await http(srv.url, 'GET', `/api/logs/stats?filter=${encodeURIComponent(filter)}`, { token: ADMIN });
    expect(stats.body).toEqual({ code: 400, message: 'Invalid filter format.', data: {} });
    expect((await http(srv.url, 'GET', '/api/health')).status).toBe(200);
  });

  it('says when a short filter nests too deeply; a plain syntax error keeps 0.22\'s message', async () => {
    const nested = await http(srv.url, 'GET', `/api/collections/demo2/records?filter=${encodeURIComponent(deep('id!=""').slice(4940, -4940))}`);
    expect(nested.body).toEqual({ code: 400, message: 'Invalid filter - the filter is nested too deeply.', data: {} });
    const syntax = await http(srv.url, 'GET', `/api/collections/demo2/records?filter=${encodeURIComponent('id ~~ 1')}`);
    expect(syntax.body).toEqual(LIST_FAILED);
  });

  it('is refused as an invalid rule when saved on a collection', async () => {
    const res = await api('PATCH', '/api/collections/demo2', { listRule: deep('id != ""') });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Failed to update the collection.');
    expect(res.body.data.listRule.code).toBe('validation_invalid_rule');
    expect(res.body.data.listRule.message).toMatch(/^Invalid filter rule\. Raw error: /);
  });

  it('deep sort, expand and fields values are ordinary answers too', async () => {
    const sort = await api('GET', `/api/collections/demo1/records?sort=${encodeURIComponent(deep('id'))}`);
    expect(sort.body).toEqual(LIST_FAILED);
    // 0.22 skips an expand it cannot resolve
    const expand = await api('GET', `/api/collections/demo1/records?expand=${encodeURIComponent('rel_one.'.repeat(5000) + 'rel_one')}`);
    expect(expand.status).toBe(200);
    const expandParens = await api('GET', `/api/collections/demo1/records?expand=${encodeURIComponent(deep('rel_one'))}`);
    expect(expandParens.status).toBe(200);
    // the modifier's parentheses are not nested structure; a deep path picks nothing
    const fields = await api('GET', `/api/collections/demo1/records?fields=${encodeURIComponent(`id:excerpt${deep('4')}`)}`);
    expect(fields.status).toBe(200);
    expect(fields.body.items[0]).toEqual({ id: '84nm' });
    const nested = await api('GET', `/api/collections/demo1/records?expand=rel_one&fields=${encodeURIComponent('expand.rel_one.'.repeat(2500) + 'id')}`);
    expect(nested.status).toBe(200);
    expect(nested.body.items).toHaveLength(3);
    expect((await http(srv.url, 'GET', '/api/health')).status).toBe(200);
  });
});
