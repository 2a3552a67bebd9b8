/**
 * How a schema file words a failing keyword: the `x-messages` / `x-codes` of the failing schema or
 * of the property's own schema, else PocketBase-style defaults. Shared by the dashboard's form
 * messages (src/engine/messages.ts) and PocketBase's error tree (./error-tree.ts, server and
 * browser), so a field shows the same words on every path.
 *
 * Pure module: no React, no Node APIs, no ajv, no rjsf.
 */
import {
  CODES_KEYWORD,
  COLLECTION_EXISTS_KEYWORD,
  FORM_MESSAGES_KEYWORD,
  GO_REGEX_FORMAT,
  INTEGER_WHEN_KEYWORD,
  MAXIMUM_COUNT_OF_KEYWORD,
  MESSAGES_KEYWORD,
  MINIMUM_OF_KEYWORD,
  NOT_EMPTY_KEYWORD,
  NOT_VIEW_KEYWORD,
  SAME_AS_KEYWORD,
  UNCHANGED_KEYWORD,
} from './keyword-names.js';
import { goRegexError } from './go-regex.js';
import { isObject } from '../json';

/** PocketBase's inflector.Sentenize: capital first letter, final full stop. */
export function sentenize(text: string): string {
  const s = text.trim();
  if (!s) return '';
  const out = s[0].toUpperCase() + s.slice(1);
  return /[.?!]$/.test(out) ? out : `${out}.`;
}

type Schema = Record<string, unknown>;
type Params = Record<string, unknown>;

/**
 * The default words of a failing keyword, as a key of the dashboard's catalogs (locales/<lang>/
 * ui.json, `form.*`) with its values; DEFAULT_WORDS holds the English the server answers with (a
 * contract test holds locales/en/ui.json to it).
 */
export interface DefaultWords {
  key: string;
  params?: Record<string, unknown>;
}

export const DEFAULT_WORDS: Readonly<Record<string, string>> = {
  'form.required': 'Cannot be blank.',
  'form.minLength': 'Minimum {limit} characters.',
  'form.maxLength': 'Maximum {limit} characters.',
  'form.minimum': 'Must be no less than {limit}.',
  'form.maximum': 'Must be no greater than {limit}.',
  'form.noDecimal': 'Decimal numbers are not allowed.',
  'form.minItems': 'Select at least {limit} items.',
  'form.maxItems': 'Select up to {limit} items.',
  'form.goRegex': '{error}',
  'form.email': 'Must be a valid email address.',
  'form.url': 'Must be a valid url.',
  'form.format': 'Invalid format.',
  'form.enumValue': 'Invalid value {value}.',
  'form.invalid': 'Invalid value.',
  'form.mismatch': "Values don't match.",
};

const FORMAT_WORDS: Record<string, string> = { email: 'form.email', uri: 'form.url', url: 'form.url' };

/** Fallback messages, modelled on PocketBase's validation wording; `value` is the failing value when known. */
export function defaultWordsOf(keyword: string, params: Params, value?: unknown): DefaultWords {
  const limit = params.limit as number | undefined;
  switch (keyword) {
    case 'required':
    case NOT_EMPTY_KEYWORD:
      return { key: 'form.required' };
    case 'minLength':
      return { key: 'form.minLength', params: { limit } };
    case 'maxLength':
      return { key: 'form.maxLength', params: { limit } };
    case 'minimum':
    case MINIMUM_OF_KEYWORD:
      return { key: 'form.minimum', params: { limit } };
    case 'maximum':
    case MAXIMUM_COUNT_OF_KEYWORD:
      return { key: 'form.maximum', params: { limit } };
    case INTEGER_WHEN_KEYWORD:
      return { key: 'form.noDecimal' };
    case 'minItems':
      return { key: 'form.minItems', params: { limit } };
    case 'maxItems':
      return { key: 'form.maxItems', params: { limit } };
    case 'format':
      // 0.22 answers with the Go parser's own words
      if (params.format === GO_REGEX_FORMAT && typeof value === 'string') return { key: 'form.goRegex', params: { error: sentenize(goRegexError(value) ?? 'Invalid format.') } };
      return { key: FORMAT_WORDS[String(params.format)] ?? 'form.format' };
    case 'pattern':
      return { key: 'form.format' };
    case 'enum':
      // PocketBase names the rejected select value
      return typeof value === 'string' || typeof value === 'number' ? { key: 'form.enumValue', params: { value } } : { key: 'form.invalid' };
    case SAME_AS_KEYWORD:
      return { key: 'form.mismatch' };
    default:
      return { key: 'form.invalid' };
  }
}

