// Record auth over HTTP on a fresh data dir: an auth collection designed through the collections
// API, accounts inserted directly, and every flow end to end with the mails read from a real SMTP
// server on loopback (templates from the settings, tokens in PocketBase's formats).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { http, startServer, type TestServer } from '../helpers/server';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { hashPassword, newTokenKey } from '../../server/services/passwords';
import { nowDateTime } from '../../server/db/layout';

const ADMIN = { email: 'admin@example.com', password: 'admin-password-1' };
const MEMBER = { id: 'member000000001', username: 'Member_One', email: 'member@example.com', password: 'member-password' };

let srv: TestServer;
let smtp: TestSmtp;
let adminToken = '';
let collectionId = '';

const api = (method: string, p: string, body?: unknown, token?: string) => http(srv.url, method, p, { body, token });
const post = (p: string, body?: unknown, token?: string) => api('POST', p, body, token);
const member = () => srv.app.db.prepare('SELECT * FROM members WHERE id = ?').get(MEMBER.id) as Record<string, unknown>;
const signIn = (identity: string, password: string, coll = 'members') =>
  post(`/api/collections/${coll}/auth-with-password`, { identity, password });

async function insertAccount(table: string, values: { id: string; username: string; email: string; password: string; verified?: boolean }) {
  const now = nowDateTime();
  srv.app.db
    .prepare(
      `INSERT INTO "${table}" (id, username, email, emailVisibility, verified, tokenKey, passwordHash, lastResetSentAt, lastVerificationSentAt, created, updated)
       VALUES (?, ?, ?, 0, ?, ?, ?, '', '', ?, ?)`,
    )
    .run(values.id, values.username, values.email, values.verified ? 1 : 0, newTokenKey(), await hashPassword(values.password), now, now);
}

async function patchCollection(body: Record<string, unknown>, name = 'members') {
  const res = await api('PATCH', `/api/collections/${name}`, body, adminToken);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

function tokenFrom(html: string, action: string): string {
  const m = new RegExp(`${action}/([\\w.-]+)`).exec(html);
  if (!m) throw new Error(`no ${action} link in ${html}`);
  return m[1];
}

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());

beforeAll(async () => {
  srv = await startServer();
  smtp = await startSmtp();
  expect((await post('/api/admins', { ...ADMIN, passwordConfirm: ADMIN.password })).status).toBe(200);
  adminToken = (await post('/api/admins/auth-with-password', { identity: ADMIN.email, password: ADMIN.password })).body.token;

  const settings = srv.app.ctx.settings;
  const current = settings.get();
  settings.save({
    ...current,
    meta: { ...current.meta, appName: 'Outpost Test', appUrl: 'https://app.example.com/' },
    smtp: { ...current.smtp, enabled: true, host: '127.0.0.1', port: smtp.port, tls: false },
  });

  const created = await post(
    '/api/collections',
    {
      name: 'members',
      type: 'auth',
      schema: [{ name: 'nick', type: 'text' }],
      options: {
        allowEmailAuth: true,
        allowUsernameAuth: true,
        allowOAuth2Auth: false,
        minPasswordLength: 10,
        exceptEmailDomains: ['blocked.example'],
        requireEmail: true,
      },
    },
    adminToken,
  );
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  collectionId = created.body.id;
  await insertAccount('members', MEMBER);
  await insertAccount('members', { id: 'member000000002', username: 'other_member', email: 'other@example.com', password: 'other-password' });

  const base = await post('/api/collections', { name: 'posts', type: 'base', schema: [{ name: 'title', type: 'text' }] }, adminToken);
  expect(base.status).toBe(200);
});

afterAll(async () => {
  await srv?.close();
  await smtp?.close();
});

