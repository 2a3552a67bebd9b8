// Record auth over HTTP on a copy of the PocketBase 0.22.12 fixture: its accounts, its
// collections' auth options, its pre-signed tokens (valid until 2039, and deliberately expired
// ones) and its external auths, with the mails read from a real SMTP server on loopback.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ClientResponseError } from 'pocketbase';
import { FIXTURE_PASSWORD, http, startServer, type TestServer } from '../helpers/server';
import { startSmtp, type TestSmtp } from '../helpers/smtp';

// Literal tokens of PocketBase's own API tests (HS256, valid for this fixture until 2039-12-31
// unless said otherwise).
const T = {
  admin:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6InN5d2JoZWNuaDQ2cmhtMCIsInR5cGUiOiJhZG1pbiIsImV4cCI6MjIwODk4NTI2MX0.M1m--VOqGyv0d23eeUc0r9xE8ZzHaYVmVFw1VZW6gT8',
  user1:
    'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6IjRxMXhsY2xtZmxva3UzMyIsInR5cGUiOiJhdXRoUmVjb3JkIiwiY29sbGVjdGlvbklkIjoiX3BiX3VzZXJzX2F1dGhfIiwiZXhwIjoyMjA4OTg1MjYxfQ.UwD8JvkbQtXpymT09d7J6fdA0aP9g4FJ1GPh_ggEkzc',
  user2:
    'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6Im9hcDY0MGNvdDR5cnUycyIsInR5cGUiOiJhdXRoUmVjb3JkIiwiY29sbGVjdGlvbklkIjoiX3BiX3VzZXJzX2F1dGhfIiwiZXhwIjoyMjA4OTg1MjYxfQ.uatnTBFqMnF0p4FkmwEpA9R-uGFu0Putwyk6NJCKBno',
  clientUnverified:
    'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6Im8xeTBkZDBzcGQ3ODZtZCIsInR5cGUiOiJhdXRoUmVjb3JkIiwiY29sbGVjdGlvbklkIjoidjg1MXE0cjc5MHJoa25sIiwiZXhwIjoyMjA4OTg1MjYxfQ.-JYlrz5DcGzvb0nYx-xqnSFMu9dupyKY7Vg_FUm0OaM',
  clientVerified:
    'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6ImdrMzkwcWVnczR5NDd3biIsInR5cGUiOiJhdXRoUmVjb3JkIiwiY29sbGVjdGlvbklkIjoidjg1MXE0cjc5MHJoa25sIiwiZXhwIjoyMjA4OTg1MjYxfQ.q34IWXrRWsjLvbbVNRfAs_J4SoTHloNBfdGEiLmy-D8',
  resetUser1:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6IjRxMXhsY2xtZmxva3UzMyIsImVtYWlsIjoidGVzdEBleGFtcGxlLmNvbSIsImNvbGxlY3Rpb25JZCI6Il9wYl91c2Vyc19hdXRoXyIsInR5cGUiOiJhdXRoUmVjb3JkIiwiZXhwIjoyMjA4OTg1MjYxfQ.R_4FOSUHIuJQ5Crl3PpIPCXMsoHzuTaNlccpXg_3FOg',
  resetUser1Expired:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6IjRxMXhsY2xtZmxva3UzMyIsImVtYWlsIjoidGVzdEBleGFtcGxlLmNvbSIsImNvbGxlY3Rpb25JZCI6Il9wYl91c2Vyc19hdXRoXyIsInR5cGUiOiJhdXRoUmVjb3JkIiwiZXhwIjoxNjQwOTkxNjYxfQ.TayHoXkOTM0w8InkBEb86npMJEaf6YVUrxrRmMgFjeY',
  verifyUser1:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6IjRxMXhsY2xtZmxva3UzMyIsImVtYWlsIjoidGVzdEBleGFtcGxlLmNvbSIsImNvbGxlY3Rpb25JZCI6Il9wYl91c2Vyc19hdXRoXyIsInR5cGUiOiJhdXRoUmVjb3JkIiwiZXhwIjoyMjA4OTg1MjYxfQ.hL16TVmStHFdHLc4a860bRqJ3sFfzjv0_NRNzwsvsrc',
  verifyUser1Expired:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6IjRxMXhsY2xtZmxva3UzMyIsImVtYWlsIjoidGVzdEBleGFtcGxlLmNvbSIsImNvbGxlY3Rpb25JZCI6Il9wYl91c2Vyc19hdXRoXyIsInR5cGUiOiJhdXRoUmVjb3JkIiwiZXhwIjoxNjQwOTkxNjYxfQ.Avbt9IP8sBisVz_2AGrlxLDvangVq4PhL2zqQVYLKlE',
  verifyUser2:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6Im9hcDY0MGNvdDR5cnUycyIsImVtYWlsIjoidGVzdDJAZXhhbXBsZS5jb20iLCJjb2xsZWN0aW9uSWQiOiJfcGJfdXNlcnNfYXV0aF8iLCJ0eXBlIjoiYXV0aFJlY29yZCIsImV4cCI6MjIwODk4NTI2MX0.PsOABmYUzGbd088g8iIBL4-pf7DUZm0W5Ju6lL5JVRg',
  verifyNologin:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6ImRjNDlrNmpnZWpuNDBoMyIsImVtYWlsIjoidGVzdEBleGFtcGxlLmNvbSIsImNvbGxlY3Rpb25JZCI6ImtwdjcwOXNrMmxxYnFrOCIsInR5cGUiOiJhdXRoUmVjb3JkIiwiZXhwIjoyMjA4OTg1MjYxfQ.coREjeTDS3_Go7DP1nxHtevIX5rujwHU-_mRB6oOm3w',
  emailChangeUser1:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6IjRxMXhsY2xtZmxva3UzMyIsImNvbGxlY3Rpb25JZCI6Il9wYl91c2Vyc19hdXRoXyIsInR5cGUiOiJhdXRoUmVjb3JkIiwiZW1haWwiOiJ0ZXN0QGV4YW1wbGUuY29tIiwibmV3RW1haWwiOiJjaGFuZ2VAZXhhbXBsZS5jb20iLCJleHAiOjIyMDg5ODUyNjF9.1sG6cL708pRXXjiHRZhG-in0X5fnttSf5nNcadKoYRs',
  emailChangeUser1Expired:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6IjRxMXhsY2xtZmxva3UzMyIsImNvbGxlY3Rpb25JZCI6Il9wYl91c2Vyc19hdXRoXyIsInR5cGUiOiJhdXRoUmVjb3JkIiwiZW1haWwiOiJ0ZXN0QGV4YW1wbGUuY29tIiwibmV3RW1haWwiOiJjaGFuZ2VAZXhhbXBsZS5jb20iLCJleHAiOjE2NDA5OTE2NjF9.D20jh5Ss7SZyXRUXjjEyLCYo9Ky0N5cE5dKB_MGJ8G8',
};

