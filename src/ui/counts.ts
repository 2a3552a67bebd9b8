// Counts written for the dashboard's language: 0.22's plain digits in the source language (as the
// dates, src/lib/date-display.ts), grouped as another language groups them ('1.234').
import type { Params } from '../lib/i18n/catalog';
import { currentLanguage, LANGUAGES, t } from './i18n';

/** A count as the dashboard's language writes it (English: plain digits, as PocketBase 0.22). */
export function formatCount(n: number): string {
  const lang = currentLanguage();
  return lang === LANGUAGES[0] ? String(n) : new Intl.NumberFormat(lang).format(n);
}

/** t() for words with a count: `{n}` is the count as formatCount writes it, and the count chooses the plural form. */
export function tCount(key: string, n: number, params?: Params): string {
  return t(key, { ...params, count: n, n: formatCount(n) });
}
