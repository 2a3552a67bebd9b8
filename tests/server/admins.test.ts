// /api/admins over HTTP against the real server on a fresh data dir.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientResponseError } from 'pocketbase';
import { http, startServer, type TestServer } from '../helpers/server';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { newRecordAuthToken } from '../../server/services/tokens';
import { getLogWriter } from '../../server/services/request-log';

const FIRST = { email: 'first@example.com', password: 'first-password-1' };

let srv: TestServer;
let smtp: TestSmtp;
let adminToken: string;

async function signIn(identity: string, password: string) {
  return http(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity, password } });
}

async function createAdmin(body: Record<string, unknown>, token = adminToken) {
  return http(srv.url, 'POST', '/api/admins', { body, token });
}

beforeAll(async () => {
  srv = await startServer();
  smtp = await startSmtp();
});

afterAll(async () => {
  await srv?.close();
  await smtp?.close();
});

describe('installer rule', () => {
  it('lets a guest create the first admin, then only admins', async () => {
    expect((await http(srv.url, 'GET', '/api/admins')).status).toBe(401);

    const created = await http(srv.url, 'POST', '/api/admins', {
      body: { ...FIRST, passwordConfirm: FIRST.password, avatar: 4 },
    });
    expect(created.status).toBe(200);
    expect(Object.keys(created.body)).toEqual(['id', 'created', 'updated', 'avatar', 'email']);
    expect(created.body).toMatchObject({ email: FIRST.email, avatar: 4 });
    expect(created.body.id).toMatch(/^[a-z0-9]{15}$/);
    expect(created.body.created).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z$/);

    const second = await http(srv.url, 'POST', '/api/admins', {
      body: { email: 'intruder@example.com', password: 'intruder-pass', passwordConfirm: 'intruder-pass' },
    });
    expect(second.status).toBe(401);
    expect(second.body).toEqual({ code: 401, message: 'The request requires valid admin authorization token to be set.', data: {} });
  });
});

describe('sign in', () => {
  it('signs in with the SDK and refreshes the token', async () => {
    const pb = srv.client();
    const auth = await pb.admins.authWithPassword(FIRST.email, FIRST.password);
    expect(auth.token.split('.')).toHaveLength(3);
    expect(auth.admin.email).toBe(FIRST.email);
    adminToken = auth.token;

    const payload = JSON.parse(Buffer.from(auth.token.split('.')[1], 'base64url').toString());
    expect(payload).toMatchObject({ id: auth.admin.id, type: 'admin' });
    expect(payload.exp - Date.now() / 1000).toBeGreaterThan(1209600 - 60);

    const refreshed = await pb.admins.authRefresh();
    expect(refreshed.admin.id).toBe(auth.admin.id);
    expect(refreshed.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const raw = await http(srv.url, 'POST', '/api/admins/auth-refresh', { token: `Bearer ${adminToken}` });
    expect(Object.keys(raw.body)).toEqual(['token', 'admin']);
  });

  it('answers a wrong password or unknown email with 400 Failed to authenticate.', async () => {
    for (const [identity, password] of [
      [FIRST.email, 'wrong-password'],
      ['nobody@example.com', FIRST.password],
    ]) {
      const res = await signIn(identity, password);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 400, message: 'Failed to authenticate.', data: {} });
    }
    const sdk = await srv.client().admins.authWithPassword(FIRST.email, 'nope').catch((e) => e);
    expect(sdk).toBeInstanceOf(ClientResponseError);
    expect(sdk.status).toBe(400);
  });

  it('reports missing fields as field errors', async () => {
    const res = await http(srv.url, 'POST', '/api/admins/auth-with-password', { raw: '' });
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual({
      identity: { code: 'validation_required', message: 'Cannot be blank.' },
      password: { code: 'validation_required', message: 'Cannot be blank.' },
    });
  });

  it("takes a password up to 0.22's 255 characters at sign-in (the sign-in form's own file), no longer", async () => {
    const long = await signIn(FIRST.email, 'x'.repeat(255));
    expect(long.body).toEqual({ code: 400, message: 'Failed to authenticate.', data: {} });
    const tooLong = await signIn(FIRST.email, 'x'.repeat(256));
    expect(tooLong.body.data).toEqual({ password: { code: 'validation_length_out_of_range', message: 'The length must be between 1 and 255.' } });
    const notEmail = await signIn('admin', 'x');
    expect(notEmail.body.data).toEqual({ identity: { code: 'validation_is_email', message: 'Must be a valid email address.' } });
  });

  it('refuses auth-refresh without an admin token', async () => {
    expect((await http(srv.url, 'POST', '/api/admins/auth-refresh')).status).toBe(401);
  });
});

