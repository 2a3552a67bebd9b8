// PATCH /api/settings validates each section it touches with the dashboard's schema files
// (schemas/settings/*) and answers 400 with PocketBase's nested field errors, storing nothing;
// POST /api/settings/test/s3 really connects to an S3-compatible server (s3rver on loopback).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, type TestS3 } from '../helpers/s3';
import { http, startServer, type TestServer } from '../helpers/server';

let srv: TestServer;
let s3: TestS3;
let token: string;

const stored = () =>
  (srv.app.db.prepare("SELECT value FROM _params WHERE key = 'settings'").get() as { value: string }).value;
const patch = (body: unknown) => http(srv.url, 'PATCH', '/api/settings', { token, body });
const testS3 = (body: unknown = { filesystem: 'storage' }) => http(srv.url, 'POST', '/api/settings/test/s3', { token, body });

beforeAll(async () => {
  srv = await startServer();
  s3 = await startS3();
  const admin = { email: 'admin@example.com', password: 'admin-password' };
  await http(srv.url, 'POST', '/api/admins', { body: { ...admin, passwordConfirm: admin.password } });
  token = (await srv.client().admins.authWithPassword(admin.email, admin.password)).token;
});

afterAll(async () => {
  await srv?.close();
  await s3?.close();
});

describe('PATCH /api/settings with invalid settings', () => {
  const cases: Array<[string, unknown, (data: any) => void]> = [
    [
      'a bad sender email',
      { meta: { senderAddress: 'not-an-email' } },
      (d) => expect(d).toEqual({ meta: { senderAddress: { code: 'validation_is_email', message: 'Must be a valid email address.' } } }),
    ],
    [
      'a missing appUrl',
      { meta: { appUrl: '' } },
      (d) => expect(d).toEqual({ meta: { appUrl: { code: 'validation_required', message: 'Cannot be blank.' } } }),
    ],
    [
      'an appUrl that is not a URL',
      { meta: { appUrl: 'not a url' } },
      (d) => expect(d.meta.appUrl).toEqual({ code: 'validation_is_url', message: 'Must be a valid url.' }),
    ],
    [
      'the SMTP port as text',
      { smtp: { enabled: true, port: '2525' } },
      (d) => expect(d.smtp.port.code).toBe('validation_invalid_type'),
    ],
    [
      'SMTP on without a host',
      { smtp: { enabled: true, host: '' } },
      (d) => expect(d).toEqual({ smtp: { host: { code: 'validation_required', message: 'Cannot be blank.' } } }),
    ],
    [
      'templates without {TOKEN} and {ACTION_URL}',
      {
        meta: {
          verificationTemplate: { actionUrl: '{APP_URL}/verify' },
          resetPasswordTemplate: { body: '<p>no link</p>' },
          confirmEmailChangeTemplate: { subject: '' },
        },
      },
      (d) =>
        expect(d).toEqual({
          meta: {
            confirmEmailChangeTemplate: { subject: { code: 'validation_required', message: 'Cannot be blank.' } },
            resetPasswordTemplate: { body: { code: 'validation_missing_required_param', message: 'Missing required parameter "{ACTION_URL}".' } },
            verificationTemplate: { actionUrl: { code: 'validation_missing_required_param', message: 'Missing required parameter "{TOKEN}".' } },
          },
        }),
    ],
    [
      'S3 on without its fields',
      { s3: { enabled: true } },
      (d) =>
        expect(Object.keys(d.s3).sort()).toEqual(['accessKey', 'bucket', 'endpoint', 'region', 'secret']),
    ],
    [
      'logs minLevel out of range and a negative maxDays',
      { logs: { minLevel: 101, maxDays: -1 } },
      (d) =>
        expect(d).toEqual({
          logs: {
            maxDays: { code: 'validation_min_greater_equal_than_required', message: 'Must be no less than 0.' },
            minLevel: { code: 'validation_max_less_equal_than_required', message: 'Must be no greater than 100.' },
          },
        }),
    ],
    [
      'a token duration below 5 s and a short secret',
      { recordAuthToken: { duration: 0, secret: 'short' } },
      (d) => {
        expect(d.recordAuthToken.duration.code).toBe('validation_min_greater_equal_than_required');
        expect(d.recordAuthToken.secret).toEqual({ code: 'validation_length_out_of_range', message: 'The length must be between 30 and 300.' });
      },
    ],
    [
      'an unknown SMTP auth method',
      { smtp: { authMethod: 'CRAM-MD5', enabled: true } },
      (d) => expect(d.smtp.authMethod).toEqual({ code: 'validation_in_invalid', message: 'Must be a valid value.' }),
    ],
  ];

  it.each(cases)('%s: 400 with field errors, nothing stored', async (_name, body, check) => {
    const before = stored();
    const res = await patch(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(400);
    check(res.body.data);
    expect(stored()).toBe(before);
    expect(JSON.stringify(res.body)).not.toContain(JSON.parse(before).adminAuthToken.secret);
  });

  it('valid sections save, and only touched sections are checked', async () => {
    const res = await patch({ meta: { appName: 'Checked', appUrl: 'https://outpost.example.com' }, logs: { minLevel: -100, maxDays: 0 } });
    expect(res.status).toBe(200);
    expect(res.body.meta.appName).toBe('Checked');
    expect(res.body.logs).toMatchObject({ minLevel: -100, maxDays: 0 });
    // the S3 section is off and untouched: its empty fields do not block other saves
    expect(JSON.parse(stored()).s3.enabled).toBe(false);
  });

  it('never returns secrets', async () => {
    const res = await patch({ smtp: { password: 'smtp-secret-value' }, recordAuthToken: { secret: 'x'.repeat(50) } });
    expect(res.status).toBe(200);
    expect(res.body.smtp.password).toBe('******');
    expect(res.body.recordAuthToken.secret).toBe('******');
    expect(JSON.stringify(res.body)).not.toMatch(/smtp-secret-value|x{50}/);
  });
});

describe('POST /api/settings/test/s3', () => {
  it('says when S3 is not enabled', async () => {
    const res = await testS3();
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Failed to test the S3 filesystem. Raw error: \nS3 storage filesystem is not enabled.');
    const backups = await testS3({ filesystem: 'backups' });
    expect(backups.body.message).toBe('Failed to test the S3 filesystem. Raw error: \nS3 backups filesystem is not enabled.');
  });

  it('validates the filesystem and needs an admin', async () => {
    expect((await testS3({ filesystem: 'nope' })).body.data).toEqual({ filesystem: { code: 'validation_in_invalid', message: 'Must be a valid value.' } });
    expect((await http(srv.url, 'POST', '/api/settings/test/s3', { body: { filesystem: 'storage' } })).status).toBe(401);
  });

  it('connects to a real S3-compatible server, and reports its error for a wrong bucket', async () => {
    const on = await patch({
      s3: { enabled: true, endpoint: s3.endpoint, bucket: s3.bucket, region: s3.region, accessKey: s3.accessKey, secret: s3.secret, forcePathStyle: true },
    });
    expect(on.status).toBe(200);
    expect(on.body.s3.secret).toBe('******');
    expect((await testS3()).status).toBe(204);

    expect((await patch({ s3: { bucket: 'missing-bucket' } })).status).toBe(200);
    const res = await testS3();
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Failed to test the S3 filesystem. Raw error: \nThe specified bucket does not exist');
  });
});
