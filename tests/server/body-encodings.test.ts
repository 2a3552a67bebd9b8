// Every endpoint that reads a body takes it as JSON, multipart/form-data or url-encoded, as
// PocketBase 0.22 does (tools/rest/multi_binder.go + echo's form binder): the same request in
// each encoding gets the same answer, an unreadable body of each encoding gets the endpoint's
// 0.22 "load" 400 (never a 500), form text is typed as 0.22 types it ("true" → a bool, "3" → an
// int, objects only through `@jsonPayload`). Mail-sending endpoints are checked on a real SMTP
// server; realtime subscriptions through a live SSE stream.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_PASSWORD, http, startServer, type TestServer } from '../helpers/server';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { connectSse, type SseClient } from '../helpers/sse';
import { hashPassword } from '../../server/services/passwords';

type Encoding = 'json' | 'multipart' | 'urlencoded';
const ENCODINGS: Encoding[] = ['json', 'multipart', 'urlencoded'];
const FORMS: Encoding[] = ['multipart', 'urlencoded'];

const LOAD = 'An error occurred while loading the submitted data.';
const INVALID_FORMAT = 'Failed to load the submitted data due to invalid formatting.';
const GENERIC = 'Something went wrong while processing your request.';

const ADMIN = 'test@example.com';
const USER = { id: '4q1xlclmfloku33', username: 'users75657', email: 'test@example.com' };

let srv: TestServer;
let smtp: TestSmtp;
const sse: SseClient[] = [];

/**
 * The body in one encoding. Forms carry scalars as text and string lists as repeated values;
 * anything else (objects, lists of objects, null, []) goes in `@jsonPayload`, as 0.22 expects.
 */
function encode(fields: Record<string, unknown>, enc: Encoding): { body: string | FormData | URLSearchParams; headers: Record<string, string> } {
  if (enc === 'json') return { body: JSON.stringify(fields), headers: { 'Content-Type': 'application/json' } };
  const form = enc === 'multipart' ? new FormData() : new URLSearchParams();
  const payload: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') form.append(key, String(value));
    else if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) for (const v of value) form.append(key, v);
    else payload[key] = value;
  }
  if (Object.keys(payload).length) form.append('@jsonPayload', JSON.stringify(payload));
  // fetch writes the form's Content-Type (with the multipart boundary)
  return { body: form, headers: {} };
}

async function send(method: string, path: string, fields: Record<string, unknown>, enc: Encoding, token?: string) {
  const { body, headers } = encode(fields, enc);
  if (token) headers.Authorization = token;
  return parse(await fetch(srv.url + path, { method, headers, body }));
}

/** A raw body with its Content-Type. */
async function sendRaw(method: string, path: string, body: string, contentType: string, token?: string) {
  const headers: Record<string, string> = { 'Content-Type': contentType };
  if (token) headers.Authorization = token;
  return parse(await fetch(srv.url + path, { method, headers, body }));
}

