/**
 * The semantics of our custom JSON Schema keywords, one pure function each. Every validator calls
 * these: ajv's code generators (src/lib/schema/keywords.ts) reference them from the code they emit (the
 * build-time standalone validators import this module), and the interpreter for schemas built at
 * run time (src/engine/interpret-schema.ts) calls them directly, so a keyword cannot mean one thing
 * on the server and another in the browser.
 *
 * A check returns null when the value passes, else the error's params (as ajv reports them).
 * Keywords that need facts from outside the document (the collections, the stored document) read
 * them from the validation context (`validate.call(context, data)`); without one they pass.
 *
 * Pure module: no React, no Node APIs, no ajv.
 */
import {
  COLLECTION_EXISTS_KEYWORD,
  INTEGER_WHEN_KEYWORD,
  MAXIMUM_COUNT_OF_KEYWORD,
  MINIMUM_OF_KEYWORD,
  NOT_EMPTY_KEYWORD,
  NOT_VIEW_KEYWORD,
  SAME_AS_KEYWORD,
  UNCHANGED_KEYWORD,
} from './keyword-names.js';

type Params = Record<string, unknown>;

/** What a collection keyword needs to know of a collection. */
interface KnownCollection {
  id: string;
  type: string;
}

/** Facts from outside the validated document, for the keywords that need them. */
export interface KeywordContext {
  /** A collection by id or name, as it will be after the save; undefined when there is none. */
  collection?: (idOrName: string) => KnownCollection | undefined;
  /** The type of the collection being edited. */
  collectionType?: string;
  /** The document as stored before this change (a field's options on update). */
  previous?: Record<string, unknown>;
}

/**
 * One keyword's check: its schema value, the value, the parent object and the value's property
 * name in it (undefined at the root), and the validation context.
 */
export type KeywordCheck = (schemaValue: unknown, data: unknown, parent: unknown, property: unknown, context: unknown) => Params | null;

const PASS = null;
const FAIL: Params = {};

const isParent = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
/** The context, when the caller passed one (a plain call leaves `this` undefined or global). */
const contextOf = (v: unknown): KeywordContext | undefined => (isParent(v) && v !== globalThis ? (v as KeywordContext) : undefined);
const sibling = (parent: unknown, name: unknown): unknown => (isParent(parent) ? parent[String(name)] : undefined);
/** ozzo's threshold rules skip an empty value: 0 and "" are not set. */
const isSet = (v: unknown) => (typeof v === 'number' && v !== 0) || (typeof v === 'string' && v !== '');
/** The limit a count keyword compares with: the sibling's item count, at least 1. */
const countLimit = (parent: unknown, name: unknown) => {
  const items = sibling(parent, name);
  return Math.max(Array.isArray(items) ? items.length : 0, 1);
};
/** The collection a value names, when the context can tell. */
const namedCollection = (data: unknown, context: unknown) => {
  const lookup = contextOf(context)?.collection;
  return typeof lookup === 'function' && typeof data === 'string' ? { found: lookup(data) } : undefined;
};

export const KEYWORD_CHECKS: Readonly<Record<string, KeywordCheck>> = {
  // Without a parent object (a bare value validated on its own) there is nothing to compare.
  [SAME_AS_KEYWORD]: (name, data, parent) => (isParent(parent) && data !== parent[String(name)] ? FAIL : PASS),

  [NOT_EMPTY_KEYWORD]: (_s, data) => (data === 0 || data === '' || (Array.isArray(data) && data.length === 0) ? FAIL : PASS),

  // The limit counts when it is of the value's type and not "" (a min of 0 is a limit).
  [MINIMUM_OF_KEYWORD]: (name, data, parent) => {
    const other = sibling(parent, name);
    const below = isParent(parent) && isSet(data) && typeof other === typeof data && other !== '' && (data as number) < (other as number);
    return below ? { limit: other } : PASS;
  },

  [INTEGER_WHEN_KEYWORD]: (name, data, parent) =>
    sibling(parent, name) === true && typeof data === 'number' && !Number.isInteger(data) ? FAIL : PASS,

  [MAXIMUM_COUNT_OF_KEYWORD]: (name, data, parent) => {
    const limit = countLimit(parent, name);
    return isParent(parent) && typeof data === 'number' && data > limit ? { limit } : PASS;
  },

  // The stored document's value of this property, when there is one, may not change.
  [UNCHANGED_KEYWORD]: (_s, data, _parent, property, context) => {
    const previous = contextOf(context)?.previous;
    if (!isParent(previous) || property === undefined || !(String(property) in previous)) return PASS;
    return previous[String(property)] === data ? PASS : { previous: previous[String(property)] };
  },

  // Looked up by id or name, the collection must be the one with this id.
  [COLLECTION_EXISTS_KEYWORD]: (_s, data, _parent, _property, context) => {
    const named = namedCollection(data, context);
    return named && named.found?.id !== data ? FAIL : PASS;
  },

  // Only a view may point at a view.
  [NOT_VIEW_KEYWORD]: (_s, data, _parent, _property, context) => {
    const named = namedCollection(data, context);
    return named?.found?.type === 'view' && contextOf(context)?.collectionType !== 'view' ? FAIL : PASS;
  },
};

/** ajv's message for a failing custom keyword (the mapper words errors itself; tools read this one). */
export const keywordMessage = (keyword: string): string => `must pass "${keyword}" keyword validation`;

/** The keywords that judge a value against its validation context (they pass without one). */
export const CONTEXT_KEYWORDS: ReadonlySet<string> = new Set([UNCHANGED_KEYWORD, COLLECTION_EXISTS_KEYWORD, NOT_VIEW_KEYWORD]);
