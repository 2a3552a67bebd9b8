// /api/files over HTTP on a copy of the PocketBase 0.22.12 fixture: file tokens, and protected
// files with and without them (the fixture's own tokens, viewRules, views, a rotated tokenKey).
import { describe, expect, it } from 'vitest';
import { srv, withFixtureServer } from '../helpers/fixture-server';
import { http } from '../helpers/server';
import { PROTECTED, USER1, USERS, fetchRaw, fixtureFile } from '../helpers/files';

const ADMIN_AUTH =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6InN5d2JoZWNuaDQ2cmhtMCIsInR5cGUiOiJhZG1pbiIsImV4cCI6MjIwODk4NTI2MX0.M1m--VOqGyv0d23eeUc0r9xE8ZzHaYVmVFw1VZW6gT8';
const USER1_AUTH =
  'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6IjRxMXhsY2xtZmxva3UzMyIsInR5cGUiOiJhdXRoUmVjb3JkIiwiY29sbGVjdGlvbklkIjoiX3BiX3VzZXJzX2F1dGhfIiwiZXhwIjoyMjA4OTg1MjYxfQ.UwD8JvkbQtXpymT09d7J6fdA0aP9g4FJ1GPh_ggEkzc';
// the fixture's file tokens: valid until 2029-12-31, and deliberately expired ones (2021-12-31)
const ADMIN_FILE_2029 =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6InN5d2JoZWNuaDQ2cmhtMCIsImV4cCI6MTg5MzQ1MjQ2MSwidHlwZSI6ImFkbWluIn0.LyAMpSfaHVsuUqIlqqEbhDQSdFzoPz_EIDcb2VJMBsU';
const ADMIN_FILE_EXPIRED =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6InN5d2JoZWNuaDQ2cmhtMCIsImV4cCI6MTY0MDk5MTY2MSwidHlwZSI6ImFkbWluIn0.g7Q_3UX6H--JWJ7yt1Hoe-1ugTX1KpbKzdt0zjGSe-E';
const USER1_FILE_2029 =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6IjRxMXhsY2xtZmxva3UzMyIsImV4cCI6MTg5MzQ1MjQ2MSwiY29sbGVjdGlvbklkIjoiX3BiX3VzZXJzX2F1dGhfIiwidHlwZSI6ImF1dGhSZWNvcmQifQ.0d_0EO6kfn9ijZIQWAqgRi8Bo1z7MKcg1LQpXhQsEPk';
const FIXTURE_FILE_TOKENS_VALID = Date.now() < Date.UTC(2029, 11, 31, 23, 0, 0);

const FORBIDDEN = { code: 403, message: 'Insufficient permissions to access the file resource.', data: {} };

// a streamed response can reach this in-process client before the server saw its 'finish'
withFixtureServer({ settleMs: 200 });

async function fileToken(auth: string): Promise<string> {
  const res = await http(srv.url, 'POST', '/api/files/token', { token: auth });
  expect(res.status).toBe(200);
  return res.body.token;
}

