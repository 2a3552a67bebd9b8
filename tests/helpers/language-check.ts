// What the language e2e tests look for on a page shown in German (issue 37): the keys the page
// reported missing (src/ui/i18n.ts writes them to window.__outpostMissingWords), and English
// words German words differently left on it (hand-written and the schema/screen files').
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { sourceFormWords } from '../../src/lib/i18n/locale-files';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, 'locales', file), 'utf8')) as Record<string, string | null>;
const de = { ...read('de/ui.json'), ...read('de/app.json') };
const en = { ...read('en/ui.json'), ...read('en/app.json') } as Record<string, string>;
const deForms = read('de/forms.json');
const formWords = sourceFormWords(ROOT).filter((w) => typeof deForms[w.key] === 'string' && deForms[w.key] !== w.text).map((w) => w.text);
const handWords = Object.keys(en).filter((k) => typeof de[k] === 'string' && de[k] !== en[k]).map((k) => en[k]);

export const missingWords = (p: Page): Promise<string[]> => p.evaluate(() => window.__outpostMissingWords ?? []);

/**
 * The English words German words differently (hand-written and the files'), long enough not to be
 * data, found as a line of a text; with `inside`, also found anywhere in a line (a sentence built
 * around a value, 'Found 3 logs', is never a whole line of its own).
 */
export function englishLeft(text: string, { inside = false } = {}): string[] {
  const lines = text.split('\n').map((l) => l.trim());
  const set = new Set(lines);
  const words = [...handWords, ...formWords].filter((w) => w.length > 6);
  const whole = words.filter((w) => !/\{/.test(w) && set.has(w));
  if (!inside) return whole;
  // a template's fixed parts ('Found ', ' logs') of at least two words
  const pieces = words.flatMap((w) => w.split(/\{\w+\}/)).map((p) => p.trim()).filter((p) => /\p{L}{2,}\s+\p{L}{2,}/u.test(p));
  return [...new Set([...whole, ...pieces.filter((p) => lines.some((l) => l.includes(p)))])];
}

/**
 * A page's words (or those of the elements `scope` selects): text and aria-label, title and
 * placeholder attributes, one per line.
 */
export const pageWords = (p: Page, scope = 'body'): Promise<string> =>
  p.evaluate((selector) => {
    return [...document.querySelectorAll<HTMLElement>(selector)]
      .flatMap((root) => [
        root.innerText,
        ...[root, ...root.querySelectorAll('[aria-label], [title], [placeholder]')].flatMap((el) =>
          ['aria-label', 'title', 'placeholder'].map((a) => el.getAttribute(a) ?? '').filter(Boolean),
        ),
      ])
      .join('\n');
  }, scope);
