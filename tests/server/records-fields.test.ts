// Records API on a fresh data dir: validation of every field type and option, modifiers, custom
// ids, unique indexes, auth records (passwords, usernames, emails, verified), file uploads (real
// PNG from sharp, sniffed types, path tricks, keep-list deletions) and malformed bodies.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startServer, type TestServer } from '../helpers/server';
import { newRecordAuthToken } from '../../server/services/tokens';

let srv: TestServer;
let admin = '';
let png: Buffer;
const api = (method: string, p: string, opts: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {}) =>
  http(srv.url, method, p, { token: admin, ...opts });
const guest = (method: string, p: string, opts: { body?: unknown; raw?: string; token?: string } = {}) => http(srv.url, method, p, opts);

async function multipart(method: string, p: string, form: FormData, token = admin) {
  const res = await fetch(srv.url + p, { method, body: form, headers: token ? { Authorization: token } : {} });
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  srv = await startServer();
  const creds = { email: 'admin@example.com', password: '1234567890' };
  await http(srv.url, 'POST', '/api/admins', { body: { ...creds, passwordConfirm: creds.password } });
  admin = (await http(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: creds.email, password: creds.password } })).body.token;
  png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } }).png().toBuffer();

  const mk = async (body: unknown) => {
    const res = await api('POST', '/api/collections', { body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const tags = await mk({ name: 'tags', schema: [{ name: 'name', type: 'text' }], listRule: '', viewRule: '', createRule: '', updateRule: '', deleteRule: '' });
  await mk({
    name: 'items',
    listRule: '',
    viewRule: '',
    createRule: '',
    updateRule: '',
    deleteRule: '',
    indexes: ['CREATE UNIQUE INDEX idx_items_code ON items (code) WHERE code != \'\''],
    schema: [
      { name: 'title', type: 'text', options: { min: 2, max: 10, pattern: '^[a-z ]+$' } },
      { name: 'code', type: 'text' },
      { name: 'req', type: 'text', required: false },
      { name: 'count', type: 'number', options: { min: 1, max: 100, noDecimal: true } },
      { name: 'flag', type: 'bool' },
      { name: 'mail', type: 'email', options: { onlyDomains: ['example.com'] } },
      { name: 'link', type: 'url', options: { exceptDomains: ['bad.com'] } },
      { name: 'body', type: 'editor' },
      { name: 'at', type: 'date', options: { min: '2020-01-01 00:00:00.000Z', max: '2030-01-01 00:00:00.000Z' } },
      { name: 'one', type: 'select', options: { maxSelect: 1, values: ['a', 'b', 'c'] } },
      { name: 'many', type: 'select', options: { maxSelect: 2, values: ['a', 'b', 'c'] } },
      { name: 'meta', type: 'json', options: { maxSize: 50 } },
      { name: 'cover', type: 'file', options: { maxSelect: 1, maxSize: 100000, mimeTypes: ['image/png', 'image/jpeg'] } },
      { name: 'docs', type: 'file', options: { maxSelect: 3, maxSize: 200 } },
      { name: 'tag', type: 'relation', options: { collectionId: tags.id, maxSelect: 1 } },
      { name: 'tagz', type: 'relation', options: { collectionId: tags.id, maxSelect: null, minSelect: 2 } },
    ],
  });
  await mk({
    name: 'req',
    listRule: '',
    viewRule: '',
    createRule: '',
    updateRule: '',
    deleteRule: '',
    schema: [
      { name: 'n', type: 'number', required: true },
      { name: 'b', type: 'bool', required: true },
      { name: 'j', type: 'json', required: true, options: { maxSize: 100 } },
      { name: 'd', type: 'date', required: true },
      { name: 't', type: 'text', required: true },
    ],
  });
  await mk({
    name: 'members',
    type: 'auth',
    listRule: '',
    viewRule: '',
    createRule: '',
    updateRule: 'id = @request.auth.id',
    deleteRule: null,
    options: { allowEmailAuth: true, allowUsernameAuth: true, minPasswordLength: 8, requireEmail: false, onlyEmailDomains: ['example.com'] },
    schema: [{ name: 'nick', type: 'text' }],
  });
});

afterAll(async () => {
  await srv?.close();
});

const errorsOf = async (body: unknown, p = '/api/collections/items/records') => {
  const res = await api('POST', p, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.message).toBe('Failed to create record.');
  return res.body.data as Record<string, { code: string; message: string }>;
};

describe('field validation', () => {
  it('creates a record with empty values for every type', async () => {
    const res = await api('POST', '/api/collections/items/records', { body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title: '', count: 0, flag: false, mail: '', link: '', body: '', at: '', one: '', many: [], meta: null, cover: '', docs: [], tag: '', tagz: [],
    });
    expect(res.body.id).toMatch(/^[a-z0-9]{15}$/);
    expect(res.body.created).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Object.keys(res.body)).toEqual([...Object.keys(res.body)].sort());
  });

  it('text min/max/pattern', async () => {
    expect((await errorsOf({ title: 'a' })).title).toEqual({ code: 'validation_min_text_constraint', message: 'Must be at least 2 character(s).' });
    expect((await errorsOf({ title: 'abcdefghijk' })).title.code).toBe('validation_max_text_constraint');
    expect((await errorsOf({ title: 'ABC' })).title).toEqual({ code: 'validation_invalid_format', message: 'Invalid value format.' });
  });

  it('number min/max/noDecimal', async () => {
    expect((await errorsOf({ count: 1.5 })).count.code).toBe('validation_no_decimal_constraint');
    expect((await errorsOf({ count: 101 })).count).toEqual({ code: 'validation_max_number_constraint', message: 'Must be less than 100.000000.' });
    expect((await errorsOf({ count: -3 })).count.code).toBe('validation_min_number_constraint');
  });

  it('email and url domains', async () => {
    expect((await errorsOf({ mail: 'nope' })).mail.code).toBe('validation_invalid_email');
    expect((await errorsOf({ mail: 'a@other.com' })).mail.code).toBe('validation_email_domain_not_allowed');
    expect((await errorsOf({ link: 'not a url' })).link.code).toBe('validation_invalid_url');
    expect((await errorsOf({ link: 'https://bad.com/x' })).link.code).toBe('validation_url_domain_not_allowed');
    const ok = await api('POST', '/api/collections/items/records', { body: { mail: 'a@example.com', link: 'https://ok.com/x?y=1' } });
    expect(ok.status).toBe(200);
  });

  it('date min/max and normalisation', async () => {
    expect((await errorsOf({ at: '2019-05-05' })).at.code).toBe('validation_min_greater_equal_than_required');
    expect((await errorsOf({ at: '2031-05-05 10:00:00' })).at.code).toBe('validation_max_less_equal_than_required');
    const ok = await api('POST', '/api/collections/items/records', { body: { at: '2024-02-03T04:05:06Z' } });
    expect(ok.body.at).toBe('2024-02-03 04:05:06.000Z');
  });

  it('select values and maxSelect; a single select keeps the last item; multi de-duplicated', async () => {
    expect((await errorsOf({ one: 'z' })).one).toEqual({ code: 'validation_invalid_value', message: 'Invalid value z.' });
    expect((await errorsOf({ many: ['a', 'b', 'c'] })).many).toEqual({ code: 'validation_too_many_values', message: 'Select no more than 2.' });
    const ok = await api('POST', '/api/collections/items/records', { body: { one: ['a', 'b'], many: ['a', 'a', 'b'] } });
    expect(ok.body.one).toBe('b');
    expect(ok.body.many).toEqual(['a', 'b']);
  });

  it('json maxSize and string normalisation', async () => {
    expect((await errorsOf({ meta: { big: 'x'.repeat(100) } })).meta.code).toBe('validation_json_size_limit');
    const ok = await api('POST', '/api/collections/items/records', { body: { meta: { a: [1, 2] } } });
    expect(ok.body.meta).toEqual({ a: [1, 2] });
    const str = await api('POST', '/api/collections/items/records', { body: { meta: 'plain' } });
    expect(str.body.meta).toBe('plain');
    const arr = await api('POST', '/api/collections/items/records', { body: { meta: '[1,2]' } });
    expect(arr.body.meta).toEqual([1, 2]);
  });

  it('relations must exist, with minSelect/maxSelect', async () => {
    const t1 = (await api('POST', '/api/collections/tags/records', { body: { name: 't1' } })).body.id;
    const t2 = (await api('POST', '/api/collections/tags/records', { body: { name: 't2' } })).body.id;
    expect((await errorsOf({ tag: 'missingmissing1' })).tag.code).toBe('validation_missing_rel_records');
    expect((await errorsOf({ tagz: [t1] })).tagz.code).toBe('validation_not_enough_values');
    const many = Array.from({ length: 3000 }, (_, i) => `id${String(i).padStart(13, '0')}`);
    expect((await errorsOf({ tagz: many })).tagz.code).toBe('validation_missing_rel_records');
    const ok = await api('POST', '/api/collections/items/records?expand=tag,tagz', { body: { tag: t1, tagz: [t1, t2] } });
    expect(ok.status).toBe(200);
    expect(ok.body.expand.tag.name).toBe('t1');
    expect(ok.body.expand.tagz.map((t: any) => t.name)).toEqual(['t1', 't2']);
    // back-relation from the tag
    const back = await api('GET', `/api/collections/tags/records/${t1}?expand=items_via_tagz`);
    expect(back.body.expand.items_via_tagz.map((r: any) => r.id)).toEqual([ok.body.id]);
  });

  it('required means non-zero for every type', async () => {
    const data = await errorsOf({ n: 0, b: false, j: null, d: '', t: '' }, '/api/collections/req/records');
    for (const k of ['n', 'b', 'j', 'd', 't']) expect(data[k]).toEqual({ code: 'validation_required', message: 'Missing required value.' });
    const emptyJson = await errorsOf({ n: 1, b: true, j: {}, d: '2024-01-01', t: 'x' }, '/api/collections/req/records');
    expect(Object.keys(emptyJson)).toEqual(['j']);
    expect((await api('POST', '/api/collections/req/records', { body: { n: 1, b: true, j: { a: 1 }, d: '2024-01-01', t: 'x' } })).status).toBe(200);
  });

  it('reports unique index failures as field errors', async () => {
    expect((await api('POST', '/api/collections/items/records', { body: { code: 'dup' } })).status).toBe(200);
    const data = await errorsOf({ code: 'dup' });
    expect(data).toEqual({ code: { code: 'validation_not_unique', message: 'Value must be unique.' } });
  });

  it('ignores unknown keys; field+ / field- modify', async () => {
    const created = await api('POST', '/api/collections/items/records', { body: { count: 5, many: ['a'], nope: 1 } });
    expect(created.body.nope).toBeUndefined();
    const id = created.body.id;
    const upd = await api('PATCH', `/api/collections/items/records/${id}`, { body: { 'count+': 10, 'many+': 'b' } });
    expect(upd.body.count).toBe(15);
    expect(upd.body.many).toEqual(['a', 'b']);
    const sub = await api('PATCH', `/api/collections/items/records/${id}`, { body: { 'count-': 5, 'many-': ['a'] } });
    expect(sub.body.count).toBe(10);
    expect(sub.body.many).toEqual(['b']);
    const fail = await api('PATCH', `/api/collections/items/records/${id}`, { body: { title: 'X' } });
    expect(fail.body.message).toBe('Failed to update record.');
  });

  it('custom ids: exactly 15 allowed characters, unused', async () => {
    expect((await errorsOf({ id: 'short' })).id.code).toBe('validation_length_invalid');
    expect((await errorsOf({ id: 'abc/def.ghi@jkl' })).id.code).toBe('validation_match_invalid');
    expect((await api('POST', '/api/collections/items/records', { body: { id: 'custom000000001' } })).body.id).toBe('custom000000001');
    expect((await errorsOf({ id: 'custom000000001' })).id.code).toBe('validation_invalid_id');
    const change = await api('PATCH', '/api/collections/items/records/custom000000001', { body: { id: 'custom000000002' } });
    expect(change.status).toBe(400);
  });
});

