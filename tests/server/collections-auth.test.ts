// /api/collections over HTTP against the real server on a fresh data dir: auth collections: their
// defaults, the auth options' validation, no change of type.
import { describe, expect, it } from 'vitest';
import { api, columns, db, withAdminServer } from '../helpers/collections-api';

withAdminServer();

describe('auth collections', () => {
  it('creates an auth collection without options with every auth method off', async () => {
    const res = await api('POST', '/api/collections', { name: 'members', type: 'auth' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.options).toEqual({
      allowEmailAuth: false,
      allowOAuth2Auth: false,
      allowUsernameAuth: false,
      exceptEmailDomains: null,
      manageRule: null,
      minPasswordLength: 0,
      onlyEmailDomains: null,
      onlyVerified: false,
      requireEmail: false,
    });
    expect(columns('members').sort()).toEqual(
      ['created', 'email', 'emailVisibility', 'id', 'lastResetSentAt', 'lastVerificationSentAt', 'passwordHash', 'tokenKey', 'updated', 'username', 'verified'].sort(),
    );
    const indexes = db().prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'members' AND name NOT LIKE 'sqlite_%' ORDER BY name").all();
    expect(indexes.map((i) => (i as { name: string }).name)).toEqual(
      [`_${res.body.id}_email_idx`, `_${res.body.id}_tokenKey_idx`, `_${res.body.id}_username_idx`].sort(),
    );
  });

  it('keeps the dashboard defaults and validates the auth options', async () => {
    const options = { allowEmailAuth: true, allowUsernameAuth: true, allowOAuth2Auth: true, minPasswordLength: 8, manageRule: 'id = @request.auth.id' };
    const res = await api('POST', '/api/collections', { name: 'staff', type: 'auth', options, schema: [{ name: 'nick', type: 'text' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.options).toMatchObject({ ...options, onlyVerified: false, requireEmail: false });

    const bad = await api('PATCH', '/api/collections/staff', {
      options: { minPasswordLength: 4, exceptEmailDomains: ['a.com'], onlyEmailDomains: ['b.com'], manageRule: 'nope = 1' },
      schema: [{ name: 'email', type: 'text' }, { name: 'passwordConfirm', type: 'text' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Failed to update the collection.');
    expect(bad.body.data.options).toEqual({
      exceptEmailDomains: { code: 'validation_empty', message: 'Must be blank.' },
      minPasswordLength: { code: 'validation_min_greater_equal_than_required', message: 'Must be no less than 5.' },
      onlyEmailDomains: { code: 'validation_empty', message: 'Must be blank.' },
    });
    expect(bad.body.data.schema['0'].name.code).toBe('validation_reserved_auth_field_name');
    expect(bad.body.data.schema['1'].name.code).toBe('validation_reserved_auth_field_name');

    const noLength = await api('PATCH', '/api/collections/staff', { options: { minPasswordLength: 0 } });
    expect(noLength.body.data.options.minPasswordLength.code).toBe('validation_required');
    const badManage = await api('PATCH', '/api/collections/staff', { options: { manageRule: 'nope = 1' } });
    expect(badManage.body.data.options.manageRule.code).toBe('validation_invalid_rule');
    const emptyManage = await api('PATCH', '/api/collections/staff', { options: { manageRule: '' } });
    expect(emptyManage.body.data.options).toEqual({ manageRule: { code: 'validation_nil_or_not_empty_required', message: 'Cannot be blank.' } });

    const badDomains = await api('PATCH', '/api/collections/staff', { options: { onlyEmailDomains: ['ok.com', 'not a domain', ''], minPasswordLength: 73 } });
    expect(badDomains.body.data.options).toEqual({
      minPasswordLength: { code: 'validation_max_less_equal_than_required', message: 'Must be no greater than 72.' },
      onlyEmailDomains: { 1: { code: 'validation_is_domain', message: 'Must be a valid domain.' } },
    });
    // 0 (no length) is fine while password sign-in is off
    const noPasswordAuth = await api('PATCH', '/api/collections/staff', { options: { allowEmailAuth: false, allowUsernameAuth: false, minPasswordLength: 0 } });
    expect(noPasswordAuth.status, JSON.stringify(noPasswordAuth.body)).toBe(200);
  });

  it('refuses to change the collection type', async () => {
    const res = await api('PATCH', '/api/collections/staff', { type: 'base' });
    expect(res.body.data.type.code).toBe('validation_collection_type_change');
  });
});
