// POST /api/settings/apple/generate-client-secret over HTTP: the JWT verifies with the public half of
// the key and carries what Apple requires (iss = team id, sub = client id, aud = Apple, exp within
// the duration, kid header); 0.22's validation codes for every field; admins only.
import { generateKeyPairSync } from 'node:crypto';
import { decodeProtectedHeader, importSPKI, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startServer, type TestServer } from '../helpers/server';

const PATH = '/api/settings/apple/generate-client-secret';
let srv: TestServer;
let token = '';
const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const privateKey = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const publicKey = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const valid = { clientId: 'com.example.app', teamId: 'TEAM123456', keyId: 'KEY1234567', privateKey: `\n${privateKey}\n`, duration: 3600 };
const post = (body: unknown, auth = token) => http(srv.url, 'POST', PATH, { body, token: auth });

beforeAll(async () => {
  srv = await startServer();
  const admin = { email: 'admin@example.com', password: 'admin-password-1' };
  await http(srv.url, 'POST', '/api/admins', { body: { ...admin, passwordConfirm: admin.password } });
  token = (await http(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: admin.email, password: admin.password } })).body.token;
});
afterAll(() => srv?.close());

describe('Apple client secret', () => {
  it('signs an ES256 JWT Apple accepts', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await post(valid);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body)).toEqual(['secret']);
    expect(decodeProtectedHeader(res.body.secret)).toMatchObject({ alg: 'ES256', kid: 'KEY1234567' });
    const { payload } = await jwtVerify(res.body.secret, await importSPKI(publicKey, 'ES256'), {
      issuer: 'TEAM123456',
      subject: 'com.example.app',
      audience: 'https://appleid.apple.com',
    });
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(payload.iat!).toBeGreaterThanOrEqual(before);
  });

  it("answers 0.22's validation codes and never a 500", async () => {
    const blank = await post({});
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe('Invalid client secret data.');
    for (const f of ['clientId', 'teamId', 'keyId', 'privateKey', 'duration']) expect(blank.body.data[f].code, f).toBe('validation_required');

    const wrong = await post({ ...valid, teamId: 'SHORT', keyId: 'WAYTOOLONGKEY', duration: 15777001, privateKey: 'not a key' });
    expect(wrong.body.data).toEqual({
      duration: { code: 'validation_max_less_equal_than_required', message: 'Must be no greater than 15777000.' },
      keyId: { code: 'validation_length_invalid', message: 'The length must be exactly 10.' },
      privateKey: { code: 'validation_match_invalid', message: 'Must be in a valid format.' },
      teamId: { code: 'validation_length_invalid', message: 'The length must be exactly 10.' },
    });
    expect((await post({ ...valid, duration: 0 })).body.data.duration.code).toBe('validation_required');
    expect((await post({ ...valid, duration: 15777000 })).status).toBe(200);

    const broken = await post({ ...valid, privateKey: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----' });
    expect(broken.status).toBe(400);
    expect(broken.body.message).toMatch(/^Failed to generate client secret\. Raw error: /);
    expect((await post({ ...valid, duration: 'soon' })).status).toBe(400);
    expect((await http(srv.url, 'POST', PATH, { raw: '{oops' , token })).status).toBe(400);
  });

  it('is for admins only', async () => {
    expect((await post(valid, '')).status).toBe(401);
  });
});