describe('malformed bodies', () => {
  it('answers an empty or invalid JSON body with the load message', async () => {
    for (const raw of ['', '{"', '[1]', '"x"']) {
      const res = await api('POST', '/api/collections/items/records', { raw });
      expect(res.body, raw).toEqual({ code: 400, message: 'Failed to load the submitted data due to invalid formatting.', data: {} });
    }
    const id = (await api('POST', '/api/collections/items/records', { body: {} })).body.id;
    const patch = await api('PATCH', `/api/collections/items/records/${id}`, { raw: '' });
    expect(patch.body.message).toBe('Failed to load the submitted data due to invalid formatting.');
    const missing = await api('PATCH', '/api/collections/items/records/missing', { raw: '' });
    expect(missing.status).toBe(404);
  });
});

describe('auth records', () => {
  it('creates with a password, generates a username, hides email and secrets', async () => {
    const res = await guest('POST', '/api/collections/members/records', {
      body: { email: 'a@example.com', password: '12345678', passwordConfirm: '12345678' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.username).toMatch(/^members\d{5}$/);
    expect(res.body.email).toBeUndefined();
    expect(res.body.passwordHash).toBeUndefined();
    expect(res.body.tokenKey).toBeUndefined();
    const row = srv.app.db.prepare('SELECT passwordHash, tokenKey FROM members WHERE id = ?').get(res.body.id) as any;
    expect(row.passwordHash).toMatch(/^\$2a\$/);
    expect(row.tokenKey).toHaveLength(50);
  });

  it('validates password, username, email and verified', async () => {
    const data = await errorsOf({ password: 'short', passwordConfirm: 'other', username: 'x', email: 'b@other.com' }, '/api/collections/members/records');
    expect(data.password.code).toBe('validation_length_out_of_range');
    expect(data.passwordConfirm.code).toBe('validation_values_mismatch');
    expect(data.username.code).toBe('validation_length_out_of_range');
    expect(data.email.code).toBe('validation_email_domain_not_allowed');
    const verified = await guest('POST', '/api/collections/members/records', {
      body: { email: 'v@example.com', password: '12345678', passwordConfirm: '12345678', verified: true },
    });
    expect(verified.status).toBe(400);
    expect(verified.body.data.verified.code).toBe('validation_in_invalid');
    await api('POST', '/api/collections/members/records', { body: { username: 'Taken', password: '12345678', passwordConfirm: '12345678' } });
    const dup = await errorsOf({ username: 'taken', password: '12345678', passwordConfirm: '12345678' }, '/api/collections/members/records');
    expect(dup.username.code).toBe('validation_invalid_username');
  });

  it('changing the password needs oldPassword (unless admin) and renews the tokenKey', async () => {
    const created = await guest('POST', '/api/collections/members/records', {
      body: { email: 'pw@example.com', password: '12345678', passwordConfirm: '12345678' },
    });
    const id = created.body.id;
    const row = () => srv.app.db.prepare('SELECT tokenKey FROM members WHERE id = ?').get(id) as { tokenKey: string };
    const token = newRecordAuthToken(srv.app.ctx.settings.get(), { id, tokenKey: row().tokenKey, collectionId: created.body.collectionId });
    const own = await guest('GET', `/api/collections/members/records/${id}`, { token });
    expect(own.body.email).toBe('pw@example.com');
    const noOld = await guest('PATCH', `/api/collections/members/records/${id}`, { token, body: { password: 'abcdefgh', passwordConfirm: 'abcdefgh' } });
    expect(noOld.body.data.oldPassword.code).toBe('validation_required');
    const badOld = await guest('PATCH', `/api/collections/members/records/${id}`, {
      token,
      body: { password: 'abcdefgh', passwordConfirm: 'abcdefgh', oldPassword: 'wrongwrong' },
    });
    expect(badOld.body.data.oldPassword.code).toBe('validation_invalid_old_password');
    const before = row().tokenKey;
    const ok = await guest('PATCH', `/api/collections/members/records/${id}`, {
      token,
      body: { password: 'abcdefgh', passwordConfirm: 'abcdefgh', oldPassword: '12345678' },
    });
    expect(ok.status).toBe(200);
    expect(row().tokenKey).not.toBe(before);
    // the old token no longer works
    expect((await guest('PATCH', `/api/collections/members/records/${id}`, { token, body: { nick: 'x' } })).status).toBe(404);
    // email cannot be changed directly by the owner; admins can
    const admins = await api('PATCH', `/api/collections/members/records/${id}`, { body: { email: 'new@example.com', password: 'zzzzzzzz', passwordConfirm: 'zzzzzzzz' } });
    expect(admins.body.email).toBe('new@example.com');
  });
});

describe('files', () => {
  it('uploads a real PNG under a sanitised name with an .attrs sidecar', async () => {
    const form = new FormData();
    form.append('title', 'with file');
    form.append('cover', new Blob([new Uint8Array(png)]), '../../My Cool Photo.PNG');
    const res = await multipart('POST', '/api/collections/items/records', form);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.cover).toMatch(/^my_cool_photo_[A-Za-z0-9]{10}\.png$/);
    const dir = path.join(srv.dataDir, 'storage', res.body.collectionId, res.body.id);
    expect(fs.readFileSync(path.join(dir, res.body.cover))).toEqual(png);
    const attrs = JSON.parse(fs.readFileSync(path.join(dir, res.body.cover + '.attrs'), 'utf8'));
    expect(attrs['user.content_type']).toBe('image/png');
    expect(typeof attrs.md5).toBe('string');
  });

  it('sniffs the real type, limits size and count', async () => {
    const fake = new FormData();
    fake.append('cover', new Blob(['not really a png']), 'fake.png');
    const bad = await multipart('POST', '/api/collections/items/records', fake);
    expect(bad.status).toBe(400);
    expect(bad.body.data.cover.code).toBe('validation_invalid_mime_type');
    const big = new FormData();
    big.append('docs', new Blob(['x'.repeat(500)]), 'big.txt');
    const tooBig = await multipart('POST', '/api/collections/items/records', big);
    expect(tooBig.body.data.docs.code).toBe('validation_file_size_limit');
    const many = new FormData();
    for (let i = 0; i < 4; i++) many.append('docs', new Blob([`f${i}`]), `f${i}.txt`);
    expect((await multipart('POST', '/api/collections/items/records', many)).body.data.docs.code).toBe('validation_too_many_values');
  });

  it('never lets ../ or NUL reach the file system', async () => {
    const form = new FormData();
    form.append('docs', new Blob(['a']), '../../../../etc/passwd');
    form.append('docs', new Blob(['b']), 'evil\u0000.txt');
    form.append('docs', new Blob(['c']), '..');
    const res = await multipart('POST', '/api/collections/items/records', form);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    for (const name of res.body.docs) expect(name).toMatch(/^[A-Za-z0-9_]+_[A-Za-z0-9]{10}(\.[\w.*+=#-]*)?$/);
    const dir = path.join(srv.dataDir, 'storage', res.body.collectionId, res.body.id);
    expect(fs.readdirSync(dir).filter((f) => !f.endsWith('.attrs')).sort()).toEqual([...res.body.docs].sort());
  });

  it('keep-list semantics, appends, replaces, deletions and @jsonPayload', async () => {
    const form = new FormData();
    form.append('@jsonPayload', JSON.stringify({ title: 'payload' }));
    form.append('docs', new Blob(['1']), 'one.txt');
    form.append('docs', new Blob(['2']), 'two.txt');
    form.append('cover', new Blob([new Uint8Array(png)]), 'a.png');
    const created = await multipart('POST', '/api/collections/items/records', form);
    expect(created.body.title).toBe('payload');
    const { id, collectionId } = created.body;
    const [one, two] = created.body.docs;
    const dir = path.join(srv.dataDir, 'storage', collectionId, id);

    const unknown = await api('PATCH', `/api/collections/items/records/${id}`, { body: { docs: [one, 'other.txt'] } });
    expect(unknown.body).toEqual({
      code: 400,
      message: 'Failed to load the submitted data due to invalid formatting.',
      data: { docs: { code: 'validation_unknown_filenames', message: 'The field contains unknown filenames.' } },
    });

    const append = new FormData();
    append.append('docs', new Blob(['3']), 'three.txt');
    append.append('cover', new Blob([new Uint8Array(png)]), 'b.png');
    const appended = await multipart('PATCH', `/api/collections/items/records/${id}`, append);
    expect(appended.body.docs).toHaveLength(3);
    expect(appended.body.cover).not.toBe(created.body.cover);
    expect(fs.existsSync(path.join(dir, created.body.cover))).toBe(false);

    const del = new FormData();
    del.append(`docs.${one}`, '');
    const afterDel = await multipart('PATCH', `/api/collections/items/records/${id}`, del);
    expect(afterDel.body.docs).not.toContain(one);
    expect(fs.existsSync(path.join(dir, one))).toBe(false);

    const minus = await api('PATCH', `/api/collections/items/records/${id}`, { body: { 'docs-': [two] } });
    expect(minus.body.docs).toHaveLength(1);
    const cleared = await api('PATCH', `/api/collections/items/records/${id}`, { body: { docs: [], cover: null } });
    expect(cleared.body.docs).toEqual([]);
    expect(cleared.body.cover).toBe('');
    expect(fs.readdirSync(dir)).toEqual([]);

    expect((await api('DELETE', `/api/collections/items/records/${id}`)).status).toBe(204);
    expect(fs.existsSync(dir)).toBe(false);
  });
});
