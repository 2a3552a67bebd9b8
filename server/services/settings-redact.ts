// Secrets of the settings (what the UI files draw with a secret widget, see ./settings-index.ts)
// never leave the server: a read gets them masked, and a masked value sent back is ignored.
import { SCHEMAS_DIR } from '../paths';
import type { Settings } from './settings';
import { settingsSecretPaths } from './settings-index';

export const SECRET_MASK = '******';

/** Whether a dot path ('smtp.password') holds a secret. */
export function isSecretPath(path: readonly string[], schemasDir = SCHEMAS_DIR): boolean {
  const joined = path.join('.');
  return settingsSecretPaths(schemasDir).some((p) => p.join('.') === joined);
}

/** A deep copy with every set secret replaced by "******" (empty ones stay ""). */
export function redact(settings: Settings, schemasDir = SCHEMAS_DIR): Settings {
  const copy = structuredClone(settings) as unknown as Record<string, Record<string, unknown>>;
  for (const path of settingsSecretPaths(schemasDir)) {
    let node: Record<string, unknown> | undefined = copy;
    for (const key of path.slice(0, -1)) node = node?.[key] as Record<string, unknown> | undefined;
    const last = path[path.length - 1];
    if (node && typeof node[last] === 'string') node[last] = node[last] === '' ? '' : SECRET_MASK;
  }
  return copy as unknown as Settings;
}
