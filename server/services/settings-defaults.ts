// A fresh install's settings: every key and default from the settings schemas
// (schemas/settings/index.json, see ./settings-index.ts), one block per OAuth2 provider file, and a
// new random signing secret for every token kind.
import { randomString } from './passwords';
import { loadProviders, providerDefaults } from './providers';
import { TOKEN_KINDS, type Settings } from './settings';
import { settingsSchemaDefaults } from './settings-index';
import { SCHEMAS_DIR } from '../paths';

type Json = Record<string, unknown>;

/** Length of a generated token secret (0.22's). */
const TOKEN_SECRET_LENGTH = 50;

/** Fresh defaults; every token kind gets a new random secret. */
export function defaultSettings(schemasDir = SCHEMAS_DIR): Settings {
  const doc = settingsSchemaDefaults(schemasDir);
  for (const p of loadProviders(schemasDir)) doc[p.key] = providerDefaults(p);
  for (const kind of TOKEN_KINDS) doc[kind] = { ...(doc[kind] as Json), secret: randomString(TOKEN_SECRET_LENGTH) };
  return doc as Settings;
}