const USER1 = '4q1xlclmfloku33';
const USER2 = 'oap640cot4yru2s';
const EMPTY = { code: 400, message: 'Failed to authenticate.', data: {} };

let srv: TestServer;
let smtp: TestSmtp;

const post = (p: string, body?: unknown, token?: string) => http(srv.url, 'POST', p, { body, token });
const get = (p: string, token?: string) => http(srv.url, 'GET', p, { token });
const row = (table: string, id: string) =>
  srv.app.ctx.db.prepare(`SELECT * FROM "${table}" WHERE id = ?`).get(id) as Record<string, unknown>;
const externalAuthCount = (recordId: string) =>
  (srv.app.ctx.db.prepare('SELECT count(*) AS n FROM _externalAuths WHERE recordId = ?').get(recordId) as { n: number }).n;

/** Restores a users row changed by a flow (the fixture state other tests rely on). */
function restoreUser1(snapshot: Record<string, unknown>) {
  const cols = Object.keys(snapshot).filter((k) => k !== 'id');
  srv.app.ctx.db
    .prepare(`UPDATE users SET ${cols.map((c) => `"${c}" = @${c}`).join(', ')} WHERE id = @id`)
    .run(snapshot);
}

beforeAll(async () => {
  srv = await startServer({ fixture: true });
  smtp = await startSmtp();
  const settings = srv.app.ctx.settings;
  settings.save({ ...settings.get(), smtp: { ...settings.get().smtp, enabled: true, host: '127.0.0.1', port: smtp.port, tls: false } });
});

afterAll(async () => {
  await srv?.close();
  await smtp?.close();
});

