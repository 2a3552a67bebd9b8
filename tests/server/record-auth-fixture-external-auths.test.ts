// Record auth over HTTP on a copy of the PocketBase 0.22.12 fixture (its accounts, its collections'
// auth options, its pre-signed tokens, valid until 2039, and deliberately expired ones):
// listing and unlinking a record's external auths.
import { describe, expect, it } from 'vitest';
import { srv } from '../helpers/fixture-server';
import { http } from '../helpers/server';
import { T, USER1, USER2, externalAuthCount, get, withFixtureServerAndSmtp } from '../helpers/record-auth-fixture';

withFixtureServerAndSmtp();

describe('external auths', () => {
  const list = (coll: string, id: string, token?: string) => get(`/api/collections/${coll}/records/${id}/external-auths`, token);
  const unlink = (coll: string, id: string, provider: string, token?: string) =>
    http(srv.url, 'DELETE', `/api/collections/${coll}/records/${id}/external-auths/${provider}`, { token });

  it('lists a record\u2019s links to admins and the owner only', async () => {
    expect((await list('users', USER1)).status).toBe(401);
    const admin = await list('users', USER1, T.admin);
    expect(admin.status).toBe(200);
    expect(admin.body).toEqual([
      {
        id: 'clmflokuq1xl341',
        created: '2022-01-01 01:01:01.123Z',
        updated: '2022-01-01 01:01:01.123Z',
        collectionId: '_pb_users_auth_',
        recordId: USER1,
        provider: 'google',
        providerId: 'test123',
      },
      expect.objectContaining({ id: 'dlmflokuq1xl342', provider: 'gitlab' }),
    ]);
    expect((await list('users', USER1, T.user1)).body).toHaveLength(2);
    expect((await list('users', USER2, T.user2)).body).toEqual([]);
    expect((await list('users', USER1, T.user2)).status).toBe(403);
    expect((await list('clients', 'o1y0dd0spd786md', T.user2)).status).toBe(403);
    expect((await list('users', 'missing', T.admin)).status).toBe(404);
    expect((await list('demo1', USER1, T.admin)).status).toBe(400);

    const sdk = srv.client();
    sdk.authStore.save(T.user1, null);
    expect(await sdk.collection('users').listExternalAuths(USER1)).toHaveLength(2);
  });

  it('nologin: managers (manageRule) may list another record\u2019s links', async () => {
    // nologin's manageRule is @request.auth.collectionName = 'users'
    expect((await list('nologin', 'dc49k6jgejn40h3', T.user1)).status).toBe(200);
    expect((await list('nologin', 'dc49k6jgejn40h3', T.clientVerified)).status).toBe(403);
  });

  it('unlinks a provider (owner or admin), 404 when not linked', async () => {
    expect((await unlink('users', USER1, 'google')).status).toBe(401);
    expect((await unlink('users', USER1, 'google', T.user2)).status).toBe(403);
    expect((await unlink('users', 'missing', 'google', T.admin)).status).toBe(404);
    const notLinked = await unlink('users', USER1, 'facebook', T.admin);
    expect(notLinked.status).toBe(404);
    expect(notLinked.body.data).toEqual({});
    expect((await unlink('users', USER1, 'google', T.user1)).status).toBe(204);
    expect((await list('users', USER1, T.admin)).body.map((a: { provider: string }) => a.provider)).toEqual(['gitlab']);

    const sdk = srv.client();
    sdk.authStore.save(T.admin, null);
    expect(await sdk.collection('users').unlinkExternalAuth(USER1, 'gitlab')).toBe(true);
    expect(externalAuthCount(USER1)).toBe(0);
  });

  it('rejects unknown routes and methods with the 0.22 404 envelope', async () => {
    const res = await http(srv.url, 'PUT', `/api/collections/users/records/${USER1}/external-auths`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 404, message: 'Not Found.', data: {} });
  });
});
