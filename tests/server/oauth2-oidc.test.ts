// OAuth2 sign-in end to end against a real OpenID Connect provider on loopback (oidc-provider):
// the SDK's manual code flow with PKCE, the link found on the second sign-in, linking while
// signed in, and every bad input (replayed or wrong codes, a wrong verifier, a provider answering
// 500, garbage or too slowly, disabled or unknown providers, forbidden createData) answered 400
// with nothing created and no secret echoed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidc, type TestOidc } from '../helpers/oidc';
import { http as api, startServer, type TestServer } from '../helpers/server';

const ADMIN = { email: 'admin@example.com', password: 'admin-password-1' };
const REDIRECT = 'http://127.0.0.1:9/oauth2-redirect';
const SLOW_MS = 4000;

let srv: TestServer;
let oidc: TestOidc;
let fake: http.Server;
let fakeUrl = '';
let adminToken = '';

const count = (table: string) => (srv.app.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
const links = () => srv.app.db.prepare('SELECT recordId, provider, providerId FROM _externalAuths ORDER BY created').all() as Array<Record<string, string>>;

async function patchSettings(body: Record<string, unknown>) {
  const res = await api(srv.url, 'PATCH', '/api/settings', { body, token: adminToken });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** auth-methods → the provider's sign-in as `login` → the code and the matching verifier. */
async function authorize(login: string, provider = 'oidc') {
  const pb = srv.client();
  const methods = await pb.collection('members').listAuthMethods();
  const info = methods.authProviders.find((p) => p.name === provider);
  if (!info) throw new Error(`${provider} is not listed`);
  const back = await oidc.signIn(info.authUrl + encodeURIComponent(REDIRECT), login);
  expect(back.origin + back.pathname).toBe(REDIRECT);
  expect(back.searchParams.get('state')).toBe(info.state);
  return { pb, code: back.searchParams.get('code') ?? '', codeVerifier: info.codeVerifier };
}

const exchange = (body: Record<string, unknown>, token?: string) =>
  api(srv.url, 'POST', '/api/collections/members/auth-with-oauth2', { body: { provider: 'oidc', redirectUrl: REDIRECT, ...body }, token });

beforeAll(async () => {
  oidc = await startOidc([REDIRECT]);
  // a provider that misbehaves: 500, garbage, or silence until the server gives up
  fake = http.createServer((req, res) => {
    if (req.url?.startsWith('/500')) res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"server_error"}');
    else if (req.url?.startsWith('/garbage')) res.writeHead(200, { 'content-type': 'application/json' }).end('<html>not json');
    else if (req.url?.startsWith('/slow')) setTimeout(() => res.writeHead(200).end('{}'), SLOW_MS * 2).unref();
    else if (req.url?.startsWith('/token')) res.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token":"at-1","token_type":"bearer"}');
    else if (req.url?.startsWith('/user-garbage')) res.writeHead(200, { 'content-type': 'application/json' }).end('[1,2,3]');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;

  srv = await startServer({ options: { oauth2TimeoutMs: SLOW_MS / 2 } });
  expect((await api(srv.url, 'POST', '/api/admins', { body: { ...ADMIN, passwordConfirm: ADMIN.password } })).status).toBe(200);
  adminToken = (await api(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: ADMIN.email, password: ADMIN.password } })).body.token;
  const created = await api(srv.url, 'POST', '/api/collections', {
    token: adminToken,
    body: {
      name: 'members',
      type: 'auth',
      createRule: '',
      schema: [{ name: 'nick', type: 'text' }],
      options: { allowEmailAuth: true, allowUsernameAuth: true, allowOAuth2Auth: true, minPasswordLength: 8 },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  await patchSettings({
    oidcAuth: { enabled: true, clientId: oidc.clientId, clientSecret: oidc.clientSecret, ...oidc.urls, displayName: 'Test IdP', pkce: true },
  });
}, 60_000);

afterAll(async () => {
  await srv?.close();
  await oidc?.close();
  await new Promise((resolve) => fake?.close(resolve));
});

describe('auth-with-oauth2 against a real OIDC provider', () => {
  let aliceId = '';

  it('lists the provider with a PKCE pair and the configured display name', async () => {
    const methods = await srv.client().collection('members').listAuthMethods();
    expect(methods.authProviders).toHaveLength(1);
    const [p] = methods.authProviders;
    expect(p).toMatchObject({ name: 'oidc', displayName: 'Test IdP', codeChallengeMethod: 'S256' });
    expect(p.codeVerifier).toHaveLength(43);
    expect(p.authUrl.startsWith(`${oidc.urls.authUrl}?client_id=${oidc.clientId}&code_challenge=`)).toBe(true);
    expect(p.authUrl).not.toContain(oidc.clientSecret);
  });

  it('signs a new user up through the SDK manual code flow (PKCE), verified by the provider', async () => {
    const { pb, code, codeVerifier } = await authorize('alice');
    const auth = await pb.collection('members').authWithOAuth2Code('oidc', code, codeVerifier, REDIRECT, { nick: 'Al' });
    expect(auth.meta).toMatchObject({ id: 'alice', name: 'User alice', username: 'alice', email: 'alice@example.test', isNew: true });
    expect(auth.meta?.accessToken).toEqual(expect.any(String));
    expect(auth.meta?.accessToken).not.toBe('');
    expect(auth.record).toMatchObject({ email: 'alice@example.test', verified: true, username: 'alice', nick: 'Al' });
    expect(pb.authStore.isValid).toBe(true);
    aliceId = auth.record.id;
    expect(links()).toEqual([{ recordId: aliceId, provider: 'oidc', providerId: 'alice' }]);
  });

  it('finds the link on the second sign-in, and a replayed code gets a 400 with nothing created', async () => {
    const { pb, code, codeVerifier } = await authorize('alice');
    const auth = await pb.collection('members').authWithOAuth2Code('oidc', code, codeVerifier, REDIRECT);
    expect(auth.record.id).toBe(aliceId);
    expect(auth.meta?.isNew).toBe(false);

    const users = count('members');
    const replay = await exchange({ code, codeVerifier });
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({ code: 400, message: 'Failed to authenticate.', data: {} });
    expect(count('members')).toBe(users);
  });

  it('refuses a wrong verifier and a made-up code without creating anything', async () => {
    const users = count('members');
    const { code } = await authorize('carol');
    const wrongVerifier = await exchange({ code, codeVerifier: 'x'.repeat(43) });
    expect(wrongVerifier.status).toBe(400);
    const madeUp = await exchange({ code: 'not-a-code', codeVerifier: 'x'.repeat(43) });
    expect(madeUp.status).toBe(400);
    for (const res of [wrongVerifier, madeUp]) {
      expect(JSON.stringify(res.body)).not.toContain(oidc.clientSecret);
      expect(res.body.message).toBe('Failed to authenticate.');
    }
    expect(count('members')).toBe(users);
  });

  it('never links to an existing account on email alone; the account owner links while signed in', async () => {
    const pb = srv.client();
    const bob = await pb.collection('members').create({ email: 'bob@example.test', password: 'bob-password', passwordConfirm: 'bob-password' });
    const before = count('members');
    // an identity claiming bob's (unverified, unlinked) address gets no way into bob's account
    const attempt = await authorize('bob');
    const refused = await exchange({ code: attempt.code, codeVerifier: attempt.codeVerifier });
    expect(refused.status).toBe(400);
    expect(refused.body.data.email.code).toBe('validation_oauth2_email_taken');
    expect(count('members')).toBe(before);
    expect(links().some((l) => l.recordId === bob.id)).toBe(false);

    // bob signs in with his password, then links the provider to himself
    const signedIn = await pb.collection('members').authWithPassword('bob@example.test', 'bob-password');
    const own = await authorize('bob');
    const linked = await exchange({ code: own.code, codeVerifier: own.codeVerifier }, signedIn.token);
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body.record.id).toBe(bob.id);
    expect(linked.body.record.verified).toBe(true); // the provider vouched for this very address
    expect(linked.body.meta.isNew).toBe(false);
    const listed = await pb.collection('members').listExternalAuths(bob.id);
    expect(listed.map((l) => [l.provider, l.providerId])).toEqual([['oidc', 'bob']]);
  });

  it('createData cannot set system fields nor an email the provider did not vouch for', async () => {
    const before = count('members');
    const sys = await authorize('dave');
    const system = await exchange({ code: sys.code, codeVerifier: sys.codeVerifier, createData: { verified: true, tokenKey: 'x', nick: 'D' } });
    expect(system.status).toBe(400);
    expect(Object.keys(system.body.data).sort()).toEqual(['tokenKey', 'verified']);

    oidc.accounts.set('erin', { email: 'erin@example.test', email_verified: false });
    const unvouched = await authorize('erin');
    const other = await exchange({ code: unvouched.code, codeVerifier: unvouched.codeVerifier, createData: { email: 'victim@example.test' } });
    expect(other.status).toBe(400);
    expect(other.body.data.email.code).toBe('validation_oauth2_email_not_vouched');
    expect(count('members')).toBe(before);

    // without createData the unverified address is not taken over: a new account without an email
    const again = await authorize('erin');
    const plain = await exchange({ code: again.code, codeVerifier: again.codeVerifier });
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    expect(plain.body.record).toMatchObject({ email: '', verified: false });
    expect(plain.body.meta.email).toBe('erin@example.test');
  });

  it('answers 400 for disabled, unknown and missing providers', async () => {
    const unknown = await exchange({ provider: 'nope', code: 'c' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.data.provider.code).toBe('validation_invalid_provider');
    const disabled = await exchange({ provider: 'google', code: 'c' });
    expect(disabled.body.data.provider.code).toBe('validation_invalid_provider');
    const badShape = await exchange({ code: 'c', createData: 'not an object' });
    expect(badShape.status).toBe(400);
    expect(badShape.body.data.createData.code).toBe('validation_invalid_type');
  });

  it('answers 400 when the provider fails, talks garbage or is too slow', async () => {
    const users = count('members');
    const cases: Array<[string, string]> = [
      [`${fakeUrl}/500`, `${fakeUrl}/user`],
      [`${fakeUrl}/garbage`, `${fakeUrl}/user`],
      [`${fakeUrl}/token`, `${fakeUrl}/user-garbage`],
      [`${fakeUrl}/token`, `${fakeUrl}/500`],
      [`${fakeUrl}/slow`, `${fakeUrl}/user`],
      [`${fakeUrl}/token`, `${fakeUrl}/slow`],
    ];
    for (const [tokenUrl, userApiUrl] of cases) {
      await patchSettings({
        oidc2Auth: { enabled: true, clientId: 'c2', clientSecret: 'very-secret-2', authUrl: `${fakeUrl}/auth`, tokenUrl, userApiUrl },
      });
      const started = Date.now();
      const res = await exchange({ provider: 'oidc2', code: 'some-code', codeVerifier: 'v'.repeat(43) });
      expect(res.status, `${tokenUrl} ${userApiUrl}`).toBe(400);
      expect(res.body).toEqual({ code: 400, message: 'Failed to authenticate.', data: {} });
      expect(Date.now() - started).toBeLessThan(SLOW_MS * 2);
    }
    expect(count('members')).toBe(users);
    const settings = await api(srv.url, 'GET', '/api/settings', { token: adminToken });
    expect(settings.body.oidc2Auth.clientSecret).toBe('******');
  }, 60_000);
});