describe('auth-methods', () => {
  it('lists the methods and the enabled OAuth2 provider (gitlab) with a PKCE pair', async () => {
    const res = await get('/api/collections/users/auth-methods');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['authProviders', 'usernamePassword', 'emailPassword', 'onlyVerified']);
    expect(res.body).toMatchObject({ usernamePassword: true, emailPassword: true, onlyVerified: false });
    expect(res.body.authProviders).toHaveLength(1);
    const gitlab = res.body.authProviders[0];
    expect(Object.keys(gitlab)).toEqual(['name', 'displayName', 'state', 'authUrl', 'codeVerifier', 'codeChallenge', 'codeChallengeMethod']);
    expect(gitlab).toMatchObject({ name: 'gitlab', displayName: 'GitLab', codeChallengeMethod: 'S256' });
    expect(gitlab.state).toMatch(/^[A-Za-z0-9]{30}$/);
    expect(gitlab.codeVerifier).toMatch(/^[A-Za-z0-9]{43}$/);
    const { createHash } = await import('node:crypto');
    expect(gitlab.codeChallenge).toBe(createHash('sha256').update(gitlab.codeVerifier).digest('base64url'));
    // the fixture's custom authUrl, query keys sorted, redirect_uri last and empty
    expect(gitlab.authUrl).toBe(
      `https://example.com?client_id=test_id&code_challenge=${gitlab.codeChallenge}&code_challenge_method=S256&response_type=code&scope=read_user&state=${gitlab.state}&redirect_uri=`,
    );

    const sdk = await srv.client().collection('users').listAuthMethods();
    expect(sdk.authProviders[0].name).toBe('gitlab');
  });

  it('clients: email only, onlyVerified, no providers; nologin: nothing', async () => {
    expect((await get('/api/collections/clients/auth-methods')).body).toEqual({
      authProviders: [],
      usernamePassword: false,
      emailPassword: true,
      onlyVerified: true,
    });
    expect((await get('/api/collections/nologin/auth-methods')).body).toMatchObject({ usernamePassword: false, emailPassword: false });
  });

  it('answers 404 for a missing collection and 400 for a non-auth one', async () => {
    expect((await get('/api/collections/missing/auth-methods')).body).toEqual({
      code: 404,
      message: "The requested resource wasn't found.",
      data: {},
    });
    expect((await get('/api/collections/demo1/auth-methods')).body).toEqual({ code: 400, message: 'Unsupported collection type.', data: {} });
    expect((await get('/api/collections/view1/auth-methods')).status).toBe(400);
    // names are case-insensitive, ids work too
    expect((await get('/api/collections/USERS/auth-methods')).status).toBe(200);
    expect((await get('/api/collections/_pb_users_auth_/auth-methods')).status).toBe(200);
  });
});

