// /api/settings over HTTP: redaction, PATCH merge, masked values ignored, test email delivery.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startServer, type TestServer } from '../helpers/server';
import { startSmtp, type TestSmtp } from '../helpers/smtp';

// Written out here rather than imported: the test must notice if the server loses a token kind.
const TOKEN_KINDS = [
  'adminAuthToken',
  'adminPasswordResetToken',
  'adminFileToken',
  'recordAuthToken',
  'recordPasswordResetToken',
  'recordEmailChangeToken',
  'recordVerificationToken',
  'recordFileToken',
];

let srv: TestServer;
let smtp: TestSmtp;
let token: string;

const storedSettings = () =>
  JSON.parse((srv.app.db.prepare("SELECT value FROM _params WHERE key = 'settings'").get() as { value: string }).value);

const patch = (body: unknown) => http(srv.url, 'PATCH', '/api/settings', { token, body });

beforeAll(async () => {
  srv = await startServer();
  smtp = await startSmtp();
  const admin = { email: 'admin@example.com', password: 'admin-password' };
  await http(srv.url, 'POST', '/api/admins', { body: { ...admin, passwordConfirm: admin.password } });
  token = (await srv.client().admins.authWithPassword(admin.email, admin.password)).token;
});

afterAll(async () => {
  await srv?.close();
  await smtp?.close();
});

describe('GET /api/settings', () => {
  it('returns every 0.22 section with secrets masked', async () => {
    const res = await http(srv.url, 'GET', '/api/settings', { token });
    expect(res.status).toBe(200);
    const s = res.body;
    expect(Object.keys(s).slice(0, 5)).toEqual(['meta', 'logs', 'smtp', 's3', 'backups']);
    expect(s.meta).toMatchObject({ appName: 'Acme', appUrl: 'http://localhost:8090', senderName: 'Support' });
    expect(s.meta.resetPasswordTemplate).toMatchObject({
      subject: 'Reset your {APP_NAME} password',
      actionUrl: '{APP_URL}/_/#/auth/confirm-password-reset/{TOKEN}',
    });
    expect(s.logs).toEqual({ maxDays: 5, minLevel: 0, logIp: true });
    expect(s.backups).toMatchObject({ cron: '', cronMaxKeep: 3 });
    for (const kind of TOKEN_KINDS) expect(s[kind].secret, kind).toBe('******');
    expect(s.smtp.password).toBe('');
    expect(s.s3.secret).toBe('');
    for (const key of ['googleAuth', 'appleAuth', 'oidc3Auth', 'planningcenterAuth', 'mailcowAuth']) {
      expect(s[key]).toEqual({
        enabled: false,
        clientId: '',
        clientSecret: '',
        authUrl: '',
        tokenUrl: '',
        userApiUrl: '',
        // the OIDC provider files default to the display name 'OIDC' and PKCE on
        displayName: key === 'oidc3Auth' ? 'OIDC' : '',
        pkce: key === 'oidc3Auth' ? true : null,
      });
    }
    // one block per provider file (PocketBase 0.22's 25, plus any a maintainer adds)
    const providerFiles = fs.readdirSync(path.resolve('schemas/providers')).filter((f) => f.endsWith('.schema.json'));
    expect(Object.keys(s).filter((k) => k.endsWith('Auth') && k !== 'emailAuth').sort()).toEqual(
      providerFiles.map((f) => `${f.replace('.schema.json', '')}Auth`).sort(),
    );

    // The real secrets (50 random characters) live only in _params, as plain JSON.
    const stored = storedSettings();
    for (const kind of TOKEN_KINDS) expect(stored[kind].secret).toMatch(/^[A-Za-z0-9]{50}$/);
    expect(res.headers.get('content-type')).toContain('application/json');
    for (const kind of TOKEN_KINDS) expect(JSON.stringify(res.body)).not.toContain(stored[kind].secret);
  });
});

