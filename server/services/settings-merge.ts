// Reading settings over their defaults: a stored row (0.22's struct unmarshalling: wrong types fall
// back to the default, unknown keys are dropped) and a PATCH body (wrong types are reported, masked
// secrets ignored). The defaults' shape, from the settings schemas, drives the type checks.
import type { ErrorTree } from '../../src/lib/schema/error-tree';
import type { Settings } from './settings';
import { isObject } from '../../src/lib/json';
import { isSecretPath, SECRET_MASK } from './settings-redact';

/** Fields whose default is null but which take a value of another type. */
const NULLABLE: Record<string, (v: unknown) => boolean> = {
  pkce: (v) => typeof v === 'boolean',
  exceptDomains: (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'),
  onlyDomains: (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'),
};

const typeError = (expected: string) => ({ code: 'validation_invalid_type', message: `Must be ${expected}.` });

/**
 * Overlays `input` on `base` following base's shape: unknown keys are dropped, null leaves a
 * non-nullable value unchanged (Go's json.Unmarshal), and a value of the wrong type is reported
 * in `errors` (or silently skipped when `errors` is omitted, as for stored rows).
 */
function overlay(
  base: Record<string, unknown>,
  input: Record<string, unknown>,
  path: string[],
  errors: ErrorTree | undefined,
  skipMasked: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, current] of Object.entries(base)) {
    out[key] = current;
    if (!(key in input)) continue;
    const value = input[key];
    const fieldPath = [...path, key];
    const report = (expected: string) => {
      if (errors) errors[key] = typeError(expected);
    };
    if (isObject(current)) {
      if (value === null) continue;
      if (!isObject(value)) {
        report('an object');
        continue;
      }
      const nested: ErrorTree = {};
      out[key] = overlay(current, value, fieldPath, errors ? nested : undefined, skipMasked);
      if (errors && Object.keys(nested).length) errors[key] = nested;
      continue;
    }
    if (skipMasked && value === SECRET_MASK && isSecretPath(fieldPath)) continue;
    if (Object.hasOwn(NULLABLE, key) && (current === null || NULLABLE[key](current))) {
      if (value === null || NULLABLE[key](value)) out[key] = Array.isArray(value) ? [...value] : value;
      else report(key === 'pkce' ? 'a boolean or null' : 'a list of strings or null');
      continue;
    }
    if (Array.isArray(current)) {
      // the settings' lists hold strings (trustedProxy.headers); null empties one, as Go's json.Unmarshal does
      if (value === null) out[key] = [];
      else if (Array.isArray(value) && value.every((x) => typeof x === 'string')) out[key] = [...value];
      else report('a list of strings');
      continue;
    }
    if (value === null) continue;
    if (typeof current === 'string') {
      if (typeof value === 'string') out[key] = value;
      else report('a string');
    } else if (typeof current === 'number') {
      if (typeof value === 'number' && Number.isSafeInteger(value)) out[key] = value;
      else report('an integer');
    } else if (typeof current === 'boolean') {
      if (typeof value === 'boolean') out[key] = value;
      else report('a boolean');
    }
  }
  return out;
}

/** A stored settings row read over the defaults (wrong types fall back to the default). */
export function mergeStored(defaults: Settings, stored: unknown): Settings {
  if (!isObject(stored)) return defaults;
  return overlay(defaults as unknown as Record<string, unknown>, stored, [], undefined, false) as unknown as Settings;
}

export class SettingsPatchError extends Error {
  constructor(readonly errors: ErrorTree) {
    super('Invalid settings patch.');
  }
}

/**
 * Merges a PATCH body into the current settings. Masked secrets ("******") are ignored so a
 * client that echoes a redacted read back never overwrites a secret. Throws SettingsPatchError
 * with nested field errors when a value has the wrong type.
 */
export function mergePatch(current: Settings, patch: unknown): Settings {
  if (!isObject(patch)) throw new SettingsPatchError({});
  const errors: ErrorTree = {};
  const merged = overlay(current as unknown as Record<string, unknown>, patch, [], errors, true);
  if (Object.keys(errors).length) throw new SettingsPatchError(errors);
  return merged as unknown as Settings;
}