describe('auth-with-password', () => {
  it('signs in by email (unverified users allowed) and returns {record, token}', async () => {
    const res = await post('/api/collections/users/auth-with-password', { identity: 'test@example.com', password: FIXTURE_PASSWORD });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['record', 'token']);
    const record = res.body.record;
    expect(Object.keys(record)).toEqual([...Object.keys(record)].sort());
    expect(record).toMatchObject({
      id: USER1,
      collectionId: '_pb_users_auth_',
      collectionName: 'users',
      email: 'test@example.com',
      emailVisibility: false,
      verified: false,
      username: 'users75657',
      name: 'test1',
      avatar: '300_1SEi6Q6U72.png',
      file: [],
      rel: 'llvuca81nly1qls',
    });
    expect(JSON.stringify(record)).not.toMatch(/passwordHash|tokenKey|lastResetSentAt/);
    const claims = JSON.parse(Buffer.from(res.body.token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ id: USER1, type: 'authRecord', collectionId: '_pb_users_auth_' });
    expect(claims.exp - Date.now() / 1000).toBeGreaterThan(1209600 - 60);

    // the token works as an Authorization header
    const refreshed = await post('/api/collections/users/auth-refresh', undefined, res.body.token);
    expect(refreshed.status).toBe(200);
  });

  it('signs in by username, case-insensitively, through the SDK', async () => {
    const pb = srv.client();
    const auth = await pb.collection('users').authWithPassword('TEST2_Username', FIXTURE_PASSWORD);
    expect(auth.record.id).toBe(USER2);
    expect(auth.record.email).toBe('test2@example.com');
    expect(pb.authStore.isValid).toBe(true);
    const again = await pb.collection('users').authRefresh();
    expect(again.record.id).toBe(USER2);
  });

  it('looks emails up case-sensitively and never as usernames', async () => {
    expect((await post('/api/collections/users/auth-with-password', { identity: 'TEST@example.com', password: FIXTURE_PASSWORD })).body).toEqual(EMPTY);
    // a username that happens to look like an email is not tried as a username
    expect((await post('/api/collections/users/auth-with-password', { identity: 'users75657@x.io', password: FIXTURE_PASSWORD })).status).toBe(400);
  });

  it('answers every failure with 400 Failed to authenticate. and data {}', async () => {
    for (const [coll, identity, password] of [
      ['users', 'invalid', FIXTURE_PASSWORD],
      ['users', 'test2_username', 'invalid'],
      ['users', 'missing@example.com', FIXTURE_PASSWORD],
      ['nologin', 'test_username', FIXTURE_PASSWORD], // password auth off
      ['nologin', 'test@example.com', FIXTURE_PASSWORD],
      ['clients', 'test_username', FIXTURE_PASSWORD], // username auth off
    ]) {
      const res = await post(`/api/collections/${coll}/auth-with-password`, { identity, password });
      expect(res.status, `${coll} ${identity}`).toBe(400);
      expect(res.body).toEqual(EMPTY);
    }
  });

  it('onlyVerified: 403 after the password checked out, 200 for the verified client', async () => {
    const unverified = await post('/api/collections/clients/auth-with-password', { identity: 'test2@example.com', password: FIXTURE_PASSWORD });
    expect(unverified.status).toBe(403);
    expect(unverified.body).toEqual({ code: 403, message: 'Please verify your email first.', data: {} });
    // a wrong password stays a plain 400
    expect((await post('/api/collections/clients/auth-with-password', { identity: 'test2@example.com', password: 'nope-nope' })).status).toBe(400);

    const verified = await post('/api/collections/clients/auth-with-password', { identity: 'test@example.com', password: FIXTURE_PASSWORD });
    expect(verified.status).toBe(200);
    expect(verified.body.record).toMatchObject({ id: 'gk390qegs4y47wn', verified: true, email: 'test@example.com' });
  });

  it('reports blank fields and bad bodies as 0.22 does', async () => {
    const blank = await post('/api/collections/users/auth-with-password', { identity: '', password: '' });
    expect(blank.status).toBe(400);
    expect(Object.keys(blank.body.data)).toEqual(['identity', 'password']);
    expect(blank.body.data.identity.code).toBe('validation_required');

    const bad = await http(srv.url, 'POST', '/api/collections/users/auth-with-password', { raw: '{"identity' });
    expect(bad.status).toBe(400);
    expect(bad.body.data).toEqual({});
    const wrongType = await post('/api/collections/users/auth-with-password', { identity: 1, password: [] });
    expect(wrongType.body).toEqual({ code: 400, message: 'An error occurred while loading the submitted data.', data: {} });
    expect((await post('/api/collections/demo1/auth-with-password', { identity: 'x', password: 'y' })).body.message).toBe(
      'Unsupported collection type.',
    );
  });

  it('is not confused by an Authorization header (admin or record)', async () => {
    for (const token of [T.admin, T.user2]) {
      const res = await post('/api/collections/users/auth-with-password', { identity: 'test@example.com', password: FIXTURE_PASSWORD }, token);
      expect(res.status).toBe(200);
      expect(res.body.record.id).toBe(USER1);
    }
  });

  it('applies ?fields= to the auth response', async () => {
    const res = await http(srv.url, 'POST', '/api/collections/users/auth-with-password?fields=token,record.id', {
      body: { identity: 'test@example.com', password: FIXTURE_PASSWORD },
    });
    expect(Object.keys(res.body)).toEqual(['record', 'token']);
    expect(res.body.record).toEqual({ id: USER1 });
  });
});

describe('auth-refresh', () => {
  it('needs a record token of the same collection', async () => {
    expect((await post('/api/collections/users/auth-refresh')).status).toBe(401);
    expect((await post('/api/collections/users/auth-refresh', undefined, T.admin)).status).toBe(401);
    expect((await post('/api/collections/demo1/auth-refresh', undefined, T.user1)).status).toBe(400);
    const other = await post('/api/collections/clients/auth-refresh', undefined, T.user1);
    expect(other.status).toBe(403);
    expect(other.body.data).toEqual({});
  });

  it('returns a fresh token and the record with its own hidden email', async () => {
    const res = await post('/api/collections/users/auth-refresh', undefined, T.user1);
    expect(res.status).toBe(200);
    expect(res.body.record).toMatchObject({ id: USER1, emailVisibility: false, email: 'test@example.com' });
    expect(res.body.token).not.toBe(T.user1);
  });

  it('expands relations as the record itself may see them (?expand=)', async () => {
    const res = await http(srv.url, 'POST', '/api/collections/users/auth-refresh?expand=rel,missing', { token: T.user1 });
    expect(res.status).toBe(200);
    expect(res.body.record.expand).toEqual({ rel: expect.objectContaining({ id: 'llvuca81nly1qls', collectionName: 'demo2' }) });
    expect(JSON.stringify(res.body)).not.toContain('"missing"');
    const signIn = await http(srv.url, 'POST', '/api/collections/users/auth-with-password?expand=rel', {
      body: { identity: 'test@example.com', password: FIXTURE_PASSWORD },
    });
    expect(signIn.body.record.expand.rel.id).toBe('llvuca81nly1qls');
  });

  it('onlyVerified applies to refresh too', async () => {
    expect((await post('/api/collections/clients/auth-refresh', undefined, T.clientUnverified)).status).toBe(403);
    const ok = await post('/api/collections/clients/auth-refresh', undefined, T.clientVerified);
    expect(ok.status).toBe(200);
    expect(ok.body.record).toMatchObject({ id: 'gk390qegs4y47wn', verified: true });
  });
});