describe('auth-methods and sign-in', () => {
  it('follows the collection options, providers only with allowOAuth2Auth', async () => {
    const s = srv.app.ctx.settings;
    s.save({ ...s.get(), googleAuth: { ...(s.get().googleAuth as object), enabled: true, clientId: 'g-id', clientSecret: 'g-secret' } });

    const res = await api('GET', '/api/collections/members/auth-methods');
    expect(res.body).toEqual({ authProviders: [], usernamePassword: true, emailPassword: true, onlyVerified: false });

    await patchCollection({ options: { allowOAuth2Auth: true } });
    const withOAuth = await api('GET', '/api/collections/members/auth-methods');
    expect(withOAuth.body.authProviders.map((p: { name: string }) => p.name)).toEqual(['google']);
    const google = withOAuth.body.authProviders[0];
    expect(google.displayName).toBe('Google');
    expect(google.authUrl).toMatch(/^https:\/\/accounts\.google\.com\/o\/oauth2\/auth\?client_id=g-id&code_challenge=/);
    expect(google.authUrl).toContain('&scope=https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fuserinfo.profile+https%3A%2F%2F');
    expect(google.authUrl.endsWith('&redirect_uri=')).toBe(true);
    // each call makes a new state and verifier
    const again = await api('GET', '/api/collections/members/auth-methods');
    expect(again.body.authProviders[0].state).not.toBe(google.state);

    // sorted by name; an OIDC provider with PKCE switched off and a display name of its own
    s.save({
      ...s.get(),
      oidcAuth: { ...(s.get().oidcAuth as object), enabled: true, clientId: 'o-id', authUrl: 'https://id.example.com/auth?tenant=1', pkce: false, displayName: 'Acme ID' },
      githubAuth: { ...(s.get().githubAuth as object), enabled: true, clientId: 'gh-id' },
    });
    const three = (await api('GET', '/api/collections/members/auth-methods')).body.authProviders;
    expect(three.map((p: { name: string }) => p.name)).toEqual(['github', 'google', 'oidc']);
    expect(three[2]).toMatchObject({ displayName: 'Acme ID', codeVerifier: '', codeChallenge: '', codeChallengeMethod: '' });
    expect(three[2].authUrl).toBe(
      `https://id.example.com/auth?tenant=1&client_id=o-id&response_type=code&scope=openid+email+profile&state=${three[2].state}&redirect_uri=`,
    );
    s.save({ ...s.get(), oidcAuth: { ...(s.get().oidcAuth as object), enabled: false }, githubAuth: { ...(s.get().githubAuth as object), enabled: false } });

    await patchCollection({ options: { allowOAuth2Auth: false } });
    expect((await api('GET', '/api/collections/posts/auth-methods')).body.message).toBe('Unsupported collection type.');
  });

  it('signs in by email and by username (any case) and hides secrets', async () => {
    const byEmail = await signIn(MEMBER.email, MEMBER.password);
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.record).toEqual({
      collectionId,
      collectionName: 'members',
      created: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z$/),
      email: MEMBER.email,
      emailVisibility: false,
      id: MEMBER.id,
      nick: '',
      updated: expect.any(String),
      username: MEMBER.username,
      verified: false,
    });
    const byName = await signIn('mEMBER_oNE', MEMBER.password);
    expect(byName.status).toBe(200);
    expect(byName.body.record.id).toBe(MEMBER.id);

    const pb = srv.client();
    await pb.collection('members').authWithPassword(MEMBER.username, MEMBER.password);
    expect(pb.authStore.model?.id).toBe(MEMBER.id);
  });

  it('a method switched off fails like a wrong password', async () => {
    await patchCollection({ options: { allowEmailAuth: false } });
    expect((await signIn(MEMBER.email, MEMBER.password)).body).toEqual({ code: 400, message: 'Failed to authenticate.', data: {} });
    expect((await signIn(MEMBER.username, MEMBER.password)).status).toBe(200);
    expect((await api('GET', '/api/collections/members/auth-methods')).body.emailPassword).toBe(false);

    await patchCollection({ options: { allowEmailAuth: true, allowUsernameAuth: false } });
    expect((await signIn(MEMBER.username, MEMBER.password)).status).toBe(400);
    expect((await signIn(MEMBER.email, MEMBER.password)).status).toBe(200);

    // with both off, password reset is refused outright
    await patchCollection({ options: { allowEmailAuth: false } });
    expect((await post('/api/collections/members/request-password-reset', { email: MEMBER.email })).body).toEqual({
      code: 400,
      message: 'The collection is not configured to allow password authentication.',
      data: {},
    });
    await patchCollection({ options: { allowEmailAuth: true, allowUsernameAuth: true } });
  });

  it('onlyVerified: 403 for the unverified account with the right password', async () => {
    await patchCollection({ options: { onlyVerified: true } });
    const res = await signIn(MEMBER.email, MEMBER.password);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Please verify your email first.');
    expect((await signIn(MEMBER.email, 'not-the-password')).status).toBe(400);
    expect((await api('GET', '/api/collections/members/auth-methods')).body.onlyVerified).toBe(true);
    await patchCollection({ options: { onlyVerified: false } });
  });
});

