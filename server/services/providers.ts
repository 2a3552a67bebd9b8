// The OAuth2 providers, learnt from schemas/providers/<name>.schema.json alone: each file is the
// provider's settings form (JSON Schema: its options, their defaults and validation) plus its
// server facts under `x-provider` (endpoints, scopes, PKCE, user-info mapping). The settings key of
// a provider is `<name>Auth`, as in PocketBase 0.22. Adding a provider is adding a file (and its
// logo under public/images/oauth2/); nothing here changes.
import { readForms } from '../../src/lib/schema/catalog-files';
import { PROVIDER_KEYWORD } from '../../src/lib/schema/keyword-names';
import { SCHEMAS_DIR } from '../paths';

type Json = Record<string, unknown>;

/** How a provider's user info maps to PocketBase's AuthUser (dot paths or `{path}` templates). */
interface ProviderUserMapping {
  id: string;
  name?: string;
  username?: string;
  email?: string;
  avatar?: string;
  /** A path to the provider's "email verified" claim, or a constant: does the provider vouch for the email? */
  emailVerified?: string | boolean;
}

interface ProviderFacts {
  logo: string;
  displayName: string;
  authUrl: string;
  tokenUrl: string;
  userApiUrl: string;
  scopes: string[];
  pkce: boolean;
  /** Where the user info comes from: the user API (default) or the token response's id_token. */
  userSource?: 'userApi' | 'idToken';
  /** Header that must carry the client id on user API calls (Twitch). */
  userApiClientIdHeader?: string;
  /** Extra authorization URL parameters (Apple: response_mode=form_post). */
  authParams?: Record<string, string>;
  /** User-info values that must hold for the account to sign in (e.g. `{ "active": 1 }`). */
  accept?: Record<string, string | number | boolean>;
  user: ProviderUserMapping;
  /** A second call for the primary address, when the user API gives no valid one (GitHub, Gitee) or never does (Bitbucket). */
  emails?: ProviderEmailsLookup;
}

/**
 * Where a provider lists the user's addresses and which entry is the primary one. Answers 4xx
 * (a scope the user did not grant) or unreadable answers leave the email empty, as 0.22 does.
 */
export interface ProviderEmailsLookup {
  /** The list's URL; `{userApiUrl}` stands for the user API URL in effect. */
  url: string;
  /** 'missing' (default): only when the user API's email is empty or not an address; 'always'. */
  when?: 'missing' | 'always';
  /** Dot path of the array in the answer ('' or absent: the answer is the array). */
  list?: string;
  /** Dot path of the address in an entry. */
  email: string;
  /** What the primary entry holds: path → value (an array value must contain it). */
  match: Record<string, string | number | boolean>;
}

export interface ProviderDefinition {
  /** The provider name of the auth-methods listing and of external auth links ("google"). */
  name: string;
  /** Its settings key ("googleAuth"). */
  key: string;
  /** The form name of its schema ("providers/google"). */
  form: string;
  title: string;
  schema: Json;
  facts: ProviderFacts;
}

/** PocketBase 0.22's stored shape of every provider block; a provider's schema defaults overlay it. */
const PROVIDER_BLOCK_BASE = {
  enabled: false,
  clientId: '',
  clientSecret: '',
  authUrl: '',
  tokenUrl: '',
  userApiUrl: '',
  displayName: '',
  pkce: null as boolean | null,
};
export type AuthProviderConfig = typeof PROVIDER_BLOCK_BASE;

const cache = new Map<string, ProviderDefinition[]>();

/** Every provider file of `<schemasDir>/providers`, sorted by name (read once per folder). */
export function loadProviders(schemasDir = SCHEMAS_DIR): ProviderDefinition[] {
  const hit = cache.get(schemasDir);
  if (hit) return hit;
  const list = readForms(schemasDir, 'providers').map(({ name: form, schema }) => {
    const name = form.slice('providers/'.length);
    const facts = schema[PROVIDER_KEYWORD] as ProviderFacts | undefined;
    if (!facts || typeof facts !== 'object') throw new Error(`schemas/${form}.schema.json: missing "${PROVIDER_KEYWORD}"`);
    return { name, key: `${name}Auth`, form, title: String(schema.title ?? name), schema, facts };
  });
  cache.set(schemasDir, list);
  return list;
}

export function findProvider(name: string, schemasDir = SCHEMAS_DIR): ProviderDefinition | undefined {
  return loadProviders(schemasDir).find((p) => p.name === name);
}

/** A provider block's defaults: 0.22's block shape with the schema's `default`s over it. */
export function providerDefaults(def: ProviderDefinition): AuthProviderConfig {
  const out: Record<string, unknown> = { ...PROVIDER_BLOCK_BASE };
  const props = (def.schema.properties ?? {}) as Record<string, Json>;
  for (const [key, prop] of Object.entries(props)) if ('default' in prop) out[key] = prop.default;
  return out as AuthProviderConfig;
}
