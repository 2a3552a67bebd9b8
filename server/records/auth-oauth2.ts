// OAuth2 providers as GET /auth-methods lists them (0.22): every provider enabled in the settings
// (sorted by name), with a fresh state and PKCE pair and the authorization URL built the way Go's
// oauth2.Config.AuthCodeURL builds it (query keys sorted), plus an empty `&redirect_uri=` for the
// client to complete. The code exchange itself (auth-with-oauth2) is not implemented here.
import { createHash } from 'node:crypto';
import type { AuthProviderConfig, ProviderKey, Settings } from '../services/settings';
import { OAUTH2_PROVIDER_KEYS } from '../services/settings';
import { randomString } from '../services/passwords';

interface ProviderDefaults {
  displayName: string;
  authUrl: string;
  scopes: string[];
}

/** 0.22's tools/auth defaults per provider (name = settings key without the "Auth" suffix). */
const PROVIDERS: Record<string, ProviderDefaults> = {
  google: {
    displayName: 'Google',
    authUrl: 'https://accounts.google.com/o/oauth2/auth',
    scopes: ['https://www.googleapis.com/auth/userinfo.profile', 'https://www.googleapis.com/auth/userinfo.email'],
  },
  facebook: { displayName: 'Facebook', authUrl: 'https://www.facebook.com/v3.2/dialog/oauth', scopes: ['email'] },
  github: { displayName: 'GitHub', authUrl: 'https://github.com/login/oauth/authorize', scopes: ['read:user', 'user:email'] },
  gitlab: { displayName: 'GitLab', authUrl: 'https://gitlab.com/oauth/authorize', scopes: ['read_user'] },
  discord: { displayName: 'Discord', authUrl: 'https://discord.com/api/oauth2/authorize', scopes: ['identify', 'email'] },
  twitter: { displayName: 'Twitter', authUrl: 'https://twitter.com/i/oauth2/authorize', scopes: ['users.read', 'tweet.read'] },
  microsoft: {
    displayName: 'Microsoft',
    authUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
    scopes: ['User.Read'],
  },
  spotify: { displayName: 'Spotify', authUrl: 'https://accounts.spotify.com/authorize', scopes: ['user-read-private', 'user-read-email'] },
  kakao: {
    displayName: 'Kakao',
    authUrl: 'https://kauth.kakao.com/oauth/authorize',
    scopes: ['account_email', 'profile_nickname', 'profile_image'],
  },
  twitch: { displayName: 'Twitch', authUrl: 'https://id.twitch.tv/oauth2/authorize', scopes: ['user:read:email'] },
  strava: { displayName: 'Strava', authUrl: 'https://www.strava.com/oauth/authorize', scopes: ['profile:read_all'] },
  gitee: { displayName: 'Gitee', authUrl: 'https://gitee.com/oauth/authorize', scopes: ['user_info', 'emails'] },
  livechat: { displayName: 'LiveChat', authUrl: 'https://accounts.livechat.com/', scopes: [] },
  gitea: { displayName: 'Gitea', authUrl: 'https://gitea.com/login/oauth/authorize', scopes: ['read:user', 'user:email'] },
  oidc: { displayName: 'OIDC', authUrl: '', scopes: ['openid', 'email', 'profile'] },
  oidc2: { displayName: 'OIDC', authUrl: '', scopes: ['openid', 'email', 'profile'] },
  oidc3: { displayName: 'OIDC', authUrl: '', scopes: ['openid', 'email', 'profile'] },
  apple: { displayName: 'Apple', authUrl: 'https://appleid.apple.com/auth/authorize', scopes: ['name', 'email'] },
  instagram: { displayName: 'Instagram', authUrl: 'https://api.instagram.com/oauth/authorize', scopes: ['user_profile'] },
  vk: { displayName: 'ВКонтакте', authUrl: 'https://oauth.vk.com/authorize', scopes: ['email'] },
  yandex: { displayName: 'Yandex', authUrl: 'https://oauth.yandex.com/authorize', scopes: ['login:email', 'login:avatar', 'login:info'] },
  patreon: { displayName: 'Patreon', authUrl: 'https://www.patreon.com/oauth2/authorize', scopes: ['identity', 'identity[email]'] },
  mailcow: { displayName: 'mailcow', authUrl: '', scopes: ['profile'] },
  bitbucket: { displayName: 'Bitbucket', authUrl: 'https://bitbucket.org/site/oauth2/authorize', scopes: ['account'] },
  planningcenter: {
    displayName: 'Planning Center',
    authUrl: 'https://api.planningcenteronline.com/oauth/authorize',
    scopes: ['people'],
  },
};

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
export const s256Challenge = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

/** The provider name of a settings key (`gitlabAuth` → `gitlab`). */
export const providerName = (key: ProviderKey): string => key.replace(/Auth$/, '');

/** Names of the providers enabled in the settings, in the settings' order. */
export function enabledProviders(settings: Settings): string[] {
  return OAUTH2_PROVIDER_KEYS.filter((key) => settings[key]?.enabled).map(providerName);
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
export function providerInfo(key: ProviderKey, config: AuthProviderConfig): AuthProviderInfo | null {
  const name = providerName(key);
  const defaults = PROVIDERS[name];
  if (!defaults) return null;
  const authUrl = config.authUrl || defaults.authUrl;
  if (!authUrl) return null;

  const state = randomString(30);
  // PKCE unless the settings turn it off (or the provider cannot do it: vk)
  const pkce = typeof config.pkce === 'boolean' ? config.pkce : name !== 'vk';
  const codeVerifier = pkce ? randomString(43) : '';
  const codeChallenge = pkce ? s256Challenge(codeVerifier) : '';
  const codeChallengeMethod = pkce ? 'S256' : '';

  const params: Record<string, string> = {
    client_id: config.clientId,
    response_type: 'code',
    state,
  };
  if (defaults.scopes.length) params.scope = defaults.scopes.join(' ');
  if (pkce) {
    params.code_challenge = codeChallenge;
    params.code_challenge_method = codeChallengeMethod;
  }
  // apple wants the response posted back to the redirect URL
  if (name === 'apple') params.response_mode = 'form_post';

  return {
    name,
    displayName: config.displayName || defaults.displayName || name,
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
  for (const key of OAUTH2_PROVIDER_KEYS) {
    const config = settings[key];
    if (!config?.enabled) continue;
    const info = providerInfo(key, config);
    if (info) out.push(info);
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
