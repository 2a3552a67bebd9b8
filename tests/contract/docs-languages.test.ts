// The generated documentation of every form is produced per language (issue 37): each language
// under locales/ has a page for every form (docs/forms/ for English, docs/forms/<lang>/ for the
// others) with the form's translated title, no English word of the form's files left where the
// language translates it, and the documentation's own words (locales/<lang>/docs.json) complete.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { placeholdersOf } from '../../src/lib/i18n/catalog';
import { wordsOf } from '../../src/lib/i18n/file-words';
import { localeLanguages, readLocale, SOURCE_LANGUAGE } from '../../src/lib/i18n/locale-files';
import { DOCS_DIR, languageDir, loadCatalog, ROOT } from '../../scripts/gen-docs';

const languages = localeLanguages(ROOT);
const forms = loadCatalog(ROOT).forms;
const sourceDocWords = readLocale(ROOT, SOURCE_LANGUAGE, 'docs');
const doc = (lang: string, name: string) => path.join(DOCS_DIR, `${languageDir(lang)}${name}.md`);

it('is written in English and at least one more language', () => {
  expect(languages[0]).toBe(SOURCE_LANGUAGE);
  expect(languages.length).toBeGreaterThan(1);
  expect(forms.length).toBeGreaterThan(40);
});

describe.each(languages)('%s', (lang) => {
  const translations = lang === SOURCE_LANGUAGE ? {} : readLocale(ROOT, lang, 'forms');

  it('has a page for every form, and an index linking each', () => {
    const missing = forms.filter((f) => !fs.existsSync(doc(lang, f.name))).map((f) => f.name);
    expect(missing, 'run `npm run docs`').toEqual([]);
    const index = fs.readFileSync(path.join(DOCS_DIR, languageDir(lang), 'README.md'), 'utf8');
    for (const f of forms) expect(index, f.name).toContain(`(${f.name}.md)`);
  });

  it("heads each page with the form's title in the language", () => {
    for (const f of forms) {
      const source = f.schema.title as string | undefined;
      const own = translations[`schemas/${f.name}.schema.json#/title`];
      const title = typeof own === 'string' ? own : (source ?? f.name);
      expect(fs.readFileSync(doc(lang, f.name), 'utf8').split('\n')[0], f.name).toBe(`# ${title} (\`${f.name}\`)`);
    }
  });

  it.skipIf(lang === SOURCE_LANGUAGE)("leaves no English word of a form's files the language translates", () => {
    const left: string[] = [];
    for (const f of forms) {
      // the root description is the maintainers' note (not a dashboard word, never translated);
      // code spans hold values (defaults, patterns), never words
      const text = fs
        .readFileSync(doc(lang, f.name), 'utf8')
        .replace(String(f.schema.description ?? '\u0000'), '')
        .replace(/`[^`]*`/g, '');
      const words = [...wordsOf(`schemas/${f.name}.schema.json`, f.schema), ...wordsOf(`schemas/${f.name}.ui.json`, f.uiSchema)];
      for (const w of words) {
        const own = translations[w.key];
        if (typeof own !== 'string' || own === w.text || w.text.length <= 6 || own.includes(w.text)) continue;
        // as words of their own, not inside another word ('Password' in 'changePassword')
        const escaped = w.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        if (new RegExp(`(?<![\\p{L}\\d_])${escaped}(?![\\p{L}\\d_])`, 'u').test(text)) left.push(`${f.name}: ${JSON.stringify(w.text)}`);
      }
    }
    expect(left).toEqual([]);
  });

  it.skipIf(lang === SOURCE_LANGUAGE)("words the documentation's own words (docs.json), placeholders as in English", () => {
    const own = readLocale(ROOT, lang, 'docs');
    expect(Object.keys(sourceDocWords).filter((k) => typeof own[k] !== 'string'), `locales/${lang}/docs.json lacks these keys`).toEqual([]);
    expect(Object.keys(own).filter((k) => !(k in sourceDocWords)), `locales/${lang}/docs.json: keys English lacks`).toEqual([]);
    for (const [k, text] of Object.entries(own)) expect(placeholdersOf(String(text)), k).toEqual(placeholdersOf(String(sourceDocWords[k])));
  });
});