describe('auth-with-oauth2', () => {
  it('checks the collection and the form first (the exchange itself: oauth2-oidc.test.ts)', async () => {
    const off = await post('/api/collections/clients/auth-with-oauth2', { provider: 'gitlab', code: 'x', redirectUrl: 'http://x' });
    expect(off.body).toEqual({ code: 400, message: 'The collection is not configured to allow OAuth2 authentication.', data: {} });
    const invalid = await post('/api/collections/users/auth-with-oauth2', { provider: 'github', code: '', redirectUrl: '' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.data.provider.code).toBe('validation_invalid_provider');
    expect(Object.keys(invalid.body.data)).toEqual(['code', 'provider', 'redirectUrl']);
  });
});

describe('verification', () => {
  it('request-verification: 204 for any well-formed email, a mail only for unverified accounts', async () => {
    const before = smtp.mails.length;
    for (const email of ['missing@example.com', 'test2@example.com']) {
      expect((await post('/api/collections/users/request-verification', { email })).status).toBe(204);
    }
    expect((await post('/api/collections/users/request-verification', { email: 'test@example.com' })).status).toBe(204);
    const mail = await smtp.waitFor((m) => m.to.includes('test@example.com') && /Verify/.test(m.subject));
    expect(mail.subject).toBe('Verify your acme_test email');
    const token = /confirm-verification\/([\w.-]+)/.exec(mail.html)?.[1];
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(mail.html).toContain(`http://localhost:8090/_/#/auth/confirm-verification/${token}`);
    const claims = JSON.parse(Buffer.from(token!.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ id: USER1, email: 'test@example.com', collectionId: '_pb_users_auth_', type: 'authRecord' });
    // stamped once the mail is sent (0.22's order): the SMTP server may see the mail first
    await vi.waitFor(() => expect(row('users', USER1).lastVerificationSentAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z$/), { timeout: 5000 });

    // a second request within 2 minutes sends nothing more
    expect((await post('/api/collections/users/request-verification', { email: 'test@example.com' })).status).toBe(204);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails.length).toBe(before + 1);
    srv.app.ctx.db.prepare("UPDATE users SET lastVerificationSentAt = '' WHERE id = ?").run(USER1);
  });

  it('request-verification: missing or malformed email is 400', async () => {
    const blank = await http(srv.url, 'POST', '/api/collections/users/request-verification', { raw: '' });
    expect(blank.body).toEqual({
      code: 400,
      message: 'An error occurred while validating the form.',
      data: { email: { code: 'validation_required', message: 'Cannot be blank.' } },
    });
    expect((await post('/api/collections/users/request-verification', { email: 'nope' })).body.data.email.code).toBe('validation_is_email');
    expect((await post('/api/collections/demo1/request-verification', { email: 'a@b.co' })).status).toBe(400);
  });

  it('confirm-verification: checks the token, then verifies (and drops OAuth2 links made while unverified)', async () => {
    const snapshot = row('users', USER1);
    const expired = await post('/api/collections/users/confirm-verification', { token: T.verifyUser1Expired });
    expect(expired.body.data.token.code).toBe('validation_invalid_token');
    const mismatch = await post('/api/collections/clients/confirm-verification', { token: T.verifyUser1 });
    expect(mismatch.body.data.token.code).toBe('validation_token_collection_mismatch');
    const notAuth = await post('/api/collections/demo1/confirm-verification', { token: T.verifyUser1 });
    expect(notAuth.body).toEqual({ code: 400, message: 'Unsupported collection type.', data: {} });
    // a reset token is not a verification token
    expect((await post('/api/collections/users/confirm-verification', { token: T.resetUser1 })).body.data.token.code).toBe(
      'validation_invalid_token',
    );
    // an auth token has no email claim
    expect((await post('/api/collections/users/confirm-verification', { token: T.user1 })).body.data.token.code).toBe(
      'validation_invalid_token_claims',
    );

    expect(externalAuthCount(USER1)).toBe(2);
    expect((await post('/api/collections/users/confirm-verification', { token: T.verifyUser1 })).status).toBe(204);
    expect(row('users', USER1).verified).toBe(1);
    expect(externalAuthCount(USER1)).toBe(0);

    // already verified: still 204; the nologin collection may verify too
    expect((await post('/api/collections/users/confirm-verification', { token: T.verifyUser2 })).status).toBe(204);
    expect((await post('/api/collections/nologin/confirm-verification', { token: T.verifyNologin })).status).toBe(204);
    expect(row('nologin', 'dc49k6jgejn40h3').verified).toBe(1);

    restoreUser1(snapshot);
    srv.app.ctx.db.exec(`INSERT INTO _externalAuths (id, collectionId, recordId, provider, providerId, created, updated) VALUES
      ('clmflokuq1xl341', '_pb_users_auth_', '${USER1}', 'google', 'test123', '2022-01-01 01:01:01.123Z', '2022-01-01 01:01:01.123Z'),
      ('dlmflokuq1xl342', '_pb_users_auth_', '${USER1}', 'gitlab', 'test123', '2022-01-01 01:01:01.123Z', '2022-01-01 01:01:01.123Z')`);
  });
});