function defaultMessage(keyword: string, params: Params, value?: unknown): string {
  const words = defaultWordsOf(keyword, params, value);
  return DEFAULT_WORDS[words.key].replace(/\{(\w+)\}/g, (whole, name: string) => (words.params?.[name] === undefined ? whole : String(words.params[name])));
}

/** ozzo-validation's codes for a failing keyword, when the schema names none. */
const DEFAULT_CODES: Record<string, string> = {
  required: 'validation_required',
  type: 'validation_invalid_type',
  minLength: 'validation_length_too_short',
  maxLength: 'validation_length_too_long',
  minimum: 'validation_min_greater_equal_than_required',
  exclusiveMinimum: 'validation_min_greater_than_required',
  maximum: 'validation_max_less_equal_than_required',
  exclusiveMaximum: 'validation_max_less_than_required',
  pattern: 'validation_match_invalid',
  enum: 'validation_in_invalid',
  const: 'validation_in_invalid',
  minItems: 'validation_length_too_short',
  maxItems: 'validation_length_too_long',
  [SAME_AS_KEYWORD]: 'validation_values_mismatch',
  [NOT_EMPTY_KEYWORD]: 'validation_required',
  [MINIMUM_OF_KEYWORD]: 'validation_min_greater_equal_than_required',
  [MAXIMUM_COUNT_OF_KEYWORD]: 'validation_max_less_equal_than_required',
  [INTEGER_WHEN_KEYWORD]: 'validation_no_decimal_constraint',
};
const FORMAT_CODES: Record<string, string> = {
  email: 'validation_is_email',
  uri: 'validation_is_url',
  url: 'validation_is_url',
  hostname: 'validation_is_host',
  [GO_REGEX_FORMAT]: 'validation_invalid_regex',
};

function defaultCode(keyword: string, params: Params): string {
  if (keyword === 'format') return FORMAT_CODES[String(params.format)] ?? 'validation_invalid_format';
  return DEFAULT_CODES[keyword] ?? 'validation_invalid_value';
}

/** Which failure a field reports first: the most basic problem first, "doesn't match" last. */
const KEYWORD_ORDER = [
  // a relation's target is checked before its options, as 0.22 does
  UNCHANGED_KEYWORD, COLLECTION_EXISTS_KEYWORD, NOT_VIEW_KEYWORD,
  'required', NOT_EMPTY_KEYWORD, 'dependencies', 'type', 'multipleOf', 'minLength', 'maxLength', 'format', 'pattern',
  // "max no less than min" names the limit that counts when both fail
  MINIMUM_OF_KEYWORD, 'minimum', 'maximum', 'minItems', 'maxItems', 'enum', 'const',
];
export function keywordPriority(keyword = ''): number {
  const i = KEYWORD_ORDER.indexOf(keyword);
  return i < 0 ? KEYWORD_ORDER.length : i;
}

/**
 * Keywords that only say "a sub-schema failed"; the sub-schema's own error is the useful one.
 * (`not` reports no sub-errors, so it is an error of its own, worded by `x-codes` / `x-messages`.)
 */
export const WRAPPER_KEYWORDS: ReadonlySet<string> = new Set(['if', 'then', 'else', 'allOf', 'anyOf', 'oneOf']);

