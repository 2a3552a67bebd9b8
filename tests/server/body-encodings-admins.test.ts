// Endpoints that read a body take it as JSON, multipart/form-data or url-encoded, as PocketBase
// 0.22 does (tools/rest/multi_binder.go + echo's form binder): the admins' endpoints
// (sign-in, create and update, password reset) answer alike in each encoding, form text typed as
// 0.22 types it ("3" → an int, objects only through `@jsonPayload`).
import { describe, expect, it } from 'vitest';
import { srv } from '../helpers/fixture-server';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_PASSWORD, http } from '../helpers/server';
import { ADMIN, INVALID_FORMAT, claimsOf, parse, sameInEvery, send, sendRaw, withEncodingsServer } from '../helpers/body-encodings';

withEncodingsServer();

describe('admins', () => {
  it('signs in with a multipart form as pocketbase-typegen does', async () => {
    const form = new FormData();
    form.append('identity', ADMIN);
    form.append('password', FIXTURE_PASSWORD);
    const res = await parse(await fetch(`${srv.url}/api/admins/auth-with-password`, { method: 'POST', body: form }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(claimsOf(res.body.token).type).toBe('admin');
    expect(res.body.admin.email).toBe(ADMIN);
  });

  it('signs in, and fails to, alike in every encoding', async () => {
    await sameInEvery(
      (enc) => send('POST', '/api/admins/auth-with-password', { identity: ADMIN, password: FIXTURE_PASSWORD }, enc),
      (b) => ({ ...b, token: typeof b.token }),
    );
    const failed = await sameInEvery((enc) => send('POST', '/api/admins/auth-with-password', { identity: 'test2@example.com', password: 'wrong-password' }, enc));
    expect(failed.json).toEqual({ status: 400, body: { code: 400, message: 'Failed to authenticate.', data: {} } });
    const invalid = await sameInEvery((enc) => send('POST', '/api/admins/auth-with-password', { identity: 'not-an-email' }, enc));
    expect(Object.keys(invalid.json.body.data).sort()).toEqual(['identity', 'password']);
  });

  it('binds form fields as 0.22 does: any case, the URL query too, @jsonPayload first and ignored when undecodable', async () => {
    const path = '/api/admins/auth-with-password';
    const signIn = async (form: FormData | URLSearchParams, query = '') =>
      parse(await fetch(`${srv.url}${path}${query}`, { method: 'POST', body: form }));
    for (const make of [() => new FormData(), () => new URLSearchParams()]) {
      const anyCase = make();
      anyCase.append('IDENTITY', ADMIN);
      anyCase.append('Password', FIXTURE_PASSWORD);
      expect((await signIn(anyCase)).status).toBe(200);

      const fromQuery = make();
      fromQuery.append('password', FIXTURE_PASSWORD);
      expect((await signIn(fromQuery, `?identity=${encodeURIComponent(ADMIN)}`)).status).toBe(200);

      const payloadThenFields = make();
      payloadThenFields.append('@jsonPayload', '{ not json');
      payloadThenFields.append('@jsonPayload', JSON.stringify({ identity: 'someone-else@example.com', password: FIXTURE_PASSWORD }));
      payloadThenFields.append('identity', ADMIN);
      expect((await signIn(payloadThenFields)).status).toBe(200);

      // a payload value of the wrong type is skipped (Go's decoder), not a load error
      const mistyped = make();
      mistyped.append('@jsonPayload', JSON.stringify({ identity: 42, password: FIXTURE_PASSWORD }));
      const res = await signIn(mistyped);
      expect(res.status).toBe(400);
      expect(res.body.data.identity.code).toBe('validation_required');
    }
    // JSON bodies never read the query
    const json = await http(srv.url, 'POST', `${path}?identity=${encodeURIComponent(ADMIN)}`, { body: { password: FIXTURE_PASSWORD } });
    expect(json.body.data.identity.code).toBe('validation_required');
  });

  it('creates and updates admins with the avatar typed from text; text that is no int is the load error', async () => {
    const created = await sameInEvery(
      (enc) => send('POST', '/api/admins', { email: `admin-${enc}@example.com`, password: 'password-123', passwordConfirm: 'password-123', avatar: 3 }, enc, FIXTURE_ADMIN_TOKEN),
      (b) => ({ ...b, id: typeof b.id, email: b.email.replace(/-\w+@/, '-x@'), created: typeof b.created, updated: typeof b.updated }),
    );
    expect(created.multipart.body.avatar).toBe(3);
    await sameInEvery(
      (enc) => send('PATCH', `/api/admins/${created[enc].body.id}`, { avatar: 5 }, enc, FIXTURE_ADMIN_TOKEN),
      (b) => ({ avatar: b.avatar }),
    );
    const bad = await sameInEvery((enc) => send('POST', '/api/admins', { email: 'x@example.com', avatar: 'three' }, enc, FIXTURE_ADMIN_TOKEN));
    expect(bad.json.body).toEqual({ code: 400, message: INVALID_FORMAT, data: {} });
    // "" is 0 for an int field
    const empty = await sendRaw('POST', '/api/admins', `email=empty-avatar@example.com&password=password-123&passwordConfirm=password-123&avatar=`, 'application/x-www-form-urlencoded', FIXTURE_ADMIN_TOKEN);
    expect(empty.status).toBe(200);
    expect(empty.body.avatar).toBe(0);
  });

  it('requests and confirms a password reset', async () => {
    const requested = await sameInEvery((enc) => send('POST', '/api/admins/request-password-reset', { email: 'nobody@example.com' }, enc));
    expect(requested.json.status).toBe(204);
    const invalid = await sameInEvery((enc) => send('POST', '/api/admins/request-password-reset', { email: 'not-an-email' }, enc));
    expect(invalid.json.body.data.email.code).toBe('validation_is_email');
    const confirm = await sameInEvery((enc) =>
      send('POST', '/api/admins/confirm-password-reset', { token: 'not-a-token', password: 'password-123', passwordConfirm: 'password-123' }, enc),
    );
    expect(confirm.json.body.data.token.code).toBe('validation_invalid_token');
  });
});
