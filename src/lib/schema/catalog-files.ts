/**
 * The schema catalog on disk: every form under a schemas folder (`<name>.schema.json` with its
 * optional `<name>.ui.json`; a form's name is its path without the suffix, "settings/logs"). The one
 * reader for Node code: the server, the docs generator and the build-time validator plugin. (The
 * dashboard bundles the same files with Vite's import.meta.glob, src/engine/schemas.ts.)
 *
 * Node only. Its relative imports carry `.js` (Vite's config loader reads the validator plugin).
 */
import fs from 'node:fs';
import path from 'node:path';

type Json = Record<string, any>;

export interface CatalogFile {
  name: string;
  file: string;
  uiFile: string;
  schema: Json;
  /** The UI schema ({} when the form has none). */
  uiSchema: Json;
}

const SUFFIX = '.schema.json';

export const readJsonFile = (file: string): Json => JSON.parse(fs.readFileSync(file, 'utf8')) as Json;

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    .sort();
}

/** One form by name; throws when its schema file is missing. */
export function readForm(schemasDir: string, name: string): CatalogFile {
  const file = path.join(schemasDir, `${name}${SUFFIX}`);
  const uiFile = path.join(schemasDir, `${name}.ui.json`);
  return { name, file, uiFile, schema: readJsonFile(file), uiSchema: fs.existsSync(uiFile) ? readJsonFile(uiFile) : {} };
}

/** Every form under `schemasDir` (or its sub-folder `under`, e.g. "providers"), sorted by name. */
export function readForms(schemasDir: string, under = ''): CatalogFile[] {
  return walk(path.join(schemasDir, under))
    .filter((f) => f.endsWith(SUFFIX))
    .map((f) => readForm(schemasDir, path.relative(schemasDir, f).split(path.sep).join('/').slice(0, -SUFFIX.length)));
}
