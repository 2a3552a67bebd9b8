// A record create or update judges its system fields (id, and an auth collection's username, email,
// verified and password fields) with schemas/requests/records/upsert.schema.json and the request's
// variant of it, in 0.22's order, codes and words (forms.RecordUpsert: ozzo's Length, Match,
// Required, the email rules, the old password of a user changing their own).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startServer, type TestServer } from '../helpers/server';

let srv: TestServer;
let adminToken = '';
const api = (method: string, p: string, body?: unknown, token = adminToken) => http(srv.url, method, p, { body, token });
const errorsOf = (res: { body: unknown }) => (res.body as { data: Record<string, { code: string; message: string }> }).data;

beforeAll(async () => {
  srv = await startServer();
  await api('POST', '/api/admins', { email: 'admin@example.com', password: 'admin-password-1', passwordConfirm: 'admin-password-1' }, '');
  adminToken = (await api('POST', '/api/admins/auth-with-password', { identity: 'admin@example.com', password: 'admin-password-1' }, '')).body.token;
  await api('POST', '/api/collections', { name: 'notes', type: 'base', createRule: '', schema: [{ name: 'title', type: 'text' }] });
  await api('POST', '/api/collections', {
    name: 'members',
    type: 'auth',
    createRule: '',
    updateRule: 'id = @request.auth.id',
    options: { allowEmailAuth: true, minPasswordLength: 10, requireEmail: true, exceptEmailDomains: ['blocked.example'] },
    schema: [],
  });
}, 60_000);

afterAll(async () => srv?.close());

describe('a new record', () => {
  it("checks a custom id's length and characters, then that it is free", async () => {
    expect(errorsOf(await api('POST', '/api/collections/notes/records', { id: 'short' }, ''))).toEqual({
      id: { code: 'validation_length_invalid', message: 'The length must be exactly 15.' },
    });
    expect(errorsOf(await api('POST', '/api/collections/notes/records', { id: 'abc/efghijklmno' }, ''))).toEqual({
      id: { code: 'validation_match_invalid', message: 'Must be in a valid format.' },
    });
    expect((await api('POST', '/api/collections/notes/records', { id: 'abcdefghijklmno' }, '')).status).toBe(200);
    expect(errorsOf(await api('POST', '/api/collections/notes/records', { id: 'abcdefghijklmno' }, ''))).toEqual({
      id: { code: 'validation_invalid_id', message: 'The model id is invalid or already exists.' },
    });
  });

  it('words every auth field as 0.22 does, with the collection minimum password length', async () => {
    const res = await api('POST', '/api/collections/members/records', { username: 'ab', email: 'a@localhost', password: 'short', passwordConfirm: 'other' }, '');
    expect(res.status).toBe(400);
    expect(errorsOf(res)).toEqual({
      email: { code: 'validation_is_email', message: 'Must be a valid email address.' },
      password: { code: 'validation_length_out_of_range', message: 'The length must be between 10 and 72.' },
      passwordConfirm: { code: 'validation_values_mismatch', message: "Values don't match." },
      username: { code: 'validation_length_out_of_range', message: 'The length must be between 3 and 150.' },
    });
    expect(errorsOf(await api('POST', '/api/collections/members/records', { username: '-dash', email: 'a@blocked.example' }, ''))).toEqual({
      email: { code: 'validation_email_domain_not_allowed', message: 'Email domain is not allowed.' },
      password: { code: 'validation_required', message: 'Cannot be blank.' },
      passwordConfirm: { code: 'validation_required', message: 'Cannot be blank.' },
      username: { code: 'validation_match_invalid', message: 'Must be in a valid format.' },
    });
    expect(errorsOf(await api('POST', '/api/collections/members/records', { password: 'x'.repeat(73), passwordConfirm: 'x'.repeat(73) }, ''))).toEqual({
      email: { code: 'validation_required', message: 'Cannot be blank.' },
      password: { code: 'validation_length_out_of_range', message: 'The length must be between 10 and 72.' },
    });
  });
});

describe('an update by the user', () => {
  let id = '';
  let token = '';
  beforeAll(async () => {
    const created = await api('POST', '/api/collections/members/records', { username: 'member_1', email: 'm@example.com', password: 'member-pass-1', passwordConfirm: 'member-pass-1' }, '');
    id = created.body.id;
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const signedIn = await api('POST', '/api/collections/members/auth-with-password', { identity: 'm@example.com', password: 'member-pass-1' }, '');
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    token = signedIn.body.token;
  });

  it('may not change the email or verified state, and needs the old password for a new one', async () => {
    const res = await api('PATCH', `/api/collections/members/records/${id}`, { email: 'other@example.com', verified: true, password: 'member-pass-2', passwordConfirm: 'member-pass-2' }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(errorsOf(res)).toEqual({
      email: { code: 'validation_in_invalid', message: 'Must be a valid value.' },
      oldPassword: { code: 'validation_required', message: 'Cannot be blank.' },
      verified: { code: 'validation_in_invalid', message: 'Must be a valid value.' },
    });
    const wrong = await api('PATCH', `/api/collections/members/records/${id}`, { password: 'member-pass-2', passwordConfirm: 'member-pass-2', oldPassword: 'not-it-at-all' }, token);
    expect(errorsOf(wrong)).toEqual({ oldPassword: { code: 'validation_invalid_old_password', message: 'Missing or invalid old password.' } });
    const ok = await api('PATCH', `/api/collections/members/records/${id}`, { password: 'member-pass-2', passwordConfirm: 'member-pass-2', oldPassword: 'member-pass-1' }, token);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('needs a username on an update, and a password confirmation once a password is given', async () => {
    const res = await api('PATCH', `/api/collections/members/records/${id}`, { username: '', password: 'member-pass-3' });
    expect(errorsOf(res)).toEqual({
      passwordConfirm: { code: 'validation_required', message: 'Cannot be blank.' },
      username: { code: 'validation_required', message: 'Cannot be blank.' },
    });
  });
});
