// Settings validation with the dashboard's own schema files (schemas/settings/*.schema.json), so the
// server judges a PATCH /api/settings exactly as the forms do: the strict ajv instance and custom
// keywords of src/engine/ajv.ts, the messages of src/engine/messages.ts (x-messages), and
// PocketBase's nested error shape ({meta: {appUrl: {code, message}}}) with ozzo-style codes
// (x-codes may name one). Which schema checks which part of the settings comes from the screen
// definitions (screens/*.json loading /api/settings: each section's schema and `bind`), so adding a
// setting is editing schema files only.
//
// The OAuth2 provider blocks are checked with their provider files (schemas/providers/).
import fs from 'node:fs';
import path from 'node:path';
import type { ValidateFunction } from 'ajv';
import { createStrictAjv } from '../../src/engine/ajv';
import { withoutEmptyStrings } from '../../src/engine/empty';
import { errorTree, sortErrorTree } from '../../src/lib/schema/error-tree';
import { declaredNames, parseScreen, type ScreenDefinition } from '../../src/engine/screen';
import { PROJECT_ROOT } from '../paths';
import { loadProviders } from './providers';
import type { NestedErrors, Settings } from './settings';

type Json = Record<string, unknown>;

const ROOT = PROJECT_ROOT;
const SETTINGS_PATH = '/api/settings';

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A compiled schema file: validates a document and returns PocketBase's nested field errors. */
export interface SchemaValidator {
  name: string;
  schema: Json;
  validate(doc: unknown): NestedErrors;
}

const cache = new Map<string, SchemaValidator>();

/** The validator for schemas/<name>.schema.json (compiled once). */
export function schemaValidator(name: string, root = ROOT): SchemaValidator {
  const cacheKey = `${root}\0${name}`;
  let v = cache.get(cacheKey);
  if (v) return v;
  const schema = JSON.parse(fs.readFileSync(path.join(root, 'schemas', `${name}.schema.json`), 'utf8')) as Json;
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

function mergeErrors(into: NestedErrors, from: NestedErrors): void {
  for (const [k, v] of Object.entries(from)) {
    const cur = into[k];
    if (cur === undefined) into[k] = v;
    else if (!('code' in cur) && !('code' in v)) mergeErrors(cur as NestedErrors, v as NestedErrors);
  }
}

function getAt(doc: unknown, bind: string): unknown {
  let node = doc;
  for (const key of bind.split('.').filter(Boolean)) node = isObject(node) ? node[key] : undefined;
  return node;
}

function nest(bind: string, errors: NestedErrors): NestedErrors {
  return bind
    .split('.')
    .filter(Boolean)
    .reduceRight<NestedErrors>((acc, key) => ({ [key]: acc }), errors);
}

export interface SettingsSection {
  schema: string;
  /** Dot path of the settings document the schema describes ('' = the whole document). */
  bind: string;
  /** The top-level settings keys the section covers. */
  keys: string[];
}

const sectionsByRoot = new Map<string, SettingsSection[]>();

/** Every form section of the screens that edit /api/settings, from screens/*.json. */
export function settingsSections(root = ROOT): SettingsSection[] {
  const known = sectionsByRoot.get(root);
  if (known) return known;
  const dir = path.join(root, 'screens');
  const screens: ScreenDefinition[] = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => parseScreen(f.slice(0, -5), JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))));
  const seen = new Set<string>();
  const sections: SettingsSection[] = [];
  for (const screen of screens) {
    const saves = (screen.actions ?? []).some((a) => a.method === 'PATCH' && a.path === SETTINGS_PATH);
    if (screen.load !== SETTINGS_PATH || !saves) continue;
    for (const s of screen.sections) {
      // template sections (the provider popup) are checked per provider file in providerErrors
      if (s.schema.includes('{')) continue;
      const bind = s.bind ?? '';
      const id = `${s.schema}@${bind}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const schema = schemaValidator(s.schema, root).schema;
      const keys = bind ? [bind.split('.')[0]] : [...declaredNames(schema)];
      sections.push({ schema: s.schema, bind, keys });
    }
  }
  sectionsByRoot.set(root, sections);
  return sections;
}

// ---- the provider blocks: one schema file each ----

function providerErrors(s: Settings, changed: Set<string>, root: string): NestedErrors {
  const out: NestedErrors = {};
  const section = (key: string, errors: NestedErrors) => {
    if (Object.keys(errors).length) out[key] = errors;
  };
  // each provider block with its own file (schemas/providers/<name>.schema.json)
  for (const provider of loadProviders(root)) {
    if (!changed.has(provider.key)) continue;
    section(provider.key, schemaValidator(provider.form, root).validate(s[provider.key] ?? {}));
  }
  return out;
}

/**
 * Nested field errors for the merged settings `next` (empty object when valid). Only the sections a
 * PATCH touched (`changed`: its top-level keys; all when omitted) are checked, each with its schema
 * file; what one section stores cannot block saving another.
 */
export function validateSettings(next: Settings, changed?: Iterable<string>, root = ROOT): NestedErrors {
  const touched = new Set(changed ?? Object.keys(next));
  const out: NestedErrors = {};
  for (const section of settingsSections(root)) {
    if (!section.keys.some((k) => touched.has(k))) continue;
    const errors = schemaValidator(section.schema, root).validate(getAt(next, section.bind) ?? {});
    if (Object.keys(errors).length) mergeErrors(out, nest(section.bind, errors));
  }
  mergeErrors(out, providerErrors(next, touched, root));
  return sortErrorTree(out);
}

/** The `default`s a schema declares (its properties, those of its if/then/else branches, nested objects). */
function schemaDefaultsOf(schema: Json): Json {
  const out: Json = {};
  const visit = (node: unknown) => {
    if (!isObject(node)) return;
    for (const [key, prop] of Object.entries(isObject(node.properties) ? node.properties : {})) {
      if (!isObject(prop)) continue;
      if ('default' in prop) out[key] = prop.default;
      else if (prop.type === 'object') {
        const nested = schemaDefaultsOf(prop);
        if (Object.keys(nested).length) out[key] = { ...(isObject(out[key]) ? out[key] : {}), ...nested };
      }
    }
    for (const branch of ['then', 'else']) visit(node[branch]);
    for (const list of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(node[list])) (node[list] as unknown[]).forEach(visit);
  };
  visit(schema);
  return out;
}

/**
 * The defaults every settings section's schema declares, placed at the section's bind path: the
 * stored document's keys and defaults come from schemas/settings (a new property with a `default`
 * is stored without a server edit).
 */
export function settingsSchemaDefaults(root = ROOT): Json {
  const doc: Json = {};
  for (const section of settingsSections(root)) {
    const defaults = schemaDefaultsOf(schemaValidator(section.schema, root).schema);
    const path = section.bind.split('.').filter(Boolean);
    let node = doc;
    for (const key of path) node = (isObject(node[key]) ? node[key] : (node[key] = {})) as Json;
    Object.assign(node, defaults);
  }
  return doc;
}
