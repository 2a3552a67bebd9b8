// Endpoints that read a body take it as JSON, multipart/form-data or url-encoded, as PocketBase
// 0.22 does (tools/rest/multi_binder.go + echo's form binder): record auth (sign-in,
// verification, password reset and email change with the mails read from a real SMTP server, the
// OAuth2 form) answers alike in each encoding.
import { describe, expect, it } from 'vitest';
import { srv } from '../helpers/fixture-server';
import { FIXTURE_PASSWORD } from '../helpers/server';
import { hashPassword } from '../../server/services/passwords';
import { ENCODINGS, FORMS, LOAD, USER, db, parse, sameInEvery, send, smtp, tokenFrom, userToken, withEncodingsServer } from '../helpers/body-encodings';

withEncodingsServer();

describe('record auth', () => {
  it('signs in with password', async () => {
    const res = await sameInEvery(
      (enc) => send('POST', '/api/collections/users/auth-with-password', { identity: USER.username, password: FIXTURE_PASSWORD }, enc),
      (b) => ({ ...b, token: typeof b.token }),
    );
    expect(res.multipart.body.record.id).toBe(USER.id);
  });

  it('requests and confirms a verification, with the mail sent', async () => {
    for (const enc of ENCODINGS) {
      db().prepare("UPDATE users SET verified = 0, lastVerificationSentAt = '' WHERE id = ?").run(USER.id);
      const since = smtp.mails.length;
      const requested = await send('POST', '/api/collections/users/request-verification', { email: USER.email }, enc);
      expect(requested.status, enc).toBe(204);
      const mail = await smtp.waitFor((m) => smtp.mails.indexOf(m) >= since && m.to.includes(USER.email));
      const confirmed = await send('POST', '/api/collections/users/confirm-verification', { token: tokenFrom(mail.html, 'confirm-verification') }, enc);
      expect(confirmed.status, enc).toBe(204);
      expect(db().prepare('SELECT verified FROM users WHERE id = ?').get(USER.id), enc).toEqual({ verified: 1 });
    }
    const invalid = await sameInEvery((enc) => send('POST', '/api/collections/users/confirm-verification', { token: 'nope' }, enc));
    expect(invalid.json.status).toBe(400);
  });

  it('requests and confirms a password reset, with the mail sent', async () => {
    for (const enc of ENCODINGS) {
      db().prepare("UPDATE users SET lastResetSentAt = '' WHERE id = ?").run(USER.id);
      const since = smtp.mails.length;
      const requested = await send('POST', '/api/collections/users/request-password-reset', { email: USER.email }, enc);
      expect(requested.status, enc).toBe(204);
      const mail = await smtp.waitFor((m) => smtp.mails.indexOf(m) >= since && m.to.includes(USER.email));
      const password = `new-password-${enc}`;
      const confirmed = await send(
        'POST',
        '/api/collections/users/confirm-password-reset',
        { token: tokenFrom(mail.html, 'confirm-password-reset'), password, passwordConfirm: password },
        enc,
      );
      expect(confirmed.status, enc).toBe(204);
      await userToken(USER.username, password);
    }
    // back to the fixture's password for the other tests
    db().prepare('UPDATE users SET passwordHash = ? WHERE id = ?').run(await hashPassword(FIXTURE_PASSWORD), USER.id);
  });

  it('requests and confirms an email change, with the mail sent', async () => {
    let current = USER.email;
    for (const enc of ENCODINGS) {
      const token = await userToken();
      const newEmail = `moved-${enc}@example.com`;
      const requested = await send('POST', '/api/collections/users/request-email-change', { newEmail }, enc, token);
      expect(requested.status, enc).toBe(204);
      const mail = await smtp.waitFor((m) => m.to.includes(newEmail));
      const confirmed = await send('POST', '/api/collections/users/confirm-email-change', { token: tokenFrom(mail.html, 'confirm-email-change'), password: FIXTURE_PASSWORD }, enc);
      expect(confirmed.status, enc).toBe(204);
      current = (db().prepare('SELECT email FROM users WHERE id = ?').get(USER.id) as { email: string }).email;
      expect(current, enc).toBe(newEmail);
    }
    db().prepare('UPDATE users SET email = ? WHERE id = ?').run(USER.email, USER.id);
  });

  it('auth-with-oauth2: the same validation in every encoding; createData only through @jsonPayload', async () => {
    const fields = { provider: 'nope', code: 'c', codeVerifier: 'v', redirectUrl: 'https://app.example.com/cb', createData: { name: 'x' } };
    const res = await sameInEvery((enc) => send('POST', '/api/collections/users/auth-with-oauth2', fields, enc));
    expect(res.json.status).toBe(400);
    expect(res.json.body.data.provider).toBeDefined();
    for (const enc of FORMS) {
      const plain = enc === 'multipart' ? new FormData() : new URLSearchParams();
      for (const [k, v] of Object.entries({ ...fields, createData: 'x' })) plain.append(k, String(v));
      const text = await parse(await fetch(`${srv.url}/api/collections/users/auth-with-oauth2`, { method: 'POST', body: plain }));
      expect(text, enc).toEqual({ status: 400, body: { code: 400, message: LOAD, data: {} } });
    }
  });
});