async function setViewRule(collection: string, viewRule: string | null) {
  const res = await http(srv.url, 'PATCH', `/api/collections/${collection}`, { token: ADMIN_AUTH, body: { viewRule } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('file tokens and protected files', () => {
  it('POST /api/files/token: admins and auth records get one, guests 400', async () => {
    const guest = await http(srv.url, 'POST', '/api/files/token');
    expect(guest.body).toEqual({ code: 400, message: 'Failed to generate file token.', data: {} });
    expect((await http(srv.url, 'POST', '/api/files/token', { token: 'garbage' })).status).toBe(400);

    const admin = JSON.parse(Buffer.from((await fileToken(ADMIN_AUTH)).split('.')[1], 'base64url').toString());
    expect(admin).toMatchObject({ id: 'sywbhecnh46rhm0', type: 'admin' });
    expect(admin.exp - Date.now() / 1000).toBeLessThanOrEqual(180);
    const record = JSON.parse(Buffer.from((await fileToken(USER1_AUTH)).split('.')[1], 'base64url').toString());
    expect(record).toMatchObject({ id: USER1, type: 'authRecord', collectionId: USERS });

    const pb = srv.client();
    pb.authStore.save(ADMIN_AUTH, null);
    const sdkToken = await pb.files.getToken();
    expect(sdkToken.split('.')).toHaveLength(3);
  });

  it('a protected file needs an admin file token while the viewRule is null', async () => {
    expect((await http(srv.url, 'GET', PROTECTED)).body).toEqual(FORBIDDEN);
    // the Authorization header is ignored, and an auth token is not a file token
    expect((await http(srv.url, 'GET', PROTECTED, { token: ADMIN_AUTH })).status).toBe(403);
    expect((await http(srv.url, 'GET', `${PROTECTED}?token=${ADMIN_AUTH}`)).status).toBe(403);
    expect((await http(srv.url, 'GET', `${PROTECTED}?token=${ADMIN_FILE_EXPIRED}`)).status).toBe(403);
    expect((await http(srv.url, 'GET', `${PROTECTED}?token=garbage`)).status).toBe(403);

    const token = await fileToken(ADMIN_AUTH);
    const ok = await fetchRaw(`${PROTECTED}?token=${token}`);
    expect(ok.status).toBe(200);
    expect(ok.body.equals(fixtureFile('wsmn24bux7wo113', 'al1h9ijdeojtsjy', '300_Jsjq7RdBgA.png'))).toBe(true);
    // a record file token with a null viewRule: guest-like, denied
    expect((await http(srv.url, 'GET', `${PROTECTED}?token=${await fileToken(USER1_AUTH)}`)).status).toBe(403);

    const sdk = srv.client();
    expect(sdk.files.getUrl({ collectionId: 'wsmn24bux7wo113', id: 'al1h9ijdeojtsjy' } as never, '300_Jsjq7RdBgA.png', { token })).toContain(
      `?token=${token}`,
    );
  });

  it.skipIf(!FIXTURE_FILE_TOKENS_VALID)('accepts the fixture file tokens until they expire (2029-12-31)', async () => {
    expect((await http(srv.url, 'GET', `${PROTECTED}?token=${ADMIN_FILE_2029}`)).status).toBe(200);
    expect((await http(srv.url, 'GET', `${PROTECTED}?token=${USER1_FILE_2029}`)).status).toBe(403);
  });

  it('with a viewRule, the record behind a file token (or a guest) must satisfy it', async () => {
    const userToken = await fileToken(USER1_AUTH);
    await setViewRule('demo1', '@request.auth.verified = false');
    expect((await http(srv.url, 'GET', `${PROTECTED}?token=${userToken}`)).status).toBe(200);
    if (FIXTURE_FILE_TOKENS_VALID) expect((await http(srv.url, 'GET', `${PROTECTED}?token=${USER1_FILE_2029}`)).status).toBe(200);
    expect((await http(srv.url, 'GET', PROTECTED)).status).toBe(403);
    // an auth token in ?token= is still a guest
    expect((await http(srv.url, 'GET', `${PROTECTED}?token=${USER1_AUTH}`)).status).toBe(403);

    await setViewRule('demo1', '@request.auth.verified = true');
    expect((await http(srv.url, 'GET', `${PROTECTED}?token=${userToken}`)).status).toBe(403);

    await setViewRule('demo1', '@request.context = "protectedFile" && id = "al1h9ijdeojtsjy"');
    expect((await http(srv.url, 'GET', PROTECTED)).status).toBe(200);

    await setViewRule('demo1', '');
    expect((await http(srv.url, 'GET', PROTECTED)).status).toBe(200);
    await setViewRule('demo1', null);
    expect((await http(srv.url, 'GET', PROTECTED)).status).toBe(403);
  });

  it('protected files of a view follow the view\u2019s viewRule and come from the source record', async () => {
    const userToken = await fileToken(USER1_AUTH);
    expect((await http(srv.url, 'GET', `/api/files/view1/al1h9ijdeojtsjy/300_Jsjq7RdBgA.png?token=${userToken}`)).status).toBe(403);
    const ok = await fetchRaw(`/api/files/view1/84nmscqy84lsi1t/test_d61b33QdDU.txt?token=${userToken}`);
    expect(ok.status).toBe(200);
    expect(ok.body.toString()).toBe('test\n');
    // non-protected view file: public
    expect((await fetchRaw('/api/files/view1/84nmscqy84lsi1t/test_QZFjKjXchk.txt')).status).toBe(200);
    expect((await fetchRaw('/api/files/view2/84nmscqy84lsi1t/test_QZFjKjXchk.txt')).status).toBe(200);
  });

  it('the file token stops working when the account\u2019s tokenKey changes', async () => {
    const token = await fileToken(ADMIN_AUTH);
    const before = srv.app.db.prepare("SELECT tokenKey FROM _admins WHERE id = 'sywbhecnh46rhm0'").get() as { tokenKey: string };
    srv.app.db.prepare("UPDATE _admins SET tokenKey = 'rotated-key' WHERE id = 'sywbhecnh46rhm0'").run();
    expect((await http(srv.url, 'GET', `${PROTECTED}?token=${token}`)).status).toBe(403);
    srv.app.db.prepare("UPDATE _admins SET tokenKey = ? WHERE id = 'sywbhecnh46rhm0'").run(before.tokenKey);
  });
});