describe('password reset', () => {
  it('request-password-reset sends the mail; nologin (no password auth) is 400', async () => {
    const res = await post('/api/collections/users/request-password-reset', { email: 'test@example.com' });
    expect(res.status).toBe(204);
    const mail = await smtp.waitFor((m) => m.to.includes('test@example.com') && /Reset/.test(m.subject));
    expect(mail.subject).toBe('Reset your acme_test password');
    expect(mail.html).toMatch(/confirm-password-reset\/[\w.-]+/);
    expect((await post('/api/collections/users/request-password-reset', { email: 'missing@example.com' })).status).toBe(204);

    const nologin = await post('/api/collections/nologin/request-password-reset', { email: 'test@example.com' });
    expect(nologin.body).toEqual({ code: 400, message: 'The collection is not configured to allow password authentication.', data: {} });
    const blank = await post('/api/collections/users/request-password-reset', {});
    expect(blank.body.data).toEqual({ email: { code: 'validation_required', message: 'Cannot be blank.' } });
    srv.app.ctx.db.prepare("UPDATE users SET lastResetSentAt = '' WHERE id = ?").run(USER1);
  });

  it('confirm-password-reset validates like 0.22', async () => {
    const res = await post('/api/collections/users/confirm-password-reset', {
      token: T.resetUser1Expired,
      password: '1234567',
      passwordConfirm: '7654321',
    });
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual({
      password: { code: 'validation_length_out_of_range', message: 'The length must be between 8 and 100.' },
      passwordConfirm: { code: 'validation_values_mismatch', message: "Values don't match." },
      token: { code: 'validation_invalid_token', message: 'Invalid or expired token.' },
    });
    const empty = await http(srv.url, 'POST', '/api/collections/users/confirm-password-reset', { raw: '' });
    expect(Object.keys(empty.body.data)).toEqual(['password', 'passwordConfirm', 'token']);
    const other = await post('/api/collections/clients/confirm-password-reset', {
      token: T.resetUser1,
      password: '12345678',
      passwordConfirm: '12345678',
    });
    expect(other.body.data.token.code).toBe('validation_token_collection_mismatch');
    // 0.22's limit on this path is 100 characters; its bcrypt then refuses more than 72 bytes
    const tooLong = await post('/api/collections/users/confirm-password-reset', {
      token: T.resetUser1,
      password: 'x'.repeat(101),
      passwordConfirm: 'x'.repeat(101),
    });
    expect(tooLong.body.data.password).toEqual({ code: 'validation_length_out_of_range', message: 'The length must be between 8 and 100.' });
    const beyondBcrypt = await post('/api/collections/users/confirm-password-reset', {
      token: T.resetUser1,
      password: 'x'.repeat(73),
      passwordConfirm: 'x'.repeat(73),
    });
    expect(beyondBcrypt.status).toBe(400);
    expect(beyondBcrypt.body).toEqual({ code: 400, message: 'Something went wrong while processing your request.', data: {} });
  });

  it('the fixture reset token sets the password, renews the tokenKey and verifies the unverified user', async () => {
    const snapshot = row('users', USER1);
    const res = await post('/api/collections/users/confirm-password-reset', {
      token: T.resetUser1,
      password: 'brand-new-pass',
      passwordConfirm: 'brand-new-pass',
    });
    expect(res.status).toBe(204);
    const after = row('users', USER1);
    expect(after.tokenKey).not.toBe(snapshot.tokenKey);
    expect(after.verified).toBe(1);
    // old tokens are dead, the reset token cannot be used twice
    expect((await post('/api/collections/users/auth-refresh', undefined, T.user1)).status).toBe(401);
    const again = await post('/api/collections/users/confirm-password-reset', {
      token: T.resetUser1,
      password: 'another-pass-1',
      passwordConfirm: 'another-pass-1',
    });
    expect(again.body.data.token.code).toBe('validation_invalid_token');
    expect((await post('/api/collections/users/auth-with-password', { identity: 'test@example.com', password: FIXTURE_PASSWORD })).status).toBe(400);
    expect((await post('/api/collections/users/auth-with-password', { identity: 'test@example.com', password: 'brand-new-pass' })).status).toBe(200);
    restoreUser1(snapshot);
    expect((await post('/api/collections/users/auth-refresh', undefined, T.user1)).status).toBe(200);
  });
});