async function parse(res: Response): Promise<{ status: number; body: any }> {
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Sends the request in every encoding; all answers must be the same (after `normalize`). */
async function sameInEvery(
  request: (enc: Encoding) => Promise<{ status: number; body: any }>,
  normalize: (body: any, enc: Encoding) => unknown = (b) => b,
): Promise<Record<Encoding, { status: number; body: any }>> {
  const results = {} as Record<Encoding, { status: number; body: any }>;
  for (const enc of ENCODINGS) results[enc] = await request(enc);
  const json = { status: results.json.status, body: normalize(results.json.body, 'json') };
  for (const enc of FORMS) {
    expect({ status: results[enc].status, body: normalize(results[enc].body, enc) }, enc).toEqual(json);
  }
  return results;
}

/** One unreadable body per encoding. */
const BAD_BODIES: Record<Encoding, { body: string; type: string }> = {
  json: { body: '{"identity":', type: 'application/json' },
  multipart: { body: 'this is not a multipart body', type: 'multipart/form-data; boundary=XyZ' },
  urlencoded: { body: 'identity=%zz&password=x', type: 'application/x-www-form-urlencoded' },
};

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
const db = () => srv.app.ctx.db;

function tokenFrom(html: string, action: string): string {
  const m = new RegExp(`${action}/([\\w.-]+)`).exec(html);
  if (!m) throw new Error(`no ${action} link in ${html}`);
  return m[1];
}

async function userToken(identity = USER.username, password = FIXTURE_PASSWORD): Promise<string> {
  const res = await http(srv.url, 'POST', '/api/collections/users/auth-with-password', { body: { identity, password } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token;
}

beforeAll(async () => {
  srv = await startServer({ fixture: true });
  smtp = await startSmtp();
  const settings = srv.app.ctx.settings;
  const current = settings.get();
  settings.save({
    ...current,
    meta: { ...current.meta, appUrl: 'https://app.example.com' },
    smtp: { ...current.smtp, enabled: true, host: '127.0.0.1', port: smtp.port, tls: false },
  });
});

afterAll(async () => {
  for (const c of sse) c.close();
  await smtp?.close();
  await srv?.close();
});

describe('every endpoint that reads a body answers an unreadable one with its 0.22 load error', () => {
  // [method, path, token, message]: the token passes the checks made before the body is read
  const endpoints = (): [string, string, string | undefined, string][] => [
    ['POST', '/api/admins/auth-with-password', undefined, LOAD],
    ['POST', '/api/admins/request-password-reset', undefined, LOAD],
    ['POST', '/api/admins/confirm-password-reset', undefined, LOAD],
    ['POST', '/api/admins', FIXTURE_ADMIN_TOKEN, INVALID_FORMAT],
    ['PATCH', '/api/admins/sywbhecnh46rhm0', FIXTURE_ADMIN_TOKEN, INVALID_FORMAT],
    ['POST', '/api/collections/users/auth-with-password', undefined, LOAD],
    ['POST', '/api/collections/users/auth-with-oauth2', undefined, LOAD],
    ['POST', '/api/collections/users/request-verification', undefined, LOAD],
    ['POST', '/api/collections/users/confirm-verification', undefined, LOAD],
    ['POST', '/api/collections/users/request-password-reset', undefined, LOAD],
    ['POST', '/api/collections/users/confirm-password-reset', undefined, LOAD],
    ['POST', '/api/collections/users/request-email-change', userAuth, LOAD],
    ['POST', '/api/collections/users/confirm-email-change', undefined, LOAD],
    ['POST', '/api/collections', FIXTURE_ADMIN_TOKEN, INVALID_FORMAT],
    ['PATCH', '/api/collections/demo2', FIXTURE_ADMIN_TOKEN, INVALID_FORMAT],
    ['PUT', '/api/collections/import', FIXTURE_ADMIN_TOKEN, INVALID_FORMAT],
    ['PATCH', '/api/settings', FIXTURE_ADMIN_TOKEN, LOAD],
    ['POST', '/api/settings/test/email', FIXTURE_ADMIN_TOKEN, LOAD],
    ['POST', '/api/settings/test/s3', FIXTURE_ADMIN_TOKEN, LOAD],
    ['POST', '/api/settings/apple/generate-client-secret', FIXTURE_ADMIN_TOKEN, LOAD],
    ['POST', '/api/backups', FIXTURE_ADMIN_TOKEN, LOAD],
    ['POST', '/api/realtime', undefined, GENERIC],
    ['POST', '/api/collections/demo2/records', undefined, INVALID_FORMAT],
    ['PATCH', '/api/collections/demo2/records/llvuca81nly1qls', undefined, INVALID_FORMAT],
    ['POST', '/api/collections/demo2/records-by-ids', FIXTURE_ADMIN_TOKEN, INVALID_FORMAT],
    ['POST', '/api/collections/demo2/records-import', FIXTURE_ADMIN_TOKEN, INVALID_FORMAT],
  ];
  let userAuth = '';

  it('in every encoding, with empty data', async () => {
    userAuth = await userToken();
    for (const [method, path, token, message] of endpoints()) {
      for (const enc of ENCODINGS) {
        const bad = BAD_BODIES[enc];
        const res = await sendRaw(method, path, bad.body, bad.type, token);
        expect(res, `${enc} ${method} ${path}`).toEqual({ status: 400, body: { code: 400, message, data: {} } });
      }
    }
  });

  it('more unreadable forms: no boundary, a truncated part, a bad escape or a `;` pair, an unsupported type', async () => {
    const path = '/api/admins/auth-with-password';
    const truncated = '--XyZ\r\nContent-Disposition: form-data; name="identity"\r\n\r\ntest@example.com';
    const cases: [string, string][] = [
      ['identity=a', 'multipart/form-data'],
      [truncated, 'multipart/form-data; boundary=XyZ'],
      ['identity=test@example.com&password=%4', 'application/x-www-form-urlencoded'],
      ['identity=test@example.com;password=x', 'application/x-www-form-urlencoded'],
      ['<identity/>', 'application/xml'],
      ['identity=a', 'application/octet-stream'],
    ];
    for (const [body, type] of cases) {
      expect(await sendRaw('POST', path, body, type), `${type} ${body}`).toEqual({ status: 400, body: { code: 400, message: LOAD, data: {} } });
    }
    // a form posted with a bad query string is unreadable too (0.22's form holds the query's values)
    const withQuery = await fetch(`${srv.url}${path}?x=%zz`, { method: 'POST', body: new URLSearchParams({ identity: ADMIN, password: FIXTURE_PASSWORD }) });
    expect(withQuery.status).toBe(400);
  });

  it('an endpoint that reads no body ignores an unreadable one (0.22 never binds it)', async () => {
    for (const enc of ENCODINGS) {
      const bad = BAD_BODIES[enc];
      const res = await sendRaw('POST', '/api/admins/auth-refresh', bad.body, bad.type, FIXTURE_ADMIN_TOKEN);
      expect(res.status, enc).toBe(200);
    }
    expect((await sendRaw('POST', '/api/admins/auth-refresh', 'x', 'application/xml', FIXTURE_ADMIN_TOKEN)).status).toBe(200);
  });

  it('has the JSON body limit: a form over 32 MB is 413; a url-encoded one over 10 MB is 400 (Go’s ParseForm)', async () => {
    const big = new FormData();
    big.append('identity', ADMIN);
    big.append('password', 'x'.repeat(33 * 1024 * 1024));
    const res = await parse(await fetch(`${srv.url}/api/admins/auth-with-password`, { method: 'POST', body: big }));
    expect(res).toEqual({ status: 413, body: { code: 413, message: expect.any(String), data: {} } });

    const urlencoded = `identity=${ADMIN}&password=${'x'.repeat(11 * 1024 * 1024)}`;
    const tooLong = await sendRaw('POST', '/api/admins/auth-with-password', urlencoded, 'application/x-www-form-urlencoded');
    expect(tooLong).toEqual({ status: 400, body: { code: 400, message: LOAD, data: {} } });
  });
});

describe('admins', () => {
  it('signs in with a multipart form as pocketbase-typegen does', async () => {
    const form = new FormData();
    form.append('identity', ADMIN);
    form.append('password', FIXTURE_PASSWORD);
    const res = await parse(await fetch(`${srv.url}/api/admins/auth-with-password`, { method: 'POST', body: form }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(claimsOf(res.body.token).type).toBe('admin');
    expect(res.body.admin.email).toBe(ADMIN);
  });

  it('signs in, and fails to, alike in every encoding', async () => {
    await sameInEvery(
      (enc) => send('POST', '/api/admins/auth-with-password', { identity: ADMIN, password: FIXTURE_PASSWORD }, enc),
      (b) => ({ ...b, token: typeof b.token }),
    );
    const failed = await sameInEvery((enc) => send('POST', '/api/admins/auth-with-password', { identity: 'test2@example.com', password: 'wrong-password' }, enc));
    expect(failed.json).toEqual({ status: 400, body: { code: 400, message: 'Failed to authenticate.', data: {} } });
    const invalid = await sameInEvery((enc) => send('POST', '/api/admins/auth-with-password', { identity: 'not-an-email' }, enc));
    expect(Object.keys(invalid.json.body.data).sort()).toEqual(['identity', 'password']);
  });

  it('binds form fields as 0.22 does: any case, the URL query too, @jsonPayload first and ignored when undecodable', async () => {
    const path = '/api/admins/auth-with-password';
    const signIn = async (form: FormData | URLSearchParams, query = '') =>
      parse(await fetch(`${srv.url}${path}${query}`, { method: 'POST', body: form }));
    for (const make of [() => new FormData(), () => new URLSearchParams()]) {
      const anyCase = make();
      anyCase.append('IDENTITY', ADMIN);
      anyCase.append('Password', FIXTURE_PASSWORD);
      expect((await signIn(anyCase)).status).toBe(200);

      const fromQuery = make();
      fromQuery.append('password', FIXTURE_PASSWORD);
      expect((await signIn(fromQuery, `?identity=${encodeURIComponent(ADMIN)}`)).status).toBe(200);

      const payloadThenFields = make();
      payloadThenFields.append('@jsonPayload', '{ not json');
      payloadThenFields.append('@jsonPayload', JSON.stringify({ identity: 'someone-else@example.com', password: FIXTURE_PASSWORD }));
      payloadThenFields.append('identity', ADMIN);
      expect((await signIn(payloadThenFields)).status).toBe(200);

      // a payload value of the wrong type is skipped (Go's decoder), not a load error
      const mistyped = make();
      mistyped.append('@jsonPayload', JSON.stringify({ identity: 42, password: FIXTURE_PASSWORD }));
      const res = await signIn(mistyped);
      expect(res.status).toBe(400);
      expect(res.body.data.identity.code).toBe('validation_required');
    }
    // JSON bodies never read the query
    const json = await http(srv.url, 'POST', `${path}?identity=${encodeURIComponent(ADMIN)}`, { body: { password: FIXTURE_PASSWORD } });
    expect(json.body.data.identity.code).toBe('validation_required');
  });

  it('creates and updates admins with the avatar typed from text; text that is no int is the load error', async () => {
    const created = await sameInEvery(
      (enc) => send('POST', '/api/admins', { email: `admin-${enc}@example.com`, password: 'password-123', passwordConfirm: 'password-123', avatar: 3 }, enc, FIXTURE_ADMIN_TOKEN),
      (b) => ({ ...b, id: typeof b.id, email: b.email.replace(/-\w+@/, '-x@'), created: typeof b.created, updated: typeof b.updated }),
    );
    expect(created.multipart.body.avatar).toBe(3);
    await sameInEvery(
      (enc) => send('PATCH', `/api/admins/${created[enc].body.id}`, { avatar: 5 }, enc, FIXTURE_ADMIN_TOKEN),
      (b) => ({ avatar: b.avatar }),
    );
    const bad = await sameInEvery((enc) => send('POST', '/api/admins', { email: 'x@example.com', avatar: 'three' }, enc, FIXTURE_ADMIN_TOKEN));
    expect(bad.json.body).toEqual({ code: 400, message: INVALID_FORMAT, data: {} });
    // "" is 0 for an int field
    const empty = await sendRaw('POST', '/api/admins', `email=empty-avatar@example.com&password=password-123&passwordConfirm=password-123&avatar=`, 'application/x-www-form-urlencoded', FIXTURE_ADMIN_TOKEN);
    expect(empty.status).toBe(200);
    expect(empty.body.avatar).toBe(0);
  });

  it('requests and confirms a password reset', async () => {
    const requested = await sameInEvery((enc) => send('POST', '/api/admins/request-password-reset', { email: 'nobody@example.com' }, enc));
    expect(requested.json.status).toBe(204);
    const invalid = await sameInEvery((enc) => send('POST', '/api/admins/request-password-reset', { email: 'not-an-email' }, enc));
    expect(invalid.json.body.data.email.code).toBe('validation_is_email');
    const confirm = await sameInEvery((enc) =>
      send('POST', '/api/admins/confirm-password-reset', { token: 'not-a-token', password: 'password-123', passwordConfirm: 'password-123' }, enc),
    );
    expect(confirm.json.body.data.token.code).toBe('validation_invalid_token');
  });
});

describe('record auth', () => {
  it('signs in with password', async () => {
    const res = await sameInEvery(
      (enc) => send('POST', '/api/collections/users/auth-with-password', { identity: USER.username, password: FIXTURE_PASSWORD }, enc),
      (b) => ({ ...b, token: typeof b.token }),
    );
    expect(res.multipart.body.record.id).toBe(USER.id);
  });

  it('requests and confirms a verification, with the mail sent', async () => {
    for (const enc of ENCODINGS) {
      db().prepare("UPDATE users SET verified = 0, lastVerificationSentAt = '' WHERE id = ?").run(USER.id);
      const since = smtp.mails.length;
      const requested = await send('POST', '/api/collections/users/request-verification', { email: USER.email }, enc);
      expect(requested.status, enc).toBe(204);
      const mail = await smtp.waitFor((m) => smtp.mails.indexOf(m) >= since && m.to.includes(USER.email));
      const confirmed = await send('POST', '/api/collections/users/confirm-verification', { token: tokenFrom(mail.html, 'confirm-verification') }, enc);
      expect(confirmed.status, enc).toBe(204);
      expect(db().prepare('SELECT verified FROM users WHERE id = ?').get(USER.id), enc).toEqual({ verified: 1 });
    }
    const invalid = await sameInEvery((enc) => send('POST', '/api/collections/users/confirm-verification', { token: 'nope' }, enc));
    expect(invalid.json.status).toBe(400);
  });

  it('requests and confirms a password reset, with the mail sent', async () => {
    for (const enc of ENCODINGS) {
      db().prepare("UPDATE users SET lastResetSentAt = '' WHERE id = ?").run(USER.id);
      const since = smtp.mails.length;
      const requested = await send('POST', '/api/collections/users/request-password-reset', { email: USER.email }, enc);
      expect(requested.status, enc).toBe(204);
      const mail = await smtp.waitFor((m) => smtp.mails.indexOf(m) >= since && m.to.includes(USER.email));
      const password = `new-password-${enc}`;
      const confirmed = await send(
        'POST',
        '/api/collections/users/confirm-password-reset',
        { token: tokenFrom(mail.html, 'confirm-password-reset'), password, passwordConfirm: password },
        enc,
      );
      expect(confirmed.status, enc).toBe(204);
      await userToken(USER.username, password);
    }
    // back to the fixture's password for the other tests
    db().prepare('UPDATE users SET passwordHash = ? WHERE id = ?').run(await hashPassword(FIXTURE_PASSWORD), USER.id);
  });

  it('requests and confirms an email change, with the mail sent', async () => {
    let current = USER.email;
    for (const enc of ENCODINGS) {
      const token = await userToken();
      const newEmail = `moved-${enc}@example.com`;
      const requested = await send('POST', '/api/collections/users/request-email-change', { newEmail }, enc, token);
      expect(requested.status, enc).toBe(204);
      const mail = await smtp.waitFor((m) => m.to.includes(newEmail));
      const confirmed = await send('POST', '/api/collections/users/confirm-email-change', { token: tokenFrom(mail.html, 'confirm-email-change'), password: FIXTURE_PASSWORD }, enc);
      expect(confirmed.status, enc).toBe(204);
      current = (db().prepare('SELECT email FROM users WHERE id = ?').get(USER.id) as { email: string }).email;
      expect(current, enc).toBe(newEmail);
    }
    db().prepare('UPDATE users SET email = ? WHERE id = ?').run(USER.email, USER.id);
  });

  it('auth-with-oauth2: the same validation in every encoding; createData only through @jsonPayload', async () => {
    const fields = { provider: 'nope', code: 'c', codeVerifier: 'v', redirectUrl: 'https://app.example.com/cb', createData: { name: 'x' } };
    const res = await sameInEvery((enc) => send('POST', '/api/collections/users/auth-with-oauth2', fields, enc));
    expect(res.json.status).toBe(400);
    expect(res.json.body.data.provider).toBeDefined();
    for (const enc of FORMS) {
      const plain = enc === 'multipart' ? new FormData() : new URLSearchParams();
      for (const [k, v] of Object.entries({ ...fields, createData: 'x' })) plain.append(k, String(v));
      const text = await parse(await fetch(`${srv.url}/api/collections/users/auth-with-oauth2`, { method: 'POST', body: plain }));
      expect(text, enc).toEqual({ status: 400, body: { code: 400, message: LOAD, data: {} } });
    }
  });
});

describe('collections', () => {
  const normalize = (b: any) => ({
    ...b,
    id: typeof b.id,
    name: String(b.name).replace(/_(json|multipart|urlencoded)$/, '_x'),
    created: typeof b.created,
    updated: typeof b.updated,
    schema: b.schema?.map((f: any) => ({ ...f, id: typeof f.id })),
    indexes: b.indexes?.map((i: string) => i.replace(/_(json|multipart|urlencoded)/g, '_x')),
  });

  it('creates and updates a collection: flags typed from text, schema and options through @jsonPayload', async () => {
    const created = await sameInEvery(
      (enc) =>
        send(
          'POST',
          '/api/collections',
          {
            name: `enc_${enc}`,
            type: 'base',
            system: false,
            listRule: '',
            viewRule: 'id != ""',
            schema: [{ name: 'title', type: 'text', options: { max: 20 } }],
            indexes: [`CREATE INDEX idx_enc_${enc} ON enc_${enc} (title)`],
            options: {},
          },
          enc,
          FIXTURE_ADMIN_TOKEN,
        ),
      normalize,
    );
    expect(created.multipart.status, JSON.stringify(created.multipart.body)).toBe(200);
    expect(created.urlencoded.body).toMatchObject({ system: false, listRule: '', viewRule: 'id != ""', schema: [{ name: 'title', options: { max: 20 } }] });

    const updated = await sameInEvery(
      (enc) => send('PATCH', `/api/collections/enc_${enc}`, { listRule: 'title != ""', deleteRule: '' }, enc, FIXTURE_ADMIN_TOKEN),
      normalize,
    );
    expect(updated.multipart.body).toMatchObject({ listRule: 'title != ""', deleteRule: '', schema: [{ name: 'title' }] });
  });

  it('refuses text for a bool that is none, and text where 0.22 takes only JSON', async () => {
    const bool = await sameInEvery((enc) => send('POST', '/api/collections', { name: 'flag', system: 'maybe' }, enc, FIXTURE_ADMIN_TOKEN));
    expect(bool.json.body).toEqual({ code: 400, message: INVALID_FORMAT, data: {} });
    // ParseBool's spellings: "1", "t", "TRUE"… (forms only; JSON wants a boolean)
    for (const enc of FORMS) {
      const on = await send('POST', '/api/collections', { name: `flag_${enc}`, system: '1', schema: [{ name: 'a', type: 'text' }] }, enc, FIXTURE_ADMIN_TOKEN);
      expect([on.status, on.body.system], enc).toEqual([200, true]);
    }
    const schema = await sameInEvery((enc) => send('POST', '/api/collections', { name: 'texty', schema: 'title' }, enc, FIXTURE_ADMIN_TOKEN));
    expect(schema.json.body).toEqual({ code: 400, message: INVALID_FORMAT, data: {} });
    // a field the form does not have is ignored, as in JSON
    const extra = await sameInEvery((enc) => send('PATCH', '/api/collections/demo2', { unknownField: 'x' }, enc, FIXTURE_ADMIN_TOKEN), (b) => ({ ...b, updated: typeof b.updated }));
    expect(extra.json.status).toBe(200);
  });

  it('imports collections', async () => {
    const list = await http(srv.url, 'GET', '/api/collections?perPage=500', { token: FIXTURE_ADMIN_TOKEN });
    await sameInEvery((enc) =>
      send(
        'PUT',
        '/api/collections/import',
        { collections: [...list.body.items, { name: `imported_${enc}`, type: 'base', schema: [{ name: 'note', type: 'text' }] }], deleteMissing: false },
        enc,
        FIXTURE_ADMIN_TOKEN,
      ),
    );
    for (const enc of ENCODINGS) {
      expect((await http(srv.url, 'GET', `/api/collections/imported_${enc}`, { token: FIXTURE_ADMIN_TOKEN })).status, enc).toBe(200);
    }
  });
});

describe('settings', () => {
  it('updates settings through @jsonPayload; a plain value for a settings section is the load error', async () => {
    const res = await sameInEvery(
      (enc) => send('PATCH', '/api/settings', { meta: { appName: 'Same App' }, unknownKey: 'ignored' }, enc, FIXTURE_ADMIN_TOKEN),
    );
    expect(res.multipart.body.meta.appName).toBe('Same App');
    for (const enc of FORMS) {
      const plain = enc === 'multipart' ? new FormData() : new URLSearchParams();
      plain.append('meta', 'x');
      const text = await parse(await fetch(`${srv.url}/api/settings`, { method: 'PATCH', body: plain, headers: { Authorization: FIXTURE_ADMIN_TOKEN } }));
      expect(text, enc).toEqual({ status: 400, body: { code: 400, message: LOAD, data: {} } });
    }
  });

  it('sends a test email in every encoding', async () => {
    for (const enc of ENCODINGS) {
      const to = `test-mail-${enc}@example.com`;
      const res = await send('POST', '/api/settings/test/email', { email: to, template: 'verification' }, enc, FIXTURE_ADMIN_TOKEN);
      expect(res.status, enc).toBe(204);
      await smtp.waitFor((m) => m.to.includes(to));
    }
    const invalid = await sameInEvery((enc) => send('POST', '/api/settings/test/email', { email: 'x@example.com', template: 'nope' }, enc, FIXTURE_ADMIN_TOKEN));
    expect(invalid.json.body.data.template).toBeDefined();
  });

  it('tests S3 for the filesystem named', async () => {
    const res = await sameInEvery((enc) => send('POST', '/api/settings/test/s3', { filesystem: 'backups' }, enc, FIXTURE_ADMIN_TOKEN));
    expect(res.json.body.message).toMatch(/S3 backups filesystem is not enabled/);
  });

  it('generates an Apple client secret, the duration typed from text', async () => {
    const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const privateKey = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const fields = { clientId: 'com.example.app', teamId: 'TEAM123456', keyId: 'KEY1234567', privateKey, duration: 3600 };
    const res = await sameInEvery(
      (enc) => send('POST', '/api/settings/apple/generate-client-secret', fields, enc, FIXTURE_ADMIN_TOKEN),
      (b) => {
        const claims = claimsOf(b.secret);
        return { iss: claims.iss, sub: claims.sub, lifetime: claims.exp - claims.iat };
      },
    );
    expect(res.multipart.status).toBe(200);
    const bad = await sameInEvery((enc) => send('POST', '/api/settings/apple/generate-client-secret', { ...fields, duration: 'soon' }, enc, FIXTURE_ADMIN_TOKEN));
    expect(bad.json.body).toEqual({ code: 400, message: LOAD, data: {} });
  });
});

describe('backups', () => {
  it('creates a backup with the name given', async () => {
    const res = await sameInEvery((enc) => send('POST', '/api/backups', { name: `enc_${enc}.zip` }, enc, FIXTURE_ADMIN_TOKEN));
    expect(res.json.status).toBe(204);
    const list = await http(srv.url, 'GET', '/api/backups', { token: FIXTURE_ADMIN_TOKEN });
    expect(list.body.map((b: { key: string }) => b.key).sort()).toEqual(expect.arrayContaining(['enc_json.zip', 'enc_multipart.zip', 'enc_urlencoded.zip']));
    const invalid = await sameInEvery((enc) => send('POST', '/api/backups', { name: 'bad name!' }, enc, FIXTURE_ADMIN_TOKEN));
    expect(invalid.json.body.data.name).toBeDefined();
  });
});

describe('realtime', () => {
  it('subscribes in every encoding (one topic or several) and the events arrive', async () => {
    for (const enc of ENCODINGS) {
      for (const subscriptions of [['demo2'], ['demo2', 'demo2/llvuca81nly1qls']]) {
        const client = await connectSse(srv.url);
        sse.push(client);
        const res = await send('POST', '/api/realtime', { clientId: client.clientId, subscriptions }, enc);
        expect(res.status, enc).toBe(204);
        const title = `rt-${enc}-${subscriptions.length}`;
        const created = await http(srv.url, 'POST', '/api/collections/demo2/records', { body: { title } });
        expect(created.status).toBe(200);
        const frame = await client.next((f) => f.event === 'demo2' && f.data?.record?.title === title);
        expect(frame.data.action).toBe('create');
      }
    }
    const missing = await sameInEvery((enc) => send('POST', '/api/realtime', { subscriptions: ['demo2'] }, enc));
    expect(missing.json.body.data.clientId.code).toBe('validation_required');
  });
});

describe('records (their own multipart path stays)', () => {
  it('creates with JSON and multipart; url-encoded is refused as in 0.22', async () => {
    const json = await send('POST', '/api/collections/demo2/records', { title: 'rec-json', active: true }, 'json');
    const multipart = await send('POST', '/api/collections/demo2/records', { title: 'rec-multipart', active: true }, 'multipart');
    expect([json.status, multipart.status]).toEqual([200, 200]);
    expect(multipart.body.active).toBe(true);
    const urlencoded = await send('POST', '/api/collections/demo2/records', { title: 'rec-urlencoded' }, 'urlencoded');
    expect(urlencoded).toEqual({ status: 400, body: { code: 400, message: INVALID_FORMAT, data: {} } });
  });

  it('records-by-ids and records-import (Outpost-only) take forms too', async () => {
    const ids = ['llvuca81nly1qls', 'achvryl401bhse3'];
    const byIds = await sameInEvery((enc) => send('POST', '/api/collections/demo2/records-by-ids', { ids }, enc, FIXTURE_ADMIN_TOKEN));
    expect(byIds.json.body.items.map((r: { id: string }) => r.id)).toEqual(ids);
    const imported = await sameInEvery(
      (enc) => send('POST', '/api/collections/demo2/records-import', { items: [{ data: { title: `imp-${enc}` } }] }, enc, FIXTURE_ADMIN_TOKEN),
      (b) => b.items.map((i: { status: number }) => i.status),
    );
    expect(imported.json.body.items[0].status).toBe(200);
  });
});