describe('PATCH /api/settings', () => {
  it('merges a partial patch and saves it', async () => {
    const res = await patch({ meta: { appName: 'Outpost Test' }, logs: { maxDays: 9 } });
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ appName: 'Outpost Test', senderName: 'Support', appUrl: 'http://localhost:8090' });
    expect(res.body.logs).toEqual({ maxDays: 9, minLevel: 0, logIp: true });
    expect(res.body.adminAuthToken.secret).toBe('******');

    const stored = storedSettings();
    expect(stored.meta.appName).toBe('Outpost Test');
    expect(stored.logs.maxDays).toBe(9);
    expect(srv.app.ctx.settings.get().meta.appName).toBe('Outpost Test');
  });

  it('masks a set secret and ignores masked values sent back', async () => {
    const set = await patch({ smtp: { password: 'smtp-s3cret', host: 'mail.example.com' }, s3: { secret: 's3-s3cret' } });
    expect(set.status).toBe(200);
    expect(set.body.smtp.password).toBe('******');
    expect(set.body.s3.secret).toBe('******');
    expect(JSON.stringify(set.body)).not.toMatch(/smtp-s3cret|s3-s3cret/);

    const echoed = await patch({ smtp: { password: '******', port: 2525 }, s3: { secret: '******' } });
    expect(echoed.status).toBe(200);
    const stored = storedSettings();
    expect(stored.smtp).toMatchObject({ password: 'smtp-s3cret', port: 2525, host: 'mail.example.com' });
    expect(stored.s3.secret).toBe('s3-s3cret');

    // The whole redacted document sent back changes no secret, so existing tokens stay valid.
    const before = storedSettings().adminAuthToken.secret;
    const full = await http(srv.url, 'GET', '/api/settings', { token });
    const echoedAll = await patch(full.body);
    expect(echoedAll.status, JSON.stringify(echoedAll.body)).toBe(200);
    expect(storedSettings().adminAuthToken.secret).toBe(before);
    expect((await http(srv.url, 'GET', '/api/settings', { token })).status).toBe(200);
  });

  it('rejects wrong types and invalid values with field errors', async () => {
    const typed = await patch({ meta: { appName: 123 }, logs: { logIp: 'yes' } });
    expect(typed.status).toBe(400);
    expect(typed.body.data.meta.appName.code).toBe('validation_invalid_type');
    expect(typed.body.data.logs.logIp.code).toBe('validation_invalid_type');

    const invalid = await patch({ meta: { appName: '', senderAddress: 'nope' }, adminAuthToken: { duration: 1 } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.data).toEqual({
      adminAuthToken: { duration: { code: 'validation_min_greater_equal_than_required', message: 'Must be no less than 5.' } },
      meta: {
        appName: { code: 'validation_required', message: 'Cannot be blank.' },
        senderAddress: { code: 'validation_is_email', message: 'Must be a valid email address.' },
      },
    });

    const template = await patch({ meta: { verificationTemplate: { actionUrl: 'http://x/no-token' } } });
    expect(template.body.data.meta.verificationTemplate.actionUrl.code).toBe('validation_missing_required_param');

    const provider = await patch({ githubAuth: { enabled: true } });
    expect(provider.body.data.githubAuth.clientId.code).toBe('validation_required');

    expect((await patch([1, 2])).status).toBe(400);
    // Nothing of the refused patches was saved.
    expect(storedSettings().meta.appName).toBe('Outpost Test');
  });
});

describe('POST /api/settings/test/email', () => {
  const send = (body: unknown) => http(srv.url, 'POST', '/api/settings/test/email', { token, body });

  it('validates the recipient and the template', async () => {
    const bad = await send({ email: 'not-an-email', template: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Failed to send the test email.');
    expect(bad.body.data).toEqual({
      email: { code: 'validation_is_email', message: 'Must be a valid email address.' },
      template: { code: 'validation_in_invalid', message: 'Must be a valid value.' },
    });
    expect((await send({})).body.data.template.code).toBe('validation_required');
    expect((await http(srv.url, 'POST', '/api/settings/test/email', { body: { email: 'a@b.co', template: 'verification' } })).status).toBe(401);
  });

  it('reports that SMTP is off instead of pretending to send', async () => {
    expect((await patch({ smtp: { enabled: false } })).status).toBe(200);
    const res = await send({ email: 'someone@example.com', template: 'verification' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Failed to send the test email\. Raw error: \n.*SMTP is disabled/);
  });

  it('delivers the chosen template through SMTP', async () => {
    const on = await patch({
      meta: { appUrl: 'http://outpost.test', senderName: 'Outpost', senderAddress: 'noreply@outpost.test' },
      smtp: { enabled: true, host: '127.0.0.1', port: smtp.port, tls: false, password: '', authMethod: 'PLAIN' },
    });
    expect(on.status).toBe(200);

    const res = await send({ email: 'reader@example.com', template: 'password-reset' });
    expect(res.status).toBe(204);
    const mail = await smtp.waitFor((m) => m.to.includes('reader@example.com'));
    expect(mail.from).toBe('noreply@outpost.test');
    expect(mail.subject).toBe('Reset your Outpost Test password');
    expect(mail.html).toMatch(/href="http:\/\/outpost\.test\/_\/#\/auth\/confirm-password-reset\/[\w-]+\.[\w-]+\.[\w-]+"/);
    expect(mail.html).toContain('Outpost Test team');

    expect((await send({ email: 'reader2@example.com', template: 'verification' })).status).toBe(204);
    const verification = await smtp.waitFor((m) => m.to.includes('reader2@example.com'));
    expect(verification.subject).toBe('Verify your Outpost Test email');
  });
});

describe('token secrets', () => {
  it('rotating adminAuthToken.secret invalidates the admin tokens signed with the old one', async () => {
    const fresh = 'N'.repeat(50);
    expect((await patch({ adminAuthToken: { secret: fresh } })).status).toBe(200);
    expect(storedSettings().adminAuthToken.secret).toBe(fresh);
    expect((await http(srv.url, 'GET', '/api/settings', { token })).status).toBe(401);
    const again = await srv.client().admins.authWithPassword('admin@example.com', 'admin-password');
    expect((await http(srv.url, 'GET', '/api/settings', { token: again.token })).status).toBe(200);
  });
});
