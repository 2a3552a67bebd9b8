// Talks to an OAuth2 provider for auth-with-oauth2: exchanges the authorization code at its token
// URL, then reads the user info (user API, or the id_token for Apple) and maps it with the
// provider file's facts. Every call is bounded in time and size; errors carry the provider's
// answer in words, never a secret (client secret, code, verifier or tokens).
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import type { AuthProviderConfig, ProviderDefinition, ProviderEmailsLookup } from './providers';
import { formatPbDate } from '../query/macros';
import { isObject } from '../../src/lib/json';

/** 0.22 gives the whole exchange 30 s; we bound each call. */
export const DEFAULT_OAUTH2_TIMEOUT_MS = 15_000;
/** Token and user-info answers are small; anything bigger is not a provider talking. */
const MAX_RESPONSE_BYTES = 1 << 20;
const APPLE_JWKS_URL = 'https://appleid.apple.com/auth/keys';
const APPLE_ISSUER = 'https://appleid.apple.com';

export class OAuth2ProviderError extends Error {}

export interface ProviderToken {
  accessToken: string;
  refreshToken: string;
  /** PocketBase date of expiry, '' when the provider did not say. */
  expiry: string;
  raw: Record<string, unknown>;
}

/** PocketBase's auth.AuthUser plus whether the provider vouches for the email. */
export interface OAuth2User {
  id: string;
  name: string;
  username: string;
  email: string;
  avatarUrl: string;
  accessToken: string;
  refreshToken: string;
  expiry: string;
  rawUser: Record<string, unknown>;
  emailVerified: boolean;
}

export interface ExchangeInput {
  code: string;
  codeVerifier: string;
  redirectUrl: string;
}

/** The endpoints in effect: the settings' own URLs (self-hosted, Azure tenant, OIDC) over the file's. */
export function endpointsOf(def: ProviderDefinition, config: AuthProviderConfig) {
  return {
    authUrl: config.authUrl || def.facts.authUrl,
    tokenUrl: config.tokenUrl || def.facts.tokenUrl,
    userApiUrl: config.userApiUrl || def.facts.userApiUrl,
  };
}

/** PKCE in effect: the settings' pkce when set (OIDC), else the provider's fact. */
export const pkceOf = (def: ProviderDefinition, config: AuthProviderConfig): boolean =>
  typeof config.pkce === 'boolean' ? config.pkce : def.facts.pkce;

async function readBounded(res: Response): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > MAX_RESPONSE_BYTES) throw new OAuth2ProviderError('The provider answer is too large.');
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new OAuth2ProviderError('The provider answer is too large.');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function call(url: string, init: RequestInit, timeoutMs: number, what: string): Promise<{ status: number; type: string; text: string }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const name = err instanceof Error ? err.name : '';
    throw new OAuth2ProviderError(
      name === 'TimeoutError' || name === 'AbortError' ? `The provider did not answer the ${what} request in time.` : `Failed to reach the provider for the ${what} request.`,
    );
  }
  try {
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await readBounded(res) };
  } catch (err) {
    if (err instanceof OAuth2ProviderError) throw err;
    throw new OAuth2ProviderError(`The provider did not answer the ${what} request in time.`);
  }
}

/** Token answers come as JSON or (GitHub without Accept) form-encoded. */
function parseTokenBody(type: string, text: string): Record<string, unknown> | null {
  try {
    const json: unknown = JSON.parse(text);
    if (isObject(json)) return json;
  } catch {
    if (!type.includes('json') && text.includes('=')) return Object.fromEntries(new URLSearchParams(text));
  }
  return null;
}

const clean = (v: unknown, max = 200) => String(v).replace(/[^\x20-\x7e]/g, '').slice(0, max);