describe('email change', () => {
  it('request-email-change needs the record itself', async () => {
    expect((await post('/api/collections/users/request-email-change', { newEmail: 'change@example.com' })).status).toBe(401);
    expect((await post('/api/collections/users/request-email-change', { newEmail: 'change@example.com' }, T.admin)).status).toBe(401);
    expect((await post('/api/collections/clients/request-email-change', { newEmail: 'change@example.com' }, T.user1)).status).toBe(403);
    expect((await post('/api/collections/demo1/request-email-change', { newEmail: 'change@example.com' }, T.user1)).status).toBe(400);
    const empty = await post('/api/collections/users/request-email-change', {}, T.user1);
    expect(empty.body.data.newEmail.code).toBe('validation_required');
    const taken = await post('/api/collections/users/request-email-change', { newEmail: 'test2@example.com' }, T.user1);
    expect(taken.body.data.newEmail).toEqual({ code: 'validation_record_email_invalid', message: 'User email already exists or it is invalid.' });
  });

  it('mails a token to the new address, and the fixture token confirms with the password', async () => {
    const snapshot = row('users', USER1);
    const res = await post('/api/collections/users/request-email-change', { newEmail: 'new-address@example.com' }, T.user1);
    expect(res.status).toBe(204);
    const mail = await smtp.waitFor((m) => m.to.includes('new-address@example.com'));
    expect(mail.subject).toBe('Confirm your acme_test new email address');
    const token = /confirm-email-change\/([\w.-]+)/.exec(mail.html)![1];
    expect(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString())).toMatchObject({
      id: USER1,
      email: 'test@example.com',
      newEmail: 'new-address@example.com',
    });

    const expired = await post('/api/collections/users/confirm-email-change', { token: T.emailChangeUser1Expired, password: FIXTURE_PASSWORD });
    expect(expired.body.data.token.code).toBe('validation_invalid_token');
    const wrongPass = await post('/api/collections/users/confirm-email-change', { token: T.emailChangeUser1, password: '1234567891' });
    expect(wrongPass.body.data).toEqual({ password: { code: 'validation_invalid_password', message: 'Missing or invalid auth record password.' } });
    const other = await post('/api/collections/clients/confirm-email-change', { token: T.emailChangeUser1, password: FIXTURE_PASSWORD });
    expect(other.body.data.token.code).toBe('validation_token_collection_mismatch');
    const blank = await http(srv.url, 'POST', '/api/collections/users/confirm-email-change', { raw: '' });
    expect(Object.keys(blank.body.data)).toEqual(['password', 'token']);

    expect((await post('/api/collections/users/confirm-email-change', { token: T.emailChangeUser1, password: FIXTURE_PASSWORD })).status).toBe(204);
    const after = row('users', USER1);
    expect(after).toMatchObject({ email: 'change@example.com', verified: 1 });
    expect(after.tokenKey).not.toBe(snapshot.tokenKey);
    expect(externalAuthCount(USER1)).toBe(0);
    // the mailed token belongs to the old tokenKey now
    const stale = await post('/api/collections/users/confirm-email-change', { token, password: FIXTURE_PASSWORD });
    expect(stale.body.data.token.code).toBe('validation_invalid_token');

    restoreUser1(snapshot);
    srv.app.ctx.db.exec(`INSERT INTO _externalAuths (id, collectionId, recordId, provider, providerId, created, updated) VALUES
      ('clmflokuq1xl341', '_pb_users_auth_', '${USER1}', 'google', 'test123', '2022-01-01 01:01:01.123Z', '2022-01-01 01:01:01.123Z'),
      ('dlmflokuq1xl342', '_pb_users_auth_', '${USER1}', 'gitlab', 'test123', '2022-01-01 01:01:01.123Z', '2022-01-01 01:01:01.123Z')`);
  });

  it('confirm-email-change refuses an address taken in the meantime', async () => {
    srv.app.ctx.db.prepare("UPDATE users SET email = 'change@example.com' WHERE id = 'bgs820n361vj1qd'").run();
    const res = await post('/api/collections/users/confirm-email-change', { token: T.emailChangeUser1, password: FIXTURE_PASSWORD });
    expect(res.body.data.token.code).toBe('validation_existing_token_email');
    srv.app.ctx.db.prepare("UPDATE users SET email = 'test3@example.com' WHERE id = 'bgs820n361vj1qd'").run();
  });
});

