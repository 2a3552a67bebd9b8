// Validation of each field type's options, with the codes and messages PocketBase 0.22 answers
// (models/schema/schema_field.go, ozzo-validation rules as PocketBase sentences them).
import type { ErrorTree, FieldError } from '../../src/lib/schema/error-tree';
import type { FieldType } from './model';

export type { ErrorTree };

export const E = (code: string, message: string): FieldError => ({ code, message });

export const REQUIRED = E('validation_required', 'Cannot be blank.');
export const NIL_OR_NOT_EMPTY = E('validation_nil_or_not_empty_required', 'Cannot be blank.');
export const MUST_BE_BLANK_EMPTY = E('validation_empty', 'Must be blank.');
export const MUST_BE_BLANK_NIL = E('validation_nil', 'Must be blank.');
export const IN_INVALID = E('validation_in_invalid', 'Must be a valid value.');
export const NOT_IN_INVALID = E('validation_not_in_invalid', 'Must not be in list.');
export const MATCH_INVALID = E('validation_match_invalid', 'Must be in a valid format.');
export const minError = (n: number) => E('validation_min_greater_equal_than_required', `Must be no less than ${n}.`);
export const maxError = (n: number) => E('validation_max_less_equal_than_required', `Must be no greater than ${n}.`);

/** PocketBase's inflector.Sentenize: capital first letter, final full stop. */
export function sentenize(text: string): string {
  const s = text.trim();
  if (!s) return '';
  const out = s[0].toUpperCase() + s.slice(1);
  return /[.?!]$/.test(out) ? out : `${out}.`;
}

// ozzo's is.Domain
const DOMAIN_RE = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{1,63}|xn--[a-z0-9]{1,59})$/i;
const THUMB_RE = /^(\d+)x(\d+)(t|b|f)?$/;

const isNum = (v: unknown): v is number => typeof v === 'number';
/** ozzo's threshold rules skip "empty" values (nil and 0). */
const emptyNum = (v: unknown) => v === null || v === undefined || v === 0;

function domainList(value: unknown, other: unknown): FieldError | ErrorTree | null {
  const list = Array.isArray(value) ? (value as string[]) : [];
  const otherList = Array.isArray(other) ? other : [];
  if (otherList.length > 0) return list.length > 0 ? MUST_BE_BLANK_EMPTY : null;
  const errors: ErrorTree = {};
  list.forEach((d, i) => {
    if (d !== '' && !(d.length <= 255 && DOMAIN_RE.test(d))) errors[String(i)] = E('validation_is_domain', 'Must be a valid domain.');
  });
  return Object.keys(errors).length ? errors : null;
}

/** Checks a Go (RE2) regular expression; returns Go-like error text or null. */
export function goRegexError(pattern: string): string | null {
  if (pattern === '') return null;
  // RE2 has no lookaround or backreferences; JS would accept them.
  const unsupported = /\(\?<?[=!]/.exec(pattern);
  if (unsupported) return `error parsing regexp: invalid or unsupported Perl syntax: \`${unsupported[0]}\``;
  const backref = /\\[1-9]/.exec(pattern);
  if (backref) return `error parsing regexp: invalid escape sequence: \`${backref[0]}\``;
  // Translate the RE2-only syntax JS lacks before letting JS parse the rest.
  const translated = pattern.replace(/^\(\?[imsU]+\)/, '').replace(/\(\?P</g, '(?<').replace(/\(\?[imsU]+:/g, '(?:');
  try {
    new RegExp(translated, 'u');
    return null;
  } catch (err) {
    try {
      new RegExp(translated);
      return null;
    } catch {
      const reason = err instanceof Error ? err.message.replace(/^Invalid regular expression: /, '') : String(err);
      return `error parsing regexp: ${reason}`;
    }
  }
}

/** The option errors of one field (keys alphabetical later); null when valid. */
export function validateFieldOptions(type: FieldType, o: Record<string, unknown>): ErrorTree | null {
  const errors: ErrorTree = {};
  const set = (key: string, err: FieldError | ErrorTree | null) => {
    if (err) errors[key] = err;
  };
  switch (type) {
    case 'text': {
      const min = isNum(o.min) ? o.min : 0;
      set('min', isNum(o.min) && o.min < 0 ? minError(0) : null);
      set('max', isNum(o.max) && !emptyNum(o.max) && o.max < min ? minError(min) : null);
      const regexError = typeof o.pattern === 'string' ? goRegexError(o.pattern) : null;
      set('pattern', regexError ? E('validation_invalid_regex', sentenize(regexError)) : null);
      break;
    }
    case 'number': {
      const decimal = (v: unknown) => o.noDecimal === true && isNum(v) && !Number.isInteger(v);
      const noDecimal = E('validation_no_decimal_constraint', 'Decimal numbers are not allowed.');
      set('min', decimal(o.min) ? noDecimal : null);
      if (isNum(o.min) && isNum(o.max)) {
        if (!emptyNum(o.max) && o.max < o.min) set('max', minError(o.min));
        else if (decimal(o.max)) set('max', noDecimal);
      }
      break;
    }
    case 'email':
    case 'url':
      set('exceptDomains', domainList(o.exceptDomains, o.onlyDomains));
      set('onlyDomains', domainList(o.onlyDomains, o.exceptDomains));
      break;
    case 'date':
      if (typeof o.min === 'string' && typeof o.max === 'string' && o.min && o.max && o.max < o.min) {
        set('max', E('validation_date_out_of_range', 'The date is out of range.'));
      }
      break;
    case 'select': {
      const values = Array.isArray(o.values) ? o.values : [];
      set('values', values.length === 0 ? REQUIRED : null);
      const max = Math.max(values.length, 1);
      const m = o.maxSelect;
      set('maxSelect', emptyNum(m) ? REQUIRED : isNum(m) && m < 1 ? minError(1) : isNum(m) && m > max ? maxError(max) : null);
      break;
    }
    case 'json':
      set('maxSize', emptyNum(o.maxSize) ? REQUIRED : isNum(o.maxSize) && o.maxSize < 1 ? minError(1) : null);
      break;
    case 'file': {
      set('maxSelect', emptyNum(o.maxSelect) ? REQUIRED : isNum(o.maxSelect) && o.maxSelect < 1 ? minError(1) : null);
      set('maxSize', emptyNum(o.maxSize) ? REQUIRED : isNum(o.maxSize) && o.maxSize < 1 ? minError(1) : null);
      const thumbs: ErrorTree = {};
      (Array.isArray(o.thumbs) ? (o.thumbs as string[]) : []).forEach((t, i) => {
        if (t === '') return;
        if (['0x0', '0x0t', '0x0b', '0x0f'].includes(t)) thumbs[String(i)] = NOT_IN_INVALID;
        else if (!THUMB_RE.test(t)) thumbs[String(i)] = MATCH_INVALID;
      });
      set('thumbs', Object.keys(thumbs).length ? thumbs : null);
      break;
    }
    case 'relation': {
      set('collectionId', o.collectionId === '' || o.collectionId == null ? REQUIRED : null);
      const minSel = isNum(o.minSelect) ? o.minSelect : 0;
      set('minSelect', isNum(o.minSelect) && o.minSelect < 0 ? minError(0) : null);
      set('maxSelect', o.maxSelect === 0 ? NIL_OR_NOT_EMPTY : isNum(o.maxSelect) && o.maxSelect < minSel ? minError(minSel) : null);
      break;
    }
    default:
      break;
  }
  return Object.keys(errors).length ? errors : null;
}
