// Settings validation with the dashboard's own schema files, so the server judges a PATCH
// /api/settings exactly as the forms do: the strict ajv instance and custom keywords of
// src/engine/ajv.ts, and PocketBase's error tree from the shared mapper (src/lib/schema/error-tree.ts).
// Which schema checks which part of the settings comes from schemas/settings/index.json
// (./settings-index.ts); each OAuth2 provider block is checked with its provider file.
import type { ValidateFunction } from 'ajv';
import { createStrictAjv } from '../../src/engine/ajv';
import { withoutEmptyStrings } from '../../src/engine/empty';
import { readForm } from '../../src/lib/schema/catalog-files';
import { errorTree, sortErrorTree, type ErrorTree } from '../../src/lib/schema/error-tree';
import { SCHEMAS_DIR } from '../paths';
import { loadProviders } from './providers';
import { settingsSections } from './settings-index';
import type { Settings } from './settings';
import { isObject } from '../../src/lib/json';

type Json = Record<string, unknown>;

/** A compiled schema file: validates a document and returns PocketBase's nested field errors. */
export interface SchemaValidator {
  name: string;
  schema: Json;
  validate(doc: unknown): ErrorTree;
}

const cache = new Map<string, SchemaValidator>();

/** The validator for <schemasDir>/<name>.schema.json (compiled once). */
export function schemaValidator(name: string, schemasDir = SCHEMAS_DIR): SchemaValidator {
  const cacheKey = `${schemasDir}\0${name}`;
  let v = cache.get(cacheKey);
  if (v) return v;
  const { schema } = readForm(schemasDir, name);
  const compiled: ValidateFunction = createStrictAjv().compile(schema);
  v = {
    name,
    schema,
    validate(doc) {
      // PocketBase's "required" means non-empty and its other rules skip empty values: an empty
      // string reads as absent, as the dashboard's forms read it (src/engine/empty.ts).
      const judged = withoutEmptyStrings(doc);
      return compiled(judged) ? {} : errorTree(schema, compiled.errors ?? [], { data: judged });
    },
  };
  cache.set(cacheKey, v);
  return v;
}

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