describe('admin CRUD', () => {
  let secondId = '';

  it('validates create with 0.22 field error codes', async () => {
    const res = await createAdmin({ email: FIRST.email, password: '1234', passwordConfirm: '4321', avatar: 99 });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Something went wrong while processing your request.');
    expect(res.body.data).toEqual({
      avatar: { code: 'validation_max_less_equal_than_required', message: 'Must be no greater than 9.' },
      email: { code: 'validation_admin_email_exists', message: 'Admin email already exists.' },
      password: { code: 'validation_length_out_of_range', message: 'The length must be between 10 and 72.' },
      passwordConfirm: { code: 'validation_values_mismatch', message: "Values don't match." },
    });

    const empty = await createAdmin({});
    expect(Object.keys(empty.body.data)).toEqual(['email', 'password']);

    const badEmail = await createAdmin({ email: 'not-an-email', password: '1234567890', passwordConfirm: '1234567890' });
    expect(badEmail.body.data.email.code).toBe('validation_is_email');

    const badId = await createAdmin({ id: 'short', email: 'x@example.com', password: '1234567890', passwordConfirm: '1234567890' });
    expect(badId.body.data.id.code).toBe('validation_length_invalid');
  });

  it('creates, views, updates and deletes an admin', async () => {
    const created = await createAdmin({
      id: 'customadmin0001',
      email: 'second@example.com',
      password: 'second-password',
      passwordConfirm: 'second-password',
      avatar: 2,
    });
    expect(created.status).toBe(200);
    expect(created.body.id).toBe('customadmin0001');
    expect(JSON.stringify(created.body)).not.toMatch(/password|tokenKey/);
    secondId = created.body.id;

    const view = await http(srv.url, 'GET', `/api/admins/${secondId}`, { token: adminToken });
    expect(view.status).toBe(200);
    expect(view.body).toEqual(created.body);

    expect((await http(srv.url, 'GET', '/api/admins/missing', { token: adminToken })).status).toBe(404);

    const dupId = await createAdmin({ id: secondId, email: 'third@example.com', password: '1234567890', passwordConfirm: '1234567890' });
    expect(dupId.body.data.id.code).toBe('validation_invalid_id');

    const patched = await http(srv.url, 'PATCH', `/api/admins/${secondId}`, { token: adminToken, body: { avatar: 7 } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: secondId, email: 'second@example.com', avatar: 7 });

    const badPatch = await http(srv.url, 'PATCH', `/api/admins/${secondId}`, {
      token: adminToken,
      body: { email: FIRST.email, password: 'short', avatar: -1 },
    });
    expect(badPatch.status).toBe(400);
    expect(Object.keys(badPatch.body.data)).toEqual(['avatar', 'email', 'password', 'passwordConfirm']);
    expect(badPatch.body.data.passwordConfirm.code).toBe('validation_required');

    const deleted = await http(srv.url, 'DELETE', `/api/admins/${secondId}`, { token: adminToken });
    expect(deleted.status).toBe(204);
    expect((await http(srv.url, 'GET', `/api/admins/${secondId}`, { token: adminToken })).status).toBe(404);
  });

  it('refuses to delete the only admin', async () => {
    const me = await http(srv.url, 'POST', '/api/admins/auth-refresh', { token: adminToken });
    const res = await http(srv.url, 'DELETE', `/api/admins/${me.body.admin.id}`, { token: adminToken });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 400, message: 'Failed to delete admin.', data: {} });
  });
});

