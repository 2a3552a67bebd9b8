// OAuth2 providers as GET /auth-methods lists them (0.22): every provider enabled in the settings
// (sorted by name), with a fresh state and PKCE pair and the authorization URL built the way Go's
// oauth2.Config.AuthCodeURL builds it (query keys sorted), plus an empty `&redirect_uri=` for the
// client to complete. Which providers exist and their endpoints come from schemas/providers/.
import { createHash } from 'node:crypto';
import { endpointsOf, pkceOf } from '../services/oauth2-client';
import { randomString } from '../services/passwords';
import { loadProviders, type AuthProviderConfig, type ProviderDefinition } from '../services/providers';
import { providerConfig, type Settings } from '../services/settings';

export interface AuthProviderInfo {
  name: string;
  displayName: string;
  state: string;
  authUrl: string;
  codeVerifier: string;
  codeChallenge: string;
  codeChallengeMethod: string;
}

/** PKCE S256: base64url(sha256(verifier)) without padding. */
const s256Challenge = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

/** The enabled provider of that name with its settings block, or null. */
export function enabledProvider(settings: Settings, name: string): { def: ProviderDefinition; config: AuthProviderConfig } | null {
  const def = loadProviders().find((p) => p.name === name);
  const config = def ? providerConfig(settings, def.key) : undefined;
  return def && config?.enabled ? { def, config } : null;
}

/** Go's url.QueryEscape (space as '+', only unreserved characters left as they are). */
function queryEscape(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/%20/g, '+');
}

function buildAuthUrl(base: string, params: Record<string, string>): string {
  const query = Object.keys(params)
    .sort()
    .map((k) => `${queryEscape(k)}=${queryEscape(params[k])}`)
    .join('&');
  return base + (base.includes('?') ? '&' : '?') + query;
}

/** One auth-methods entry for an enabled provider (null when it cannot be set up, e.g. no authUrl). */
function providerInfo(def: ProviderDefinition, config: AuthProviderConfig): AuthProviderInfo | null {
  const { authUrl } = endpointsOf(def, config);
  if (!authUrl) return null;

  const state = randomString(30);
  const pkce = pkceOf(def, config);
  const codeVerifier = pkce ? randomString(43) : '';
  const codeChallenge = pkce ? s256Challenge(codeVerifier) : '';
  const codeChallengeMethod = pkce ? 'S256' : '';

  const params: Record<string, string> = { ...def.facts.authParams, client_id: config.clientId, response_type: 'code', state };
  if (def.facts.scopes.length) params.scope = def.facts.scopes.join(' ');
  if (pkce) {
    params.code_challenge = codeChallenge;
    params.code_challenge_method = codeChallengeMethod;
  }
  return {
    name: def.name,
    displayName: config.displayName || def.facts.displayName || def.name,
    state,
    authUrl: buildAuthUrl(authUrl, params) + '&redirect_uri=',
    codeVerifier,
    codeChallenge,
    codeChallengeMethod,
  };
}

/** Every enabled provider's auth-methods entry, sorted by name. */
export function listAuthProviders(settings: Settings): AuthProviderInfo[] {
  const out: AuthProviderInfo[] = [];
  for (const def of loadProviders()) {
    const config = providerConfig(settings, def.key);
    if (!config?.enabled) continue;
    const info = providerInfo(def, config);
    if (info) out.push(info);
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
