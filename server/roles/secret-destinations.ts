// Where the settings' secrets are sent (issue 36: admin roles). A scoped admin never reads a
// secret, but one that holds the mail, storage, backups or auth providers area could point the
// server elsewhere and let it carry the stored secret there: the SMTP password goes out in the
// AUTH exchange with `smtp.host` (a test email is one click), an OAuth2 client secret in the token
// request to `tokenUrl`. So a scoped admin that changes where a secret goes must enter the secret
// again; the stored one is only ever sent where a full admin (or the admin who typed it) chose.
import { settingsSecretPaths } from '../services/settings-index';
import { SCHEMAS_DIR } from '../paths';

/** The keys beside a secret that say where it is sent. */
const DESTINATION_KEYS = ['host', 'port', 'tls', 'endpoint', 'authUrl', 'tokenUrl', 'userApiUrl'];

const at = (doc: unknown, path: readonly string[]): unknown =>
  path.reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), doc);

/**
 * The secrets (dot paths, e.g. 'smtp.password') that a change from `before` to `after` would send
 * to a new destination unchanged: a destination beside them changed, they are set, and the change
 * left them as they were.
 */
export function secretsSentElsewhere(before: unknown, after: unknown, schemasDir = SCHEMAS_DIR): string[][] {
  const out: string[][] = [];
  for (const path of settingsSecretPaths(schemasDir)) {
    const secret = at(before, path);
    if (typeof secret !== 'string' || secret === '' || at(after, path) !== secret) continue;
    const parent = path.slice(0, -1);
    if (DESTINATION_KEYS.some((key) => at(before, [...parent, key]) !== at(after, [...parent, key]))) out.push([...path]);
  }
  return out;
}
