/**
 * The translation files on disk (locales/<lang>/ui.json, app.json and forms.json) and the source words they
 * translate: the words of the dashboard's schema files (schemas/, without requests/, which only the
 * server reads) and screen files. The one reader for Node code: the contract and e2e tests.
 * (The dashboard bundles the same files, src/ui/i18n.ts.)
 *
 * Node only.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Catalog } from './catalog';
import { wordsOf, type FileWord } from './file-words';

export const SOURCE_LANGUAGE = 'en';

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    .sort();
}

/** The ids of the files whose words the dashboard shows: `schemas/<form>.schema.json`, `.ui.json`, `screens/<name>.json`. */
function wordedFiles(root: string): string[] {
  const rel = (f: string) => path.relative(root, f).split(path.sep).join('/');
  return [...walk(path.join(root, 'schemas')), ...walk(path.join(root, 'screens'))]
    .map(rel)
    .filter((f) => /\.(schema|ui)\.json$/.test(f) || (f.startsWith('screens/') && f.endsWith('.json')))
    .filter((f) => !f.startsWith('schemas/requests/'));
}

/** Every source word of the schema and screen files, in file order. */
export function sourceFormWords(root: string): FileWord[] {
  return wordedFiles(root).flatMap((f) => wordsOf(f, JSON.parse(fs.readFileSync(path.join(root, f), 'utf8'))));
}

/** The languages with a folder under locales/, the source language first. */
export function localeLanguages(root: string): string[] {
  const dir = path.join(root, 'locales');
  const found = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return [SOURCE_LANGUAGE, ...found.filter((l) => l !== SOURCE_LANGUAGE)];
}

const localeFile = (root: string, lang: string, name: 'ui' | 'app' | 'server' | 'forms' | 'docs') => path.join(root, 'locales', lang, `${name}.json`);

/** A catalog file, {} when the language has none. */
export function readLocale(root: string, lang: string, name: 'ui' | 'app' | 'server' | 'forms' | 'docs'): Catalog {
  const file = localeFile(root, lang, name);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Catalog) : {};
}