/** Exchanges the code (authorization_code grant, client credentials in the body, the PKCE verifier when on). */
export async function exchangeCode(
  def: ProviderDefinition,
  config: AuthProviderConfig,
  input: ExchangeInput,
  timeoutMs = DEFAULT_OAUTH2_TIMEOUT_MS,
): Promise<ProviderToken> {
  const { tokenUrl } = endpointsOf(def, config);
  if (!tokenUrl) throw new OAuth2ProviderError('The provider has no token URL configured.');
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code: input.code,
    redirect_uri: input.redirectUrl,
    client_id: config.clientId,
    client_secret: config.clientSecret,
  });
  if (pkceOf(def, config) && input.codeVerifier) body.set('code_verifier', input.codeVerifier);
  const res = await call(
    tokenUrl,
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body },
    timeoutMs,
    'token',
  );
  const json = parseTokenBody(res.type, res.text);
  if (res.status < 200 || res.status >= 300 || !json || typeof json.access_token !== 'string' || json.access_token === '') {
    const reason = json && typeof json.error === 'string' ? ` (${clean(json.error, 60)}${typeof json.error_description === 'string' ? `: ${clean(json.error_description)}` : ''})` : '';
    throw new OAuth2ProviderError(`The provider rejected the authorization code, status ${res.status}${reason}.`);
  }
  const expiresIn = Number(json.expires_in);
  return {
    accessToken: json.access_token,
    refreshToken: typeof json.refresh_token === 'string' ? json.refresh_token : '',
    expiry: Number.isFinite(expiresIn) && expiresIn > 0 ? formatPbDate(new Date(Date.now() + expiresIn * 1000)) : '',
    raw: json,
  };
}

/** A value of `data` at a dot path (`data.0.id`); `token.x` reads the token response. */
function pick(data: Record<string, unknown>, token: Record<string, unknown>, path: string): unknown {
  const parts = path.split('.');
  let node: unknown = data;
  if (parts[0] === 'token') {
    node = token;
    parts.shift();
  }
  for (const part of parts) {
    if (Array.isArray(node)) node = node[Number(part)];
    else if (isObject(node)) node = Object.hasOwn(node, part) ? node[part] : undefined;
    else return undefined;
  }
  return node;
}

const asText = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : '');

/**
 * A mapped field: a dot path, or a `{path}` template. A URL template with an empty placeholder
 * gives '' (no avatar rather than a broken link); a text template is trimmed.
 */