describe('verification by mail', () => {
  it('sends the settings template and confirms with the mailed token', async () => {
    const s = srv.app.ctx.settings;
    const meta = s.get().meta;
    s.save({
      ...s.get(),
      meta: {
        ...meta,
        verificationTemplate: {
          subject: 'Welcome to {APP_NAME}',
          actionUrl: '{APP_URL}/verify/{TOKEN}',
          body: '<p>{APP_NAME} at {APP_URL}: <a href="{ACTION_URL}">verify</a> ({TOKEN})</p>',
          hidden: false,
        },
      },
    });

    expect((await post('/api/collections/members/request-verification', { email: MEMBER.email })).status).toBe(204);
    const mail = await smtp.waitFor((m) => m.to.includes(MEMBER.email) && m.subject.startsWith('Welcome'));
    expect(mail.subject).toBe('Welcome to Outpost Test');
    expect(mail.from).toBe('support@example.com');
    const token = tokenFrom(mail.html, 'verify');
    // the action URL's double slash (appUrl ends with /) is collapsed
    expect(mail.html).toContain(`Outpost Test at https://app.example.com/: <a href="https://app.example.com/verify/${token}">verify</a> (${token})`);
    expect(claimsOf(token)).toMatchObject({ id: MEMBER.id, collectionId, email: MEMBER.email, type: 'authRecord' });
    expect(claimsOf(token).exp - Date.now() / 1000).toBeGreaterThan(604800 - 60);

    expect((await post('/api/collections/posts/confirm-verification', { token })).status).toBe(400);
    expect((await post('/api/collections/members/confirm-verification', { token })).status).toBe(204);
    expect(member().verified).toBe(1);
    const signedIn = await signIn(MEMBER.email, MEMBER.password);
    expect(signedIn.body.record.verified).toBe(true);

    // verified accounts get no further mails
    const count = smtp.mails.length;
    expect((await post('/api/collections/members/request-verification', { email: MEMBER.email })).status).toBe(204);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails.length).toBe(count);

    // the SDK's confirm works with the same token (already verified: still fine)
    expect(await srv.client().collection('members').confirmVerification(token)).toBe(true);
  });

  it('a token whose email no longer matches the record is refused', async () => {
    srv.app.db.prepare("UPDATE members SET verified = 0, lastVerificationSentAt = '' WHERE id = 'member000000002'").run();
    expect((await post('/api/collections/members/request-verification', { email: 'other@example.com' })).status).toBe(204);
    const mail = await smtp.waitFor((m) => m.to.includes('other@example.com'));
    const token = tokenFrom(mail.html, 'verify');
    srv.app.db.prepare("UPDATE members SET email = 'other2@example.com' WHERE id = 'member000000002'").run();
    const res = await post('/api/collections/members/confirm-verification', { token });
    expect(res.body.data.token.code).toBe('validation_token_email_mismatch');
    srv.app.db.prepare("UPDATE members SET email = 'other@example.com' WHERE id = 'member000000002'").run();
  });
});

