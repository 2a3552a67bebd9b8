// Settings validation with the dashboard's own schema files (../core/schema-validator.ts), so the
// server judges a PATCH /api/settings exactly as the forms do.
// Which schema checks which part of the settings comes from schemas/settings/index.json
// (./settings-index.ts); each OAuth2 provider block is checked with its provider file.
import { schemaValidator } from '../core/schema-validator';
import { sortErrorTree, type ErrorTree } from '../../src/lib/schema/error-tree';
import { SCHEMAS_DIR } from '../paths';
import { loadProviders } from './providers';
import { settingsSections } from './settings-index';
import type { Settings } from './settings';
import { isObject } from '../../src/lib/json';

function mergeErrors(into: ErrorTree, from: ErrorTree): void {
  for (const [k, v] of Object.entries(from)) {
    const cur = into[k];
    if (cur === undefined) into[k] = v;
    else if (!('code' in cur) && !('code' in v)) mergeErrors(cur as ErrorTree, v as ErrorTree);
  }
}

function getAt(doc: unknown, bind: string): unknown {
  let node = doc;
  for (const key of bind.split('.').filter(Boolean)) node = isObject(node) ? node[key] : undefined;
  return node;
}

function nest(bind: string, errors: ErrorTree): ErrorTree {
  return bind
    .split('.')
    .filter(Boolean)
    .reduceRight<ErrorTree>((acc, key) => ({ [key]: acc }), errors);
}

/**
 * Nested field errors for the merged settings `next` (empty object when valid). Only the sections a
 * PATCH touched (`changed`: its top-level keys; all when omitted) are checked, each with its schema
 * file; what one section stores cannot block saving another.
 */
export function validateSettings(next: Settings, changed?: Iterable<string>, schemasDir = SCHEMAS_DIR): ErrorTree {
  const touched = new Set(changed ?? Object.keys(next));
  const out: ErrorTree = {};
  const check = (name: string, bind: string) => {
    const errors = schemaValidator(name, schemasDir).validate(getAt(next, bind) ?? {});
    if (Object.keys(errors).length) mergeErrors(out, nest(bind, errors));
  };
  for (const section of settingsSections(schemasDir)) if (section.keys.some((k) => touched.has(k))) check(section.schema, section.bind);
  for (const provider of loadProviders(schemasDir)) if (touched.has(provider.key)) check(provider.form, provider.key);
  return sortErrorTree(out);
}
