// verifyAccountToken keeps the tokens whose signature it checked (server/services/tokens.ts): a kept
// token must still fail once expired, under another tokenKey or secret, and when tampered with.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newAdminAuthToken, verifyAccountToken, type TokenSettings } from '../../server/services/tokens';

const settings = (secret: string, duration = 60) =>
  Object.fromEntries(
    ['adminAuthToken', 'adminPasswordResetToken', 'adminFileToken', 'recordAuthToken', 'recordPasswordResetToken', 'recordEmailChangeToken', 'recordVerificationToken', 'recordFileToken'].map((k) => [k, { secret, duration }]),
  ) as TokenSettings;

afterEach(() => vi.useRealTimers());

describe('verifyAccountToken with kept signatures', () => {
  it('verifies the same token again, and refuses it under another key or secret', () => {
    const s = settings('secret-one');
    const token = newAdminAuthToken(s, { id: 'a1', tokenKey: 'key-1' });
    expect(verifyAccountToken(s, 'adminAuthToken', 'key-1', token)?.id).toBe('a1');
    expect(verifyAccountToken(s, 'adminAuthToken', 'key-1', token)?.id).toBe('a1');
    expect(verifyAccountToken(s, 'adminAuthToken', 'key-2', token)).toBeNull();
    expect(verifyAccountToken(settings('secret-two'), 'adminAuthToken', 'key-1', token)).toBeNull();
  });

  it('refuses a kept token once it has expired', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const s = settings('secret-exp', 10);
    const token = newAdminAuthToken(s, { id: 'a2', tokenKey: 'key-x' });
    expect(verifyAccountToken(s, 'adminAuthToken', 'key-x', token)).not.toBeNull();
    vi.setSystemTime(new Date('2030-01-01T00:00:11Z'));
    expect(verifyAccountToken(s, 'adminAuthToken', 'key-x', token)).toBeNull();
  });

  it('refuses a tampered token, and a caller changing the claims it got changes nothing kept', () => {
    const s = settings('secret-three');
    const token = newAdminAuthToken(s, { id: 'a3', tokenKey: 'k' });
    const claims = verifyAccountToken(s, 'adminAuthToken', 'k', token)!;
    claims.id = 'someone else';
    expect(verifyAccountToken(s, 'adminAuthToken', 'k', token)?.id).toBe('a3');
    const [h, , sig] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ exp: 4102444800, id: 'a4', type: 'admin' })).toString('base64url')}.${sig}`;
    expect(verifyAccountToken(s, 'adminAuthToken', 'k', forged)).toBeNull();
  });
});