describe('password reset by mail', () => {
  it('resets the password with the mailed token and revokes earlier tokens', async () => {
    const before = await signIn(MEMBER.email, MEMBER.password);
    const oldAuthToken = before.body.token;

    expect((await post('/api/collections/members/request-password-reset', { email: MEMBER.email })).status).toBe(204);
    const mail = await smtp.waitFor((m) => m.to.includes(MEMBER.email) && /Reset/.test(m.subject));
    expect(mail.subject).toBe('Reset your Outpost Test password');
    const token = tokenFrom(mail.html, 'confirm-password-reset');
    expect(mail.html).toContain(`https://app.example.com/_/#/auth/confirm-password-reset/${token}`);
    expect(claimsOf(token)).toMatchObject({ id: MEMBER.id, email: MEMBER.email });
    // the stamp is written once the SMTP server acknowledged the mail, just after our test server got it
    await vi.waitFor(() => expect(member().lastResetSentAt).not.toBe(''));

    // minPasswordLength 10 of the collection, up to 100 as 0.22 allows on this path
    const short = await post('/api/collections/members/confirm-password-reset', { token, password: 'short-pw', passwordConfirm: 'short-pw' });
    expect(short.body.data).toEqual({
      password: { code: 'validation_length_out_of_range', message: 'The length must be between 10 and 100.' },
    });

    const newPassword = 'a-brand-new-password';
    expect(await srv.client().collection('members').confirmPasswordReset(token, newPassword, newPassword)).toBe(true);
    expect(member().lastResetSentAt).toBe('');
    expect((await signIn(MEMBER.email, MEMBER.password)).status).toBe(400);
    expect((await signIn(MEMBER.email, newPassword)).status).toBe(200);
    expect((await post('/api/collections/members/auth-refresh', undefined, oldAuthToken)).status).toBe(401);
    MEMBER.password = newPassword;
  });

  it('sends at most one reset mail per 2 minutes', async () => {
    expect((await post('/api/collections/members/request-password-reset', { email: 'other@example.com' })).status).toBe(204);
    await smtp.waitFor((m) => m.to.includes('other@example.com') && /Reset/.test(m.subject));
    const count = smtp.mails.length;
    expect((await post('/api/collections/members/request-password-reset', { email: 'other@example.com' })).status).toBe(204);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails.length).toBe(count);
  });
});

describe('email change by mail', () => {
  it('checks the new address, mails the token to it, and confirms with the password', async () => {
    const auth = (await signIn(MEMBER.email, MEMBER.password)).body.token;
    const blocked = await post('/api/collections/members/request-email-change', { newEmail: 'me@blocked.example' }, auth);
    expect(blocked.body.data.newEmail.code).toBe('validation_email_domain_not_allowed');
    const taken = await post('/api/collections/members/request-email-change', { newEmail: 'other@example.com' }, auth);
    expect(taken.body.data.newEmail.code).toBe('validation_record_email_invalid');
    const bad = await post('/api/collections/members/request-email-change', { newEmail: 'not-an-email' }, auth);
    expect(bad.body.data.newEmail.code).toBe('validation_is_email');

    const pb = srv.client();
    pb.authStore.save(auth, null);
    expect(await pb.collection('members').requestEmailChange('moved@example.com')).toBe(true);
    const mail = await smtp.waitFor((m) => m.to.includes('moved@example.com'));
    expect(mail.subject).toBe('Confirm your Outpost Test new email address');
    const token = tokenFrom(mail.html, 'confirm-email-change');
    expect(claimsOf(token)).toMatchObject({ id: MEMBER.id, email: MEMBER.email, newEmail: 'moved@example.com' });

    const wrong = await post('/api/collections/members/confirm-email-change', { token, password: 'wrong-password' });
    expect(wrong.body.data.password.code).toBe('validation_invalid_password');
    expect(await srv.client().collection('members').confirmEmailChange(token, MEMBER.password)).toBe(true);
    expect(member()).toMatchObject({ email: 'moved@example.com', verified: 1 });
    expect((await post('/api/collections/members/auth-refresh', undefined, auth)).status).toBe(401);
    expect((await signIn('moved@example.com', MEMBER.password)).status).toBe(200);
    expect((await signIn(MEMBER.email, MEMBER.password)).status).toBe(400);
    MEMBER.email = 'moved@example.com';
  });
});

