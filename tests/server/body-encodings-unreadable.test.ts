// Endpoints that read a body take it as JSON, multipart/form-data or url-encoded, as PocketBase
// 0.22 does (tools/rest/multi_binder.go + echo's form binder): an unreadable body of each
// encoding gets the endpoint's 0.22 "load" 400 (never a 500); one no endpoint reads is ignored; the
// body limits.
import { describe, expect, it } from 'vitest';
import { srv } from '../helpers/fixture-server';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_PASSWORD } from '../helpers/server';
import { ADMIN, BAD_BODIES, ENCODINGS, GENERIC, INVALID_FORMAT, LOAD, parse, sendRaw, userToken, withEncodingsServer } from '../helpers/body-encodings';

withEncodingsServer();

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
