// The translation files (README "How to add a language"): every source word has a translation in
// each language or is marked null (falls back to English), placeholders match, no key is unused,
// and the English of the form defaults is the server's.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseKey, placeholdersOf, PLURAL_SUFFIX, type Catalog } from '../../src/lib/i18n/catalog';
import { localeLanguages, readLocale, sourceFormWords, SOURCE_LANGUAGE } from '../../src/lib/i18n/locale-files';
import { DEFAULT_WORDS } from '../../src/lib/schema/schema-words';

const ROOT = path.resolve(import.meta.dirname, '../..');
const languages = localeLanguages(ROOT);
const translations = languages.filter((l) => l !== SOURCE_LANGUAGE);
/** A language's hand-written words: ui.json (the signed-out pages, shell, engine, widgets) and app.json (the signed-in screens). */
const handWritten = (lang: string): Catalog => ({ ...readLocale(ROOT, lang, 'ui'), ...readLocale(ROOT, lang, 'app'), ...readLocale(ROOT, lang, 'server') });
const sourceUi = handWritten(SOURCE_LANGUAGE);
const formWords = new Map(sourceFormWords(ROOT).map((w) => [w.key, w.text]));

function srcFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? srcFiles(path.join(dir, e.name)) : /\.(ts|tsx)$/.test(e.name) ? [path.join(dir, e.name)] : []));
}

/**
 * Every quoted string in the dashboard's code: a key is used when it appears as one ('nav.logs'),
 * or when a template builds it from its prefix (`palette.group.${group}`).
 */
const quoted = new Set<string>();
const prefixes = new Set<string>();
for (const file of srcFiles(path.join(ROOT, 'src'))) {
  const text = fs.readFileSync(file, 'utf8');
  for (const m of text.matchAll(/(['"`])([\w.-]+)\1/g)) quoted.add(m[2]);
  for (const m of text.matchAll(/`([\w-]+\.[\w.-]*)\$\{/g)) prefixes.add(m[1]);
}
const isUsed = (key: string) => quoted.has(key) || quoted.has(baseKey(key)) || [...prefixes].some((p) => key.startsWith(p));

const samePlaceholders = (a: string, b: string) => expect(placeholdersOf(b), `${JSON.stringify(b)} vs ${JSON.stringify(a)}`).toEqual(placeholdersOf(a));

/** The source text a key translates: the key itself, or its base key for a plural variant. */
function sourceOf(ui: Catalog, key: string): string | null | undefined {
  return ui[key] ?? (PLURAL_SUFFIX.test(key) ? (ui[`${baseKey(key)}_other`] ?? ui[baseKey(key)]) : undefined);
}

it('ships English and at least one more language, each with its ui.json, app.json and forms.json', () => {
  expect(Object.keys(readLocale(ROOT, SOURCE_LANGUAGE, 'ui')).filter((k) => k in readLocale(ROOT, SOURCE_LANGUAGE, 'app')), 'a key in both ui.json and app.json').toEqual([]);
  expect(languages[0]).toBe(SOURCE_LANGUAGE);
  expect(translations.length).toBeGreaterThan(0);
  for (const lang of translations) {
    expect(fs.existsSync(path.join(ROOT, 'locales', lang, 'ui.json')), lang).toBe(true);
    expect(fs.existsSync(path.join(ROOT, 'locales', lang, 'forms.json')), lang).toBe(true);
    expect(fs.existsSync(path.join(ROOT, 'locales', lang, 'app.json')), lang).toBe(true);
  }
  expect(fs.existsSync(path.join(ROOT, 'locales', SOURCE_LANGUAGE, 'forms.json')), 'English form words are the schema files themselves').toBe(false);
});

describe('English (the source)', () => {
  it('has words for every key, and every key is used in src/', () => {
    for (const [key, text] of Object.entries(sourceUi)) {
      expect(typeof text, key).toBe('string');
      expect(isUsed(key), `locales/en/ui.json: "${key}" is not used in src/`).toBe(true);
    }
  });

  it('words the form defaults as the server does (src/lib/schema/schema-words.ts)', () => {
    for (const [key, text] of Object.entries(DEFAULT_WORDS)) expect(sourceUi[key], key).toBe(text);
  });
});

describe.each(translations)('%s', (lang) => {
  const ui = handWritten(lang);
  const forms = readLocale(ROOT, lang, 'forms');

  it('keeps each key in the file English keeps it in', () => {
    for (const part of ['ui', 'app', 'server'] as const) {
      const source = readLocale(ROOT, SOURCE_LANGUAGE, part);
      const own = Object.keys(readLocale(ROOT, lang, part)).map(baseKey);
      const elsewhere = own.filter((k) => !(k in source) && !Object.keys(source).some((s) => baseKey(s) === k));
      expect(elsewhere, `locales/${lang}/${part}.json holds keys English keeps in the other file`).toEqual([]);
    }
  });

  it('ui.json: every English key is translated or marked null (falls back)', () => {
    // a plural key is there when the language has any variant of it (its plural forms differ)
    const bases = new Set(Object.keys(ui).map(baseKey));
    const missing = Object.keys(sourceUi).filter((k) => (PLURAL_SUFFIX.test(k) ? !bases.has(baseKey(k)) : !(k in ui)));
    expect(missing, `locales/${lang}/ui.json lacks these keys`).toEqual([]);
  });

  it('ui.json: no key English lacks, placeholders as in English', () => {
    for (const [key, text] of Object.entries(ui)) {
      const source = sourceOf(sourceUi, key);
      expect(source, `locales/${lang}/ui.json: "${key}" is not an English key`).toBeTypeOf('string');
      if (typeof text === 'string') samePlaceholders(source as string, text);
    }
  });

  it('forms.json: every word of the schema and screen files is translated or marked null', () => {
    const missing = [...formWords.keys()].filter((k) => !(k in forms));
    expect(missing, `locales/${lang}/forms.json lacks these words (translate each, or null to fall back to English)`).toEqual([]);
  });

  it('forms.json: no word that is gone from the files, placeholders as in the files', () => {
    for (const [key, text] of Object.entries(forms)) {
      const source = formWords.get(key);
      expect(source, `locales/${lang}/forms.json: "${key}" is no word of the files any more: remove it`).toBeTypeOf('string');
      if (typeof text === 'string') samePlaceholders(source as string, text);
    }
  });
});