describe('mailer failures', () => {
  it('request endpoints still answer 204 when SMTP is off (email change too, as 0.22 with its sendmail fallback)', async () => {
    const s = srv.app.ctx.settings;
    const smtpOn = s.get().smtp;
    s.save({ ...s.get(), smtp: { ...smtpOn, enabled: false } });
    srv.app.db.prepare("UPDATE members SET lastResetSentAt = '' WHERE id = 'member000000002'").run();
    expect((await post('/api/collections/members/request-password-reset', { email: 'other@example.com' })).status).toBe(204);
    const auth = (await signIn(MEMBER.email, MEMBER.password)).body.token;
    const change = await post('/api/collections/members/request-email-change', { newEmail: 'elsewhere@example.com' }, auth);
    expect(change.status).toBe(204);
    // the mail that could not go out is in the logs
    const logged = () => srv.app.logsDb.prepare("SELECT 1 FROM _logs WHERE message = 'Failed to send email change email'").all().length;
    for (let i = 0; i < 50 && logged() === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(logged()).toBeGreaterThan(0);
    s.save({ ...s.get(), smtp: smtpOn });
    // the failed reset did not count as sent
    expect((srv.app.db.prepare("SELECT lastResetSentAt FROM members WHERE id = 'member000000002'").get() as { lastResetSentAt: string }).lastResetSentAt).toBe('');
  });
});

describe('external auths and manageRule', () => {
  it('lets admins, the owner and managers list and unlink', async () => {
    const now = nowDateTime();
    srv.app.db
      .prepare('INSERT INTO _externalAuths (id, collectionId, recordId, provider, providerId, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run('extauth00000001', collectionId, MEMBER.id, 'github', 'gh-1', now, now);
    const owner = (await signIn(MEMBER.email, MEMBER.password)).body.token;
    const other = (await signIn('other_member', 'other-password')).body.token;

    const path = `/api/collections/members/records/${MEMBER.id}/external-auths`;
    expect((await api('GET', path, undefined, owner)).body).toEqual([
      { id: 'extauth00000001', created: now, updated: now, collectionId, recordId: MEMBER.id, provider: 'github', providerId: 'gh-1' },
    ]);
    expect((await api('GET', path, undefined, other)).status).toBe(403);
    expect((await api('GET', path, undefined, adminToken)).body).toHaveLength(1);

    await patchCollection({ options: { manageRule: "@request.auth.username = 'other_member'" } });
    expect((await api('GET', path, undefined, other)).body).toHaveLength(1);
    expect((await api('DELETE', `${path}/github`, undefined, other)).status).toBe(204);
    expect((await api('GET', path, undefined, owner)).body).toEqual([]);
    await patchCollection({ options: { manageRule: null } });
    expect((await api('GET', path, undefined, other)).status).toBe(403);
  });
});

describe('non-auth collections', () => {
  it('answers 400 Unsupported collection type. on every auth route', async () => {
    for (const [method, p] of [
      ['GET', 'auth-methods'],
      ['POST', 'auth-with-password'],
      ['POST', 'auth-refresh'],
      ['POST', 'auth-with-oauth2'],
      ['POST', 'request-verification'],
      ['POST', 'confirm-verification'],
      ['POST', 'request-password-reset'],
      ['POST', 'confirm-password-reset'],
      ['POST', 'request-email-change'],
      ['POST', 'confirm-email-change'],
      ['GET', 'records/abc/external-auths'],
      ['DELETE', 'records/abc/external-auths/google'],
    ]) {
      const res = await api(method, `/api/collections/posts/${p}`, method === 'POST' ? {} : undefined, adminToken);
      expect(res.body, `${method} ${p}`).toEqual({ code: 400, message: 'Unsupported collection type.', data: {} });
      expect((await api(method, `/api/collections/nope/${p}`, method === 'POST' ? {} : undefined)).status, p).toBe(404);
    }
  });
});
