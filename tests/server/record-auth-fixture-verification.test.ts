// Record auth over HTTP on a copy of the PocketBase 0.22.12 fixture (its accounts, its collections'
// auth options, its pre-signed tokens, valid until 2039, and deliberately expired ones):
// request-verification and confirm-verification, with the mails read from a real SMTP server.
import { describe, expect, it, vi } from 'vitest';
import { srv } from '../helpers/fixture-server';
import { http } from '../helpers/server';
import { T, USER1, externalAuthCount, post, restoreUser1, row, smtp, withFixtureServerAndSmtp } from '../helpers/record-auth-fixture';

withFixtureServerAndSmtp();

describe('verification', () => {
  it('request-verification: 204 for any well-formed email, a mail only for unverified accounts', async () => {
    const before = smtp.mails.length;
    for (const email of ['missing@example.com', 'test2@example.com']) {
      expect((await post('/api/collections/users/request-verification', { email })).status).toBe(204);
    }
    expect((await post('/api/collections/users/request-verification', { email: 'test@example.com' })).status).toBe(204);
    const mail = await smtp.waitFor((m) => m.to.includes('test@example.com') && /Verify/.test(m.subject));
    expect(mail.subject).toBe('Verify your acme_test email');
    const token = /confirm-verification\/([\w.-]+)/.exec(mail.html)?.[1];
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(mail.html).toContain(`http://localhost:8090/_/#/auth/confirm-verification/${token}`);
    const claims = JSON.parse(Buffer.from(token!.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ id: USER1, email: 'test@example.com', collectionId: '_pb_users_auth_', type: 'authRecord' });
    // stamped once the mail is sent (0.22's order): the SMTP server may see the mail first
    await vi.waitFor(() => expect(row('users', USER1).lastVerificationSentAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z$/), { timeout: 5000 });

    // a second request within 2 minutes sends nothing more
    expect((await post('/api/collections/users/request-verification', { email: 'test@example.com' })).status).toBe(204);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails.length).toBe(before + 1);
    srv.app.db.prepare("UPDATE users SET lastVerificationSentAt = '' WHERE id = ?").run(USER1);
  });

  it('request-verification: missing or malformed email is 400', async () => {
    const blank = await http(srv.url, 'POST', '/api/collections/users/request-verification', { raw: '' });
    expect(blank.body).toEqual({
      code: 400,
      message: 'An error occurred while validating the form.',
      data: { email: { code: 'validation_required', message: 'Cannot be blank.' } },
    });
    expect((await post('/api/collections/users/request-verification', { email: 'nope' })).body.data.email.code).toBe('validation_is_email');
    expect((await post('/api/collections/demo1/request-verification', { email: 'a@b.co' })).status).toBe(400);
  });

  it('confirm-verification: checks the token, then verifies (and drops OAuth2 links made while unverified)', async () => {
    const snapshot = row('users', USER1);
    const expired = await post('/api/collections/users/confirm-verification', { token: T.verifyUser1Expired });
    expect(expired.body.data.token.code).toBe('validation_invalid_token');
    const mismatch = await post('/api/collections/clients/confirm-verification', { token: T.verifyUser1 });
    expect(mismatch.body.data.token.code).toBe('validation_token_collection_mismatch');
    const notAuth = await post('/api/collections/demo1/confirm-verification', { token: T.verifyUser1 });
    expect(notAuth.body).toEqual({ code: 400, message: 'Unsupported collection type.', data: {} });
    // a reset token is not a verification token
    expect((await post('/api/collections/users/confirm-verification', { token: T.resetUser1 })).body.data.token.code).toBe(
      'validation_invalid_token',
    );
    // an auth token has no email claim
    expect((await post('/api/collections/users/confirm-verification', { token: T.user1 })).body.data.token.code).toBe(
      'validation_invalid_token_claims',
    );

    expect(externalAuthCount(USER1)).toBe(2);
    expect((await post('/api/collections/users/confirm-verification', { token: T.verifyUser1 })).status).toBe(204);
    expect(row('users', USER1).verified).toBe(1);
    expect(externalAuthCount(USER1)).toBe(0);

    // already verified: still 204; the nologin collection may verify too
    expect((await post('/api/collections/users/confirm-verification', { token: T.verifyUser2 })).status).toBe(204);
    expect((await post('/api/collections/nologin/confirm-verification', { token: T.verifyNologin })).status).toBe(204);
    expect(row('nologin', 'dc49k6jgejn40h3').verified).toBe(1);

    restoreUser1(snapshot);
    srv.app.db.exec(`INSERT INTO _externalAuths (id, collectionId, recordId, provider, providerId, created, updated) VALUES
      ('clmflokuq1xl341', '_pb_users_auth_', '${USER1}', 'google', 'test123', '2022-01-01 01:01:01.123Z', '2022-01-01 01:01:01.123Z'),
      ('dlmflokuq1xl342', '_pb_users_auth_', '${USER1}', 'gitlab', 'test123', '2022-01-01 01:01:01.123Z', '2022-01-01 01:01:01.123Z')`);
  });
});
