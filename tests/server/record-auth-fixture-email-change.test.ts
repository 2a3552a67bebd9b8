// Record auth over HTTP on a copy of the PocketBase 0.22.12 fixture (its accounts, its collections'
// auth options, its pre-signed tokens, valid until 2039, and deliberately expired ones):
// request-email-change and confirm-email-change, with the mails read from a real SMTP server.
import { describe, expect, it } from 'vitest';
import { srv } from '../helpers/fixture-server';
import { FIXTURE_PASSWORD, http } from '../helpers/server';
import { T, USER1, externalAuthCount, post, restoreUser1, row, smtp, withFixtureServerAndSmtp } from '../helpers/record-auth-fixture';

withFixtureServerAndSmtp();

describe('email change', () => {
  it('request-email-change needs the record itself', async () => {
    expect((await post('/api/collections/users/request-email-change', { newEmail: 'change@example.com' })).status).toBe(401);
    expect((await post('/api/collections/users/request-email-change', { newEmail: 'change@example.com' }, T.admin)).status).toBe(401);
    expect((await post('/api/collections/clients/request-email-change', { newEmail: 'change@example.com' }, T.user1)).status).toBe(403);
    expect((await post('/api/collections/demo1/request-email-change', { newEmail: 'change@example.com' }, T.user1)).status).toBe(400);
    const empty = await post('/api/collections/users/request-email-change', {}, T.user1);
    expect(empty.body.data.newEmail.code).toBe('validation_required');
    const taken = await post('/api/collections/users/request-email-change', { newEmail: 'test2@example.com' }, T.user1);
    expect(taken.body.data.newEmail).toEqual({ code: 'validation_record_email_invalid', message: 'User email already exists or it is invalid.' });
  });

  it('mails a token to the new address, and the fixture token confirms with the password', async () => {
    const snapshot = row('users', USER1);
    const res = await post('/api/collections/users/request-email-change', { newEmail: 'new-address@example.com' }, T.user1);
    expect(res.status).toBe(204);
    const mail = await smtp.waitFor((m) => m.to.includes('new-address@example.com'));
    expect(mail.subject).toBe('Confirm your acme_test new email address');
    const token = /confirm-email-change\/([\w.-]+)/.exec(mail.html)![1];
    expect(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString())).toMatchObject({
      id: USER1,
      email: 'test@example.com',
      newEmail: 'new-address@example.com',
    });

    const expired = await post('/api/collections/users/confirm-email-change', { token: T.emailChangeUser1Expired, password: FIXTURE_PASSWORD });
    expect(expired.body.data.token.code).toBe('validation_invalid_token');
    const wrongPass = await post('/api/collections/users/confirm-email-change', { token: T.emailChangeUser1, password: '1234567891' });
    expect(wrongPass.body.data).toEqual({ password: { code: 'validation_invalid_password', message: 'Missing or invalid auth record password.' } });
    const other = await post('/api/collections/clients/confirm-email-change', { token: T.emailChangeUser1, password: FIXTURE_PASSWORD });
    expect(other.body.data.token.code).toBe('validation_token_collection_mismatch');
    const blank = await http(srv.url, 'POST', '/api/collections/users/confirm-email-change', { raw: '' });
    expect(Object.keys(blank.body.data)).toEqual(['password', 'token']);

    expect((await post('/api/collections/users/confirm-email-change', { token: T.emailChangeUser1, password: FIXTURE_PASSWORD })).status).toBe(204);
    const after = row('users', USER1);
    expect(after).toMatchObject({ email: 'change@example.com', verified: 1 });
    expect(after.tokenKey).not.toBe(snapshot.tokenKey);
    expect(externalAuthCount(USER1)).toBe(0);
    // the mailed token belongs to the old tokenKey now
    const stale = await post('/api/collections/users/confirm-email-change', { token, password: FIXTURE_PASSWORD });
    expect(stale.body.data.token.code).toBe('validation_invalid_token');

    restoreUser1(snapshot);
    srv.app.db.exec(`INSERT INTO _externalAuths (id, collectionId, recordId, provider, providerId, created, updated) VALUES
      ('clmflokuq1xl341', '_pb_users_auth_', '${USER1}', 'google', 'test123', '2022-01-01 01:01:01.123Z', '2022-01-01 01:01:01.123Z'),
      ('dlmflokuq1xl342', '_pb_users_auth_', '${USER1}', 'gitlab', 'test123', '2022-01-01 01:01:01.123Z', '2022-01-01 01:01:01.123Z')`);
  });

  it('confirm-email-change refuses an address taken in the meantime', async () => {
    srv.app.db.prepare("UPDATE users SET email = 'change@example.com' WHERE id = 'bgs820n361vj1qd'").run();
    const res = await post('/api/collections/users/confirm-email-change', { token: T.emailChangeUser1, password: FIXTURE_PASSWORD });
    expect(res.body.data.token.code).toBe('validation_existing_token_email');
    srv.app.db.prepare("UPDATE users SET email = 'test3@example.com' WHERE id = 'bgs820n361vj1qd'").run();
  });
});
