/**
 * Translation catalogs: a language's words are JSON files under locales/<lang>/ (README "How to
 * add a language"). A catalog maps a key to its words, `{name}` marking a value filled in, or to
 * null: deliberately not translated, the source language's words are shown (the contract tests
 * accept null as "falls back"). A key with `_one` / `_other` (…) variants is chosen by the
 * language's plural rule for `count`.
 *
 * Pure module: no React, no DOM. An own t() rather than i18next: the sign-in page has a 150 KB
 * budget, and what is needed here (lookup, placeholders, plural variants) is this file.
 */
export type Catalog = Readonly<Record<string, string | null>>;
export type Params = Readonly<Record<string, unknown>>;

const PLACEHOLDER = /\{([A-Za-z_][\w.]*)\}/g;

/** The placeholder names of a text (`{count}`, `{name}`), sorted and unique. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]))].sort();
}

/** Fills `{name}` with params.name; numbers are formatted for the language. */
export function interpolate(text: string, params: Params | undefined, lang: string): string {
  if (!params) return text;
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const v = params[name];
    if (v === undefined || v === null) return whole;
    return typeof v === 'number' ? formatNumber(v, lang) : String(v);
  });
}

const numberFormats = new Map<string, Intl.NumberFormat>();
/** A number written for the language (1,234.5 / 1.234,5). */
function formatNumber(n: number, lang: string): string {
  let f = numberFormats.get(lang);
  if (!f) numberFormats.set(lang, (f = new Intl.NumberFormat(lang, { maximumFractionDigits: 20 })));
  return f.format(n);
}

const pluralRules = new Map<string, Intl.PluralRules>();
function pluralOf(n: number, lang: string): string {
  let r = pluralRules.get(lang);
  if (!r) pluralRules.set(lang, (r = new Intl.PluralRules(lang)));
  return r.select(n);
}

/** The text for a key in one catalog (plural variant by `count`); undefined when the catalog lacks it. */
export function lookup(catalog: Catalog | undefined, key: string, params: Params | undefined, lang: string): string | null | undefined {
  if (!catalog) return undefined;
  const count = params?.count;
  if (typeof count === 'number') {
    const variant = catalog[`${key}_${pluralOf(count, lang)}`] ?? catalog[`${key}_other`];
    if (variant !== undefined) return variant;
  }
  return catalog[key];
}

/** The keys a plural key stands for in a catalog (`n_one`, `n_other` → `n`). */
export const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
export function baseKey(key: string): string {
  return key.replace(PLURAL_SUFFIX, '');
}
