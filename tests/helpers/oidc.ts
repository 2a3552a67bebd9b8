// A real OpenID Connect provider on loopback (npm oidc-provider) for the OAuth2 tests, plus a tiny
// user agent that walks its sign-in (dev login form, then consent) like a browser would and
// returns the redirect URL carrying the code. Accounts are whatever login name is typed; their
// claims come from `accounts` (or defaults: <login>@example.test, verified).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

interface OidcAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
}

export interface TestOidc {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Provider URLs for the oidcAuth settings block. */
  urls: { authUrl: string; tokenUrl: string; userApiUrl: string };
  accounts: Map<string, OidcAccount>;
  /** Follows authUrl (already completed with redirect_uri) through login + consent; returns the final redirect URL. */
  signIn(authUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
}

export async function startOidc(redirectUris: string[]): Promise<TestOidc> {
  const accounts = new Map<string, OidcAccount>();
  const clientId = 'outpost-test';
  const clientSecret = 'outpost-test-secret-0123456789abcdef';
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => false },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    findAccount: (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: () => {
        const a = accounts.get(sub) ?? {};
        return {
          sub,
          email: a.email ?? `${sub}@example.test`,
          email_verified: a.email_verified ?? true,
          name: a.name ?? `User ${sub}`,
          preferred_username: a.preferred_username ?? sub,
        };
      },
    }),
  });
  provider.on('server_error', () => undefined);
  const callback = provider.callback();
  server.on('request', (req, res) => void callback(req, res));

  /** One browser's cookie jar over fetch; follows redirects by hand until the client's redirect_uri. */
  async function signIn(authUrl: string, login: string): Promise<URL> {
    const jar = new Map<string, string>();
    const request = async (url: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
      const res = await fetch(url, { ...init, headers, redirect: 'manual' });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const eq = pair.indexOf('=');
        jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1));
      }
      return res;
    };
    let url = authUrl;
    for (let hops = 0; hops < 20; hops++) {
      if (!url.startsWith(issuer)) return new URL(url);
      const res = await request(url);
      const location = res.headers.get('location');
      if (location) {
        url = new URL(location, url).toString();
        continue;
      }
      const html = await res.text();
      const action = /action="([^"]+)"/.exec(html)?.[1];
      const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
      if (!action || !prompt) throw new Error(`unexpected provider page (${res.status}): ${html.slice(0, 300)}`);
      const form = new URLSearchParams({ prompt });
      if (prompt === 'login') {
        form.set('login', login);
        form.set('password', 'any');
      }
      const posted = await request(new URL(action, url).toString(), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      });
      const next = posted.headers.get('location');
      if (!next) throw new Error(`the provider did not redirect after ${prompt} (${posted.status})`);
      url = new URL(next, url).toString();
    }
    throw new Error('too many redirects');
  }

  return {
    issuer,
    clientId,
    clientSecret,
    urls: { authUrl: `${issuer}/auth`, tokenUrl: `${issuer}/token`, userApiUrl: `${issuer}/me` },
    accounts,
    signIn,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
