// The index of the settings schemas (schemas/settings/index.json): which schema file describes
// which part of the settings document. From it (and the provider files) the server learns the
// stored settings' keys, their defaults, which values are secrets and how a PATCH is validated;
// no dashboard screen file is read, so a screen without a save action cannot silently stop a
// section from being validated.
import path from 'node:path';
import { readForm, readJsonFile } from '../../src/lib/schema/catalog-files';
import { STORED_DEFAULT_KEYWORD } from '../../src/lib/schema/keyword-names';
import { SCHEMAS_DIR } from '../paths';
import { loadProviders } from './providers';
import { isObject } from '../../src/lib/json';

type Json = Record<string, unknown>;

export interface SettingsSection {
  /** The schema's name for schemaValidator ('settings/application'). */
  schema: string;
  /** Dot path of the settings document the schema describes ('' = the whole document). */
  bind: string;
  /** The top-level settings keys the section covers. */
  keys: string[];
  /** The schema document. */
  json: Json;
  /** The UI schema (empty for a section no screen draws). */
  ui: Json;
}

const cache = new Map<string, SettingsSection[]>();

/** The sections of schemas/settings/index.json, in the order the stored document lists them. */
export function settingsSections(schemasDir = SCHEMAS_DIR): SettingsSection[] {
  const hit = cache.get(schemasDir);
  if (hit) return hit;
  const dir = path.join(schemasDir, 'settings');
  const index = readJsonFile(path.join(dir, 'index.json')) as { sections: Array<{ bind: string; schema: string; ui?: string }> };
  const sections = index.sections.map(({ bind, schema, ui }) => {
    const json = readJsonFile(path.join(dir, schema));
    return {
      schema: `settings/${schema.replace(/\.schema\.json$/, '')}`,
      bind,
      keys: bind ? [bind.split('.')[0]] : Object.keys(isObject(json.properties) ? json.properties : {}),
      json,
      ui: ui ? readJsonFile(path.join(dir, ui)) : {},
    };
  });
  cache.set(schemasDir, sections);
  return sections;
}

/** A property's stored default: its x-stored-default, else its `default`. */
function storedDefault(prop: Json): { value: unknown } | undefined {
  if (STORED_DEFAULT_KEYWORD in prop) return { value: prop[STORED_DEFAULT_KEYWORD] };
  return 'default' in prop ? { value: prop.default } : undefined;
}

/** The stored defaults a schema declares (its properties, those of its if/then/else branches, nested objects). */
function schemaDefaultsOf(schema: Json): Json {
  const out: Json = {};
  const visit = (node: unknown) => {
    if (!isObject(node)) return;
    for (const [key, prop] of Object.entries(isObject(node.properties) ? node.properties : {})) {
      if (!isObject(prop)) continue;
      const own = storedDefault(prop);
      if (own) out[key] = structuredClone(own.value);
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

/** `doc` with the object at a dot path (created when missing). */
function objectAt(doc: Json, bind: string): Json {
  let node = doc;
  for (const key of bind.split('.').filter(Boolean)) node = (isObject(node[key]) ? node[key] : (node[key] = {})) as Json;
  return node;
}

/** Every section's stored defaults placed at its bind path, in the index's order. */
export function settingsSchemaDefaults(schemasDir = SCHEMAS_DIR): Json {
  const doc: Json = {};
  for (const section of settingsSections(schemasDir)) Object.assign(objectAt(doc, section.bind), schemaDefaultsOf(section.json));
  return doc;
}

/** Widgets that draw a secret: the value is write-only and read back masked. */
const SECRET_WIDGETS = new Set(['secret', 'secretGenerator']);

/** The paths a UI schema draws with a secret widget (nested objects included). */
function secretPathsOf(ui: Json, prefix: string[]): string[][] {
  const out: string[][] = [];
  for (const [key, value] of Object.entries(ui)) {
    if (key.startsWith('ui:') || !isObject(value)) continue;
    if (SECRET_WIDGETS.has(String(value['ui:widget']))) out.push([...prefix, key]);
    else out.push(...secretPathsOf(value, [...prefix, key]));
  }
  return out;
}

const secretsCache = new Map<string, ReadonlyArray<readonly string[]>>();

/** Every secret path of the settings document: what the sections' and providers' UI files draw as secrets. */
export function settingsSecretPaths(schemasDir = SCHEMAS_DIR): ReadonlyArray<readonly string[]> {
  const hit = secretsCache.get(schemasDir);
  if (hit) return hit;
  const paths = settingsSections(schemasDir).flatMap((s) => secretPathsOf(s.ui, s.bind.split('.').filter(Boolean)));
  for (const p of loadProviders(schemasDir)) paths.push(...secretPathsOf(readForm(schemasDir, p.form).uiSchema, [p.key]));
  secretsCache.set(schemasDir, paths);
  return paths;
}