describe('admins list', () => {
  beforeAll(async () => {
    for (const name of ['alpha', 'bravo', 'charlie']) {
      const res = await createAdmin({ email: `${name}@list.example.com`, password: '1234567890', passwordConfirm: '1234567890' });
      expect(res.status).toBe(200);
    }
  });

  it('pages, filters and sorts', async () => {
    const all = await http(srv.url, 'GET', '/api/admins', { token: adminToken });
    expect(Object.keys(all.body)).toEqual(['page', 'perPage', 'totalItems', 'totalPages', 'items']);
    expect(all.body).toMatchObject({ page: 1, perPage: 30, totalItems: 4, totalPages: 1 });

    const filtered = await http(srv.url, 'GET', `/api/admins?filter=${encodeURIComponent("email~'list.example'")}&sort=-email`, {
      token: adminToken,
    });
    expect(filtered.status).toBe(200);
    expect(filtered.body.items.map((a: { email: string }) => a.email)).toEqual([
      'charlie@list.example.com',
      'bravo@list.example.com',
      'alpha@list.example.com',
    ]);

    const paged = await http(srv.url, 'GET', '/api/admins?page=2&perPage=1&sort=email&skipTotal=1', { token: adminToken });
    expect(paged.body).toMatchObject({ page: 2, perPage: 1, totalItems: -1, totalPages: -1 });
    expect(paged.body.items[0].email).toBe('bravo@list.example.com');

    const sdkList = await (async () => {
      const pb = srv.client();
      pb.authStore.save(adminToken, null);
      return pb.admins.getFullList({ sort: '-created', filter: "email ~ 'alpha'" });
    })();
    expect(sdkList.map((a) => a.email)).toEqual(['alpha@list.example.com']);

    const bad = await http(srv.url, 'GET', `/api/admins?filter=${encodeURIComponent("passwordHash != ''")}`, { token: adminToken });
    expect(bad.status).toBe(400);
    expect(bad.body.data).toEqual({});
  });
});

describe('admin-only routes', () => {
  it('answer 401 to guests and to auth record tokens', async () => {
    const db = srv.app.db;
    db.prepare(
      "INSERT INTO users (id, username, email, tokenKey, passwordHash, created, updated) VALUES ('userrecord00001', 'someone', 'user@example.com', 'userTokenKeyuserTokenKeyuserTokenKeyuserTokenKey12', 'x', '', '')",
    ).run();
    const userToken = newRecordAuthToken(srv.app.ctx.settings.get(), {
      id: 'userrecord00001',
      tokenKey: 'userTokenKeyuserTokenKeyuserTokenKeyuserTokenKey12',
      collectionId: '_pb_users_auth_',
    });
    const routes: Array<[string, string]> = [
      ['GET', '/api/admins'],
      ['GET', '/api/admins/whatever'],
      ['PATCH', '/api/admins/whatever'],
      ['DELETE', '/api/admins/whatever'],
      ['POST', '/api/admins'],
      ['POST', '/api/admins/auth-refresh'],
      ['GET', '/api/settings'],
    ];
    for (const [method, path] of routes) {
      for (const token of [undefined, userToken]) {
        const res = await http(srv.url, method, path, { token, body: method === 'GET' ? undefined : {} });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(res.body.message).toBe('The request requires valid admin authorization token to be set.');
      }
    }
  });
});

describe('password change', () => {
  it('renews the tokenKey so earlier tokens stop working', async () => {
    const created = await createAdmin({ email: 'changer@example.com', password: 'changer-pass-1', passwordConfirm: 'changer-pass-1' });
    const old = (await signIn('changer@example.com', 'changer-pass-1')).body.token;
    expect((await http(srv.url, 'GET', '/api/admins', { token: old })).status).toBe(200);

    const patched = await http(srv.url, 'PATCH', `/api/admins/${created.body.id}`, {
      token: old,
      body: { password: 'changer-pass-2', passwordConfirm: 'changer-pass-2' },
    });
    expect(patched.status).toBe(200);
    expect((await http(srv.url, 'GET', '/api/admins', { token: old })).status).toBe(401);
    expect((await signIn('changer@example.com', 'changer-pass-1')).status).toBe(400);
    expect((await signIn('changer@example.com', 'changer-pass-2')).status).toBe(200);
  });
});

describe('failed sign-in rate limit', () => {
  it('answers 429 after 5 failures for that identity, and never limits successes', async () => {
    const identity = 'alpha@list.example.com';
    for (let i = 0; i < 5; i++) expect((await signIn(identity, `wrong-${i}`)).status).toBe(400);
    const limited = await signIn(identity, '1234567890');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 429, data: {} });
    expect(typeof limited.body.message).toBe('string');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    // Another identity from the same IP is unaffected, and repeated successes are never limited.
    for (let i = 0; i < 7; i++) expect((await signIn('bravo@list.example.com', '1234567890')).status).toBe(200);
  });
});