/** Resolves a local JSON pointer ('#/definitions/x', or a schema path) against the root schema. */
function resolvePointer(root: Schema, pointer: string): unknown {
  if (!pointer.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/').filter(Boolean)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function deref(root: Schema, node: unknown): Schema | undefined {
  if (!isObject(node)) return undefined;
  if (typeof node.$ref === 'string') return deref(root, resolvePointer(root, node.$ref));
  return node;
}

/** The schema owning the keyword at an ajv schemaPath ('#/properties/a/minLength' → properties.a). */
function failingSchema(root: Schema, schemaPath: string): Schema | undefined {
  return deref(root, resolvePointer(root, schemaPath.replace(/\/[^/]*$/, '')));
}

/**
 * Every sub-schema that can describe the property at `path`: properties of the object schema and
 * of its conditional branches (allOf, if/then/else, dependencies, anyOf/oneOf).
 */
function propertySchemas(root: Schema, path: readonly string[]): Schema[] {
  let level: Schema[] = [root];
  for (const key of path) {
    const next: Schema[] = [];
    const visit = (node: unknown, depth: number) => {
      const s = deref(root, node);
      if (!s || depth > 8) return;
      if (isObject(s.properties) && key in s.properties) {
        const p = deref(root, s.properties[key]);
        if (p) next.push(p);
      }
      if (isObject(s.items) && /^\d+$/.test(key)) {
        const p = deref(root, s.items);
        if (p) next.push(p);
      }
      for (const k of ['then', 'else']) visit(s[k], depth + 1);
      for (const k of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(s[k])) (s[k] as unknown[]).forEach((b) => visit(b, depth + 1));
      if (isObject(s.dependencies)) Object.values(s.dependencies).forEach((d) => visit(d, depth + 1));
    };
    level.forEach((s) => visit(s, 0));
    level = next;
  }
  return level;
}

/** A failing keyword as the schema words it. */
export interface KeywordFailure {
  /** ajv's keyword; a property dependency reads as `required`. */
  keyword: string;
  /** The property path (a missing property's path ends with its name). */
  path: readonly string[];
  params: Params;
  /** ajv's schemaPath of the failing keyword. */
  schemaPath?: string;
  /** The failing value, when known ("Invalid value x."). */
  value?: unknown;
}

function annotation(schema: Schema | undefined, name: string, keyword: string): string | undefined {
  const map = schema?.[name];
  return isObject(map) && typeof map[keyword] === 'string' ? map[keyword] : undefined;
}

/** The failing schema's annotation, then the property's (`required` only looks at the property). */
function lookup(root: Schema, failure: KeywordFailure, name: string): string | undefined {
  if (failure.schemaPath && failure.keyword !== 'required') {
    const own = annotation(failingSchema(root, failure.schemaPath), name, failure.keyword);
    if (own) return own;
  }
  for (const s of propertySchemas(root, failure.path)) {
    const found = annotation(s, name, failure.keyword);
    if (found) return found;
  }
  return undefined;
}

export function messageOf(root: Schema, failure: KeywordFailure): string {
  return lookup(root, failure, MESSAGES_KEYWORD) ?? defaultMessage(failure.keyword, failure.params, failure.value);
}

/**
 * The words the dashboard's form gives a failure when its schema words it: x-form-messages, then
 * x-messages (else the catalog's words for defaultWordsOf, which are messageOf's in English).
 */
export function schemaFormMessageOf(root: Schema, failure: KeywordFailure): string | undefined {
  return lookup(root, failure, FORM_MESSAGES_KEYWORD) ?? lookup(root, failure, MESSAGES_KEYWORD);
}

export function codeOf(root: Schema, failure: KeywordFailure): string {
  return lookup(root, failure, CODES_KEYWORD) ?? defaultCode(failure.keyword, failure.params);
}
