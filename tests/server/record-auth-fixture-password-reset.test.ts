// Record auth over HTTP on a copy of the PocketBase 0.22.12 fixture (its accounts, its collections'
// auth options, its pre-signed tokens, valid until 2039, and deliberately expired ones):
// request-password-reset and confirm-password-reset, with the mails read from a real SMTP server.
import { describe, expect, it } from 'vitest';
import { srv } from '../helpers/fixture-server';
import { FIXTURE_PASSWORD, http } from '../helpers/server';
import { T, USER1, post, restoreUser1, row, smtp, withFixtureServerAndSmtp } from '../helpers/record-auth-fixture';

withFixtureServerAndSmtp();

describe('password reset', () => {
  it('request-password-reset sends the mail; nologin (no password auth) is 400', async () => {
    const res = await post('/api/collections/users/request-password-reset', { email: 'test@example.com' });
    expect(res.status).toBe(204);
    const mail = await smtp.waitFor((m) => m.to.includes('test@example.com') && /Reset/.test(m.subject));
    expect(mail.subject).toBe('Reset your acme_test password');
    expect(mail.html).toMatch(/confirm-password-reset\/[\w.-]+/);
    expect((await post('/api/collections/users/request-password-reset', { email: 'missing@example.com' })).status).toBe(204);

    const nologin = await post('/api/collections/nologin/request-password-reset', { email: 'test@example.com' });
    expect(nologin.body).toEqual({ code: 400, message: 'The collection is not configured to allow password authentication.', data: {} });
    const blank = await post('/api/collections/users/request-password-reset', {});
    expect(blank.body.data).toEqual({ email: { code: 'validation_required', message: 'Cannot be blank.' } });
    srv.app.db.prepare("UPDATE users SET lastResetSentAt = '' WHERE id = ?").run(USER1);
  });

  it('confirm-password-reset validates like 0.22', async () => {
    const res = await post('/api/collections/users/confirm-password-reset', {
      token: T.resetUser1Expired,
      password: '1234567',
      passwordConfirm: '7654321',
    });
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual({
      password: { code: 'validation_length_out_of_range', message: 'The length must be between 8 and 100.' },
      passwordConfirm: { code: 'validation_values_mismatch', message: "Values don't match." },
      token: { code: 'validation_invalid_token', message: 'Invalid or expired token.' },
    });
    const empty = await http(srv.url, 'POST', '/api/collections/users/confirm-password-reset', { raw: '' });
    expect(Object.keys(empty.body.data)).toEqual(['password', 'passwordConfirm', 'token']);
    const other = await post('/api/collections/clients/confirm-password-reset', {
      token: T.resetUser1,
      password: '12345678',
      passwordConfirm: '12345678',
    });
    expect(other.body.data.token.code).toBe('validation_token_collection_mismatch');
    // 0.22's limit on this path is 100 characters; its bcrypt then refuses more than 72 bytes
    const tooLong = await post('/api/collections/users/confirm-password-reset', {
      token: T.resetUser1,
      password: 'x'.repeat(101),
      passwordConfirm: 'x'.repeat(101),
    });
    expect(tooLong.body.data.password).toEqual({ code: 'validation_length_out_of_range', message: 'The length must be between 8 and 100.' });
    const beyondBcrypt = await post('/api/collections/users/confirm-password-reset', {
      token: T.resetUser1,
      password: 'x'.repeat(73),
      passwordConfirm: 'x'.repeat(73),
    });
    expect(beyondBcrypt.status).toBe(400);
    expect(beyondBcrypt.body).toEqual({ code: 400, message: 'Something went wrong while processing your request.', data: {} });
  });

  it('the fixture reset token sets the password, renews the tokenKey and verifies the unverified user', async () => {
    const snapshot = row('users', USER1);
    const res = await post('/api/collections/users/confirm-password-reset', {
      token: T.resetUser1,
      password: 'brand-new-pass',
      passwordConfirm: 'brand-new-pass',
    });
    expect(res.status).toBe(204);
    const after = row('users', USER1);
    expect(after.tokenKey).not.toBe(snapshot.tokenKey);
    expect(after.verified).toBe(1);
    // old tokens are dead, the reset token cannot be used twice
    expect((await post('/api/collections/users/auth-refresh', undefined, T.user1)).status).toBe(401);
    const again = await post('/api/collections/users/confirm-password-reset', {
      token: T.resetUser1,
      password: 'another-pass-1',
      passwordConfirm: 'another-pass-1',
    });
    expect(again.body.data.token.code).toBe('validation_invalid_token');
    expect((await post('/api/collections/users/auth-with-password', { identity: 'test@example.com', password: FIXTURE_PASSWORD })).status).toBe(400);
    expect((await post('/api/collections/users/auth-with-password', { identity: 'test@example.com', password: 'brand-new-pass' })).status).toBe(200);
    restoreUser1(snapshot);
    expect((await post('/api/collections/users/auth-refresh', undefined, T.user1)).status).toBe(200);
  });
});