describe('password reset by mail', () => {
  it('with SMTP off answers 204 and says in the logs that the mail could not be sent', async () => {
    const res = await http(srv.url, 'POST', '/api/admins/request-password-reset', { body: { email: FIRST.email } });
    expect(res.status).toBe(204);
    // the mail is sent off the request path; wait for the failure, then flush the log batch
    let entry: any;
    for (let i = 0; i < 50 && !entry; i++) {
      await new Promise((r) => setTimeout(r, 50));
      getLogWriter(srv.app.ctx)?.flush();
      const list = await http(srv.url, 'GET', `/api/logs?filter=${encodeURIComponent("data.type = 'mail'")}`, { token: adminToken });
      entry = list.body.items?.[0];
    }
    expect(entry).toBeDefined();
    expect(entry.level).toBe(8);
    expect(entry.message).toBe('Failed to send admin password reset email');
    expect(entry.data.error).toMatch(/SMTP/i);
  });

  it('mails a reset link whose token sets a new password', async () => {
    const settings = await http(srv.url, 'PATCH', '/api/settings', {
      token: adminToken,
      body: { meta: { appUrl: 'http://outpost.test' }, smtp: { enabled: true, host: '127.0.0.1', port: smtp.port, tls: false } },
    });
    expect(settings.status).toBe(200);

    const email = 'charlie@list.example.com';
    expect((await http(srv.url, 'POST', '/api/admins/request-password-reset', { body: { email } })).status).toBe(204);
    // Unknown emails get the same answer (no enumeration); malformed ones are 400.
    expect((await http(srv.url, 'POST', '/api/admins/request-password-reset', { body: { email: 'ghost@example.com' } })).status).toBe(204);
    const bad = await http(srv.url, 'POST', '/api/admins/request-password-reset', { body: { email: 'nope' } });
    expect(bad.status).toBe(400);
    expect(bad.body.data.email.code).toBe('validation_is_email');
    // 0.22's is.EmailFormat wants a dotted domain; the file says why, in 0.22's words
    const undotted = await http(srv.url, 'POST', '/api/admins/request-password-reset', { body: { email: 'admin@localhost' } });
    expect(undotted.body).toEqual({
      code: 400,
      message: 'An error occurred while validating the form.',
      data: { email: { code: 'validation_is_email', message: 'Must be a valid email address.' } },
    });
    const long = await http(srv.url, 'POST', '/api/admins/request-password-reset', { body: { email: `${'a'.repeat(250)}@example.com` } });
    expect(long.body.data).toEqual({ email: { code: 'validation_length_out_of_range', message: 'The length must be between 1 and 255.' } });

    const mail = await smtp.waitFor((m) => m.to.includes(email));
    expect(mail.subject).toBe('Reset admin password');
    const link = /href="(http:\/\/outpost\.test\/_\/#\/confirm-password-reset\/([\w-]+\.[\w-]+\.[\w-]+))"/.exec(mail.html);
    expect(link, mail.html).not.toBeNull();
    const token = link![2];
    expect(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString())).toMatchObject({ type: 'admin', email });

    const mismatch = await http(srv.url, 'POST', '/api/admins/confirm-password-reset', {
      body: { token, password: 'brand-new-pass', passwordConfirm: 'other-pass-123' },
    });
    expect(mismatch.body.data.passwordConfirm.code).toBe('validation_values_mismatch');

    const confirmed = await http(srv.url, 'POST', '/api/admins/confirm-password-reset', {
      body: { token, password: 'brand-new-pass', passwordConfirm: 'brand-new-pass' },
    });
    expect(confirmed.status).toBe(204);
    expect((await signIn(email, '1234567890')).status).toBe(400);
    expect((await signIn(email, 'brand-new-pass')).status).toBe(200);

    // The token died with the old tokenKey.
    const reused = await http(srv.url, 'POST', '/api/admins/confirm-password-reset', {
      body: { token, password: 'another-pass-1', passwordConfirm: 'another-pass-1' },
    });
    expect(reused.status).toBe(400);
    expect(reused.body.data.token).toEqual({ code: 'validation_invalid_token', message: 'Invalid or expired token.' });
  });
});
