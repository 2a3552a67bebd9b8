// @vitest-environment jsdom
// The admin session's storage: kept under pocketbase_auth and mirrored under the
// persistent admin auth key of the original dashboard, in both directions.
import { beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_AUTH_STORAGE_KEY, AUTH_STORAGE_KEY, AdminAuthStore } from '../../src/api/admin-session';

const token = (payload: object) => `x.${btoa(JSON.stringify(payload)).replace(/=+$/, '')}.y`;
const ADMIN_TOKEN = token({ id: 'a1', type: 'admin', exp: Math.floor(Date.now() / 1000) + 3600 });
const ADMIN = { id: 'a1', email: 'a@example.com', avatar: 0, created: '', updated: '' };

beforeEach(() => localStorage.clear());

describe('admin auth store', () => {
  it('mirrors an admin session under the persistent admin key and clears both on logout', () => {
    const store = new AdminAuthStore();
    store.save(ADMIN_TOKEN, ADMIN as never);
    expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY)!).token).toBe(ADMIN_TOKEN);
    expect(JSON.parse(localStorage.getItem(ADMIN_AUTH_STORAGE_KEY)!)).toMatchObject({ token: ADMIN_TOKEN, model: { email: 'a@example.com' } });
    store.clear();
    expect(localStorage.getItem(ADMIN_AUTH_STORAGE_KEY)).toBeNull();
    expect(store.token).toBe('');
  });

  it('starts signed in from a session the original dashboard stored', () => {
    localStorage.setItem(ADMIN_AUTH_STORAGE_KEY, JSON.stringify({ token: ADMIN_TOKEN, model: ADMIN }));
    const store = new AdminAuthStore();
    expect(store.token).toBe(ADMIN_TOKEN);
    expect(store.isAdmin).toBe(true);
    expect((store.model as { email?: string }).email).toBe('a@example.com');
  });

  it('never puts an auth record session under the admin key', () => {
    const store = new AdminAuthStore();
    store.save(token({ id: 'u1', type: 'authRecord', exp: 9999999999 }), { id: 'u1', collectionId: 'c1' } as never);
    expect(localStorage.getItem(ADMIN_AUTH_STORAGE_KEY)).toBeNull();
  });
});

describe('refresh timing', () => {
  it('refreshes 30 minutes before expiry, but a short-lived token at half its life, never in a loop', async () => {
    const { refreshDelayMs, TOKEN_REFRESH_THRESHOLD } = await import('../../src/api/admin-session');
    const now = 1_000_000_000_000;
    const inDays = now / 1000 + 14 * 86400;
    expect(refreshDelayMs(inDays, now)).toBe((14 * 86400 - TOKEN_REFRESH_THRESHOLD) * 1000);
    expect(refreshDelayMs(now / 1000 + 8, now)).toBe(4000);
    expect(refreshDelayMs(now / 1000 - 5, now)).toBe(1000);
    expect(refreshDelayMs(now / 1000 + 10 * 365 * 86400, now)).toBe(2 ** 31 - 1);
  });
});