function mapField(spec: string | undefined, data: Record<string, unknown>, token: Record<string, unknown>): string {
  if (!spec) return '';
  if (!spec.includes('{')) return asText(pick(data, token, spec));
  let missing = false;
  const out = spec.replace(/\{([^}]+)\}/g, (_m, p: string) => {
    const v = asText(pick(data, token, p));
    if (v === '') missing = true;
    return v;
  });
  if (spec.includes('://')) return missing ? '' : out;
  return out.replace(/^[\s#]+|[\s#]+$/g, '').trim();
}

const truthy = (v: unknown) => v === true || v === 'true' || v === 1;

/** Reads and maps the user info; throws when the provider says the account cannot sign in. */
export async function fetchOAuth2User(
  def: ProviderDefinition,
  config: AuthProviderConfig,
  token: ProviderToken,
  timeoutMs = DEFAULT_OAUTH2_TIMEOUT_MS,
): Promise<OAuth2User> {
  let data: Record<string, unknown>;
  if (def.facts.userSource === 'idToken') {
    const idToken = token.raw.id_token;
    if (typeof idToken !== 'string' || idToken === '') throw new OAuth2ProviderError('The provider answered without an id_token.');
    data = await readIdToken(def, config, idToken);
  } else {
    const { userApiUrl } = endpointsOf(def, config);
    if (!userApiUrl) throw new OAuth2ProviderError('The provider has no user API URL configured.');
    const headers: Record<string, string> = { authorization: `Bearer ${token.accessToken}`, accept: 'application/json' };
    if (def.facts.userApiClientIdHeader) headers[def.facts.userApiClientIdHeader] = config.clientId;
    const res = await call(userApiUrl, { headers }, timeoutMs, 'user info');
    if (res.status < 200 || res.status >= 300) throw new OAuth2ProviderError(`The provider refused the user info request, status ${res.status}.`);
    try {
      const json: unknown = JSON.parse(res.text);
      if (!isObject(json)) throw new Error('not an object');
      data = json;
    } catch {
      throw new OAuth2ProviderError('The provider answered the user info request with something other than a JSON object.');
    }
  }
  for (const [path, expected] of Object.entries(def.facts.accept ?? {})) {
    if (pick(data, token.raw, path) !== expected) throw new OAuth2ProviderError('The provider account is not active.');
  }
  const map = def.facts.user;
  const id = mapField(map.id, data, token.raw);
  if (id === '') throw new OAuth2ProviderError('The provider answered without a user id.');
  let email = mapField(map.email, data, token.raw);
  const lookup = def.facts.emails;
  if (lookup && (lookup.when === 'always' || !isEmailAddress(email))) {
    email = await fetchPrimaryEmail(lookup, endpointsOf(def, config).userApiUrl, token, timeoutMs);
  }
  const vouch = map.emailVerified;
  const emailVerified = email !== '' && (typeof vouch === 'boolean' ? vouch : vouch ? truthy(pick(data, token.raw, vouch)) : false);
  return {
    id,
    name: mapField(map.name, data, token.raw),
    username: mapField(map.username, data, token.raw),
    email,
    avatarUrl: mapField(map.avatar, data, token.raw),
    accessToken: token.accessToken,
    refreshToken: token.refreshToken,
    expiry: token.expiry,
    rawUser: data,
    emailVerified,
  };
}

const isEmailAddress = (v: string) => /^[^\s@]+@[^\s@]+$/.test(v);

/** The primary address from the provider's address list; '' when the user did not grant it. */
async function fetchPrimaryEmail(lookup: ProviderEmailsLookup, userApiUrl: string, token: ProviderToken, timeoutMs: number): Promise<string> {
  const url = lookup.url.replace('{userApiUrl}', userApiUrl);
  const res = await call(url, { headers: { authorization: `Bearer ${token.accessToken}`, accept: 'application/json' } }, timeoutMs, 'email');
  if (res.status >= 400 && res.status < 500) return '';
  if (res.status < 200 || res.status >= 300) throw new OAuth2ProviderError(`The provider refused the email request, status ${res.status}.`);
  let answer: unknown;
  try {
    answer = JSON.parse(res.text);
  } catch {
    return '';
  }
  const list = lookup.list ? (isObject(answer) ? pick(answer, {}, lookup.list) : undefined) : answer;
  if (!Array.isArray(list)) return '';
  const holds = (entry: Record<string, unknown>, path: string, expected: unknown) => {
    const value = pick(entry, {}, path);
    return Array.isArray(value) ? value.includes(expected) : value === expected;
  };
  for (const entry of list) {
    if (!isObject(entry) || !Object.entries(lookup.match).every(([path, expected]) => holds(entry, path, expected))) continue;
    const email = asText(pick(entry, {}, lookup.email));
    if (isEmailAddress(email)) return email;
  }
  return '';
}

let appleKeys: ReturnType<typeof createRemoteJWKSet> | undefined;

/** Apple's user is its id_token: verified against Apple's published keys (issuer and audience checked). */
async function readIdToken(def: ProviderDefinition, config: AuthProviderConfig, idToken: string): Promise<Record<string, unknown>> {
  // Other providers' id_token came straight from their token endpoint over TLS (OIDC Core 3.1.3.7)
  if (def.name !== 'apple') {
    try {
      return decodeJwt(idToken) as Record<string, unknown>;
    } catch {
      throw new OAuth2ProviderError('The provider answered with a malformed id_token.');
    }
  }
  appleKeys ??= createRemoteJWKSet(new URL(APPLE_JWKS_URL));
  try {
    const { payload } = await jwtVerify(idToken, appleKeys, { issuer: APPLE_ISSUER, audience: config.clientId });
    return payload as Record<string, unknown>;
  } catch {
    throw new OAuth2ProviderError('The id_token could not be verified.');
  }
}
