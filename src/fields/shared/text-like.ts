// What the string-valued types share: the cast, the column, the form value, the import cell, and
// the domain lists of email and url.
import type { DocWord, FieldDefinition, FieldLike } from '../types';
import { castString } from './casts';
import { setNumber, strings } from './schema';

type Shared = Pick<FieldDefinition, 'columnDefinition' | 'prepare' | 'toColumn'>;

export const stringValue: Shared = {
  columnDefinition: () => "TEXT DEFAULT '' NOT NULL",
  prepare: (value) => castString(value),
  toColumn: (value) => (value === null || value === undefined ? '' : String(value)),
};

/** The form's text for a value ('' for none). */
export const textToForm = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));

/** An import cell as text (objects as JSON). */
export const cellText = (cell: unknown): string =>
  cell === null || cell === undefined ? '' : typeof cell === 'object' ? JSON.stringify(cell) : String(cell);

export const domainOptions = () => ({ exceptDomains: null, onlyDomains: null });

const domainIn = (domain: string, list: unknown) => Array.isArray(list) && list.length > 0 && list.includes(domain);
const hasList = (list: unknown) => Array.isArray(list) && list.length > 0;

/** Whether a domain passes the field's onlyDomains / exceptDomains. */
export function domainAllowed(domain: string, options: Record<string, unknown>): boolean {
  if (hasList(options.onlyDomains) && !domainIn(domain, options.onlyDomains)) return false;
  if (hasList(options.exceptDomains) && domainIn(domain, options.exceptDomains)) return false;
  return true;
}

export function describeDomains(field: FieldLike): DocWord[] {
  const parts: DocWord[] = [];
  const only = strings(field.options.onlyDomains);
  const except = strings(field.options.exceptDomains);
  if (only.length) parts.push({ key: 'apiDocs.option.onlyDomains', values: { domains: only.join(', ') } });
  if (except.length) parts.push({ key: 'apiDocs.option.exceptDomains', values: { domains: except.join(', ') } });
  return parts;
}

/** Go's inflector.Sentenize: capital first letter, a full stop at the end. */
export function sentenize(s: string): string {
  const t = s.trim();
  if (t === '') return t;
  const first = t[0].toUpperCase() + t.slice(1);
  return /[.!?]$/.test(first) ? first : first + '.';
}

export const fieldError = (code: string, message: string) => ({ code, message: sentenize(message) });

/** The API docs' words for a text-like field's length and pattern options ("at least 3 characters", …). */
export function describeLengthAndPattern(field: FieldLike): DocWord[] {
  const o = field.options;
  const parts: DocWord[] = [];
  const min = setNumber(o.min);
  const max = setNumber(o.max);
  if (min !== null) parts.push({ key: 'apiDocs.option.minChars', values: { min } });
  if (max !== null) parts.push({ key: 'apiDocs.option.maxChars', values: { max } });
  if (typeof o.pattern === 'string' && o.pattern) parts.push({ key: 'apiDocs.option.pattern', values: { pattern: o.pattern } });
  return parts;
}

