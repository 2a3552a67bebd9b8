// Record auth over HTTP on a copy of the PocketBase 0.22.12 fixture (its accounts, its collections'
// auth options, its pre-signed tokens, valid until 2039, and deliberately expired ones):
// auth-methods, auth-with-password, auth-refresh, the auth-with-oauth2 form, and the sign-in rate
// limit.
import { describe, expect, it } from 'vitest';
import { ClientResponseError } from 'pocketbase';
import { srv } from '../helpers/fixture-server';
import { FIXTURE_PASSWORD, http } from '../helpers/server';
import { EMPTY, T, USER1, USER2, get, post, withFixtureServerAndSmtp } from '../helpers/record-auth-fixture';

withFixtureServerAndSmtp();

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
