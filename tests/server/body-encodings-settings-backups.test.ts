// Endpoints that read a body take it as JSON, multipart/form-data or url-encoded, as PocketBase
// 0.22 does (tools/rest/multi_binder.go + echo's form binder): settings (update, test
// email, test S3, Apple client secret) and backups answer alike in each encoding.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { srv } from '../helpers/fixture-server';
import { FIXTURE_ADMIN_TOKEN, http } from '../helpers/server';
import { ENCODINGS, FORMS, LOAD, claimsOf, parse, sameInEvery, send, smtp, withEncodingsServer } from '../helpers/body-encodings';

withEncodingsServer();

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
