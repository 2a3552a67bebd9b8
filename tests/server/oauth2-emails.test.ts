// The primary-address lookup that GitHub, Gitee and Bitbucket need (their user API gives no
// address when the user keeps it private, or never does), driven by each provider file's
// `x-provider.emails` facts, against a loopback HTTP server answering as those APIs do.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchOAuth2User, type ProviderToken } from '../../server/services/oauth2-client';
import { findProvider, providerDefaults, type ProviderDefinition } from '../../server/services/providers';

let api: http.Server;
let base = '';
const seen: string[] = [];

/** Per path: [status, body]. The user answers carry no address unless the path says so. */
const ROUTES: Record<string, [number, unknown]> = {
  '/gh/user': [200, { id: 7, login: 'octo', name: 'Octo Cat', email: null, avatar_url: 'https://a.example/7.png' }],
  '/gh/user/emails': [
    200,
    [
      { email: 'old@example.com', primary: false, verified: true },
      { email: 'unverified@example.com', primary: true, verified: false },
      { email: 'octo@example.com', primary: true, verified: true },
    ],
  ],
  '/gh-public/user': [200, { id: 8, login: 'pub', email: 'public@example.com' }],
  '/gh-noscope/user': [200, { id: 9, login: 'noscope', email: '' }],
  '/gh-noscope/user/emails': [403, { message: 'Resource not accessible by integration' }],
  '/gh-down/user': [200, { id: 10, login: 'down', email: '' }],
  '/gh-down/user/emails': [502, 'bad gateway'],
  '/bb/user': [200, { uuid: '{b-1}', username: 'bucket', display_name: 'Bit Bucket', account_status: 'active', links: { avatar: { href: 'https://b.example/1.png' } } }],
  '/bb/user/emails': [200, { values: [{ email: 'second@example.com', is_primary: false }, { email: 'bucket@example.com', is_primary: true }] }],
  '/gitee/user': [200, { id: 11, login: 'gt', email: 'not-an-address' }],
  '/gitee/emails': [
    200,
    [
      { email: 'other@example.com', state: 'confirmed', scope: ['committed'] },
      { email: 'gt@example.com', state: 'confirmed', scope: ['committed', 'primary'] },
    ],
  ],
  '/gitee-private/user': [200, { id: 12, login: 'gp', email: '' }],
  // Gitee answers an object, not a list, when the address is private
  '/gitee-private/emails': [200, { email: '12@user.noreply.gitee.com' }],
};

const TOKEN: ProviderToken = { accessToken: 'at-1', refreshToken: '', expiry: '', raw: {} };

function provider(name: string): ProviderDefinition {
  const def = findProvider(name);
  if (!def) throw new Error(`no provider ${name}`);
  return def;
}

/** The provider with its user API (and, for Gitee's absolute URL, its address list) on loopback. */
function onLoopback(name: string, prefix: string) {
  const def = provider(name);
  const emails = def.facts.emails!;
  const moved = emails.url.includes('{userApiUrl}') ? emails : { ...emails, url: `${base}${prefix}/emails` };
  return {
    def: { ...def, facts: { ...def.facts, emails: moved } },
    config: { ...providerDefaults(def), enabled: true, clientId: 'id', clientSecret: 'secret', userApiUrl: `${base}${prefix}/user` },
  };
}

beforeAll(async () => {
  api = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    seen.push(`${path} ${req.headers.authorization ?? ''}`);
    const route = ROUTES[path];
    if (!route) return res.writeHead(404).end();
    const [status, body] = route;
    res.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => api.close(() => resolve())));

describe('the primary address from the provider file', () => {
  it('GitHub: a private address is fetched from /user/emails, the verified primary one', async () => {
    const { def, config } = onLoopback('github', '/gh');
    seen.length = 0;
    const user = await fetchOAuth2User(def, config, TOKEN);
    expect(user).toMatchObject({ id: '7', username: 'octo', name: 'Octo Cat', email: 'octo@example.com' });
    expect(seen).toEqual(['/gh/user Bearer at-1', '/gh/user/emails Bearer at-1']);
  });

  it('GitHub: a public address needs no second call', async () => {
    const { def, config } = onLoopback('github', '/gh-public');
    seen.length = 0;
    expect((await fetchOAuth2User(def, config, TOKEN)).email).toBe('public@example.com');
    expect(seen).toEqual(['/gh-public/user Bearer at-1']);
  });

  it('GitHub: a scope the user did not grant (403) signs in without an address; a 5xx fails the sign-in', async () => {
    const noScope = onLoopback('github', '/gh-noscope');
    expect((await fetchOAuth2User(noScope.def, noScope.config, TOKEN)).email).toBe('');
    const down = onLoopback('github', '/gh-down');
    await expect(fetchOAuth2User(down.def, down.config, TOKEN)).rejects.toThrow('The provider refused the email request, status 502.');
  });

  it('Bitbucket: the address list is always read, its primary entry taken', async () => {
    const { def, config } = onLoopback('bitbucket', '/bb');
    const user = await fetchOAuth2User(def, config, TOKEN);
    expect(user).toMatchObject({ id: '{b-1}', username: 'bucket', email: 'bucket@example.com', avatarUrl: 'https://b.example/1.png' });
  });

  it('Gitee: an invalid address is replaced by the confirmed primary one; a private list gives none', async () => {
    const gitee = onLoopback('gitee', '/gitee');
    expect((await fetchOAuth2User(gitee.def, gitee.config, TOKEN)).email).toBe('gt@example.com');
    const hidden = onLoopback('gitee', '/gitee-private');
    expect((await fetchOAuth2User(hidden.def, hidden.config, TOKEN)).email).toBe('');
  });

  it('the shipped files point Gitee at its own address list', () => {
    expect(provider('gitee').facts.emails?.url).toBe('https://gitee.com/api/v5/emails');
    expect(provider('github').facts.emails?.url).toBe('{userApiUrl}/emails');
  });
});