describe('external auths', () => {
  const list = (coll: string, id: string, token?: string) => get(`/api/collections/${coll}/records/${id}/external-auths`, token);
  const unlink = (coll: string, id: string, provider: string, token?: string) =>
    http(srv.url, 'DELETE', `/api/collections/${coll}/records/${id}/external-auths/${provider}`, { token });

  it('lists a record\u2019s links to admins and the owner only', async () => {
    expect((await list('users', USER1)).status).toBe(401);
    const admin = await list('users', USER1, T.admin);
    expect(admin.status).toBe(200);
    expect(admin.body).toEqual([
      {
        id: 'clmflokuq1xl341',
        created: '2022-01-01 01:01:01.123Z',
        updated: '2022-01-01 01:01:01.123Z',
        collectionId: '_pb_users_auth_',
        recordId: USER1,
        provider: 'google',
        providerId: 'test123',
      },
      expect.objectContaining({ id: 'dlmflokuq1xl342', provider: 'gitlab' }),
    ]);
    expect((await list('users', USER1, T.user1)).body).toHaveLength(2);
    expect((await list('users', USER2, T.user2)).body).toEqual([]);
    expect((await list('users', USER1, T.user2)).status).toBe(403);
    expect((await list('clients', 'o1y0dd0spd786md', T.user2)).status).toBe(403);
    expect((await list('users', 'missing', T.admin)).status).toBe(404);
    expect((await list('demo1', USER1, T.admin)).status).toBe(400);

    const sdk = srv.client();
    sdk.authStore.save(T.user1, null);
    expect(await sdk.collection('users').listExternalAuths(USER1)).toHaveLength(2);
  });

  it('nologin: managers (manageRule) may list another record\u2019s links', async () => {
    // nologin's manageRule is @request.auth.collectionName = 'users'
    expect((await list('nologin', 'dc49k6jgejn40h3', T.user1)).status).toBe(200);
    expect((await list('nologin', 'dc49k6jgejn40h3', T.clientVerified)).status).toBe(403);
  });

  it('unlinks a provider (owner or admin), 404 when not linked', async () => {
    expect((await unlink('users', USER1, 'google')).status).toBe(401);
    expect((await unlink('users', USER1, 'google', T.user2)).status).toBe(403);
    expect((await unlink('users', 'missing', 'google', T.admin)).status).toBe(404);
    const notLinked = await unlink('users', USER1, 'facebook', T.admin);
    expect(notLinked.status).toBe(404);
    expect(notLinked.body.data).toEqual({});
    expect((await unlink('users', USER1, 'google', T.user1)).status).toBe(204);
    expect((await list('users', USER1, T.admin)).body.map((a: { provider: string }) => a.provider)).toEqual(['gitlab']);

    const sdk = srv.client();
    sdk.authStore.save(T.admin, null);
    expect(await sdk.collection('users').unlinkExternalAuth(USER1, 'gitlab')).toBe(true);
    expect(externalAuthCount(USER1)).toBe(0);
  });

  it('rejects unknown routes and methods with the 0.22 404 envelope', async () => {
    const res = await http(srv.url, 'PUT', `/api/collections/users/records/${USER1}/external-auths`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 404, message: 'Not Found.', data: {} });
  });
});

describe('rate limiting', () => {
  it('answers 429 after repeated failures for one identity, without touching others', async () => {
    let last = 0;
    for (let i = 0; i < 6; i++) {
      last = (await post('/api/collections/users/auth-with-password', { identity: 'users69238', password: 'wrong-' + i })).status;
    }
    expect(last).toBe(429);
    const blocked = await post('/api/collections/users/auth-with-password', { identity: 'users69238', password: FIXTURE_PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    // another identity and another collection are unaffected
    expect((await post('/api/collections/users/auth-with-password', { identity: 'test3@example.com', password: FIXTURE_PASSWORD })).status).toBe(200);
    const sdk = await srv.client().collection('users').authWithPassword('users69238', FIXTURE_PASSWORD).catch((e) => e);
    expect(sdk).toBeInstanceOf(ClientResponseError);
    expect(sdk.status).toBe(429);
  });
});
