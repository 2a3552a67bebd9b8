/**
 * The custom JSON Schema keywords (and formats) our schema files may use, declared once for every consumer:
 * the dashboard's rjsf validator, the build-time precompiled validators, the contract tests and the
 * server. Anything else that is not a standard keyword fails ajv strict mode, which keeps the
 * schema files honest.
 *
 * Keywords are defined with ajv `code` generators (not `validate` functions) so that ajv's
 * standalone code generation can emit them: the browser runs validators compiled at build time
 * (src/engine/vite-plugin-validators.ts) without shipping the ajv compiler. What a keyword means
 * is one pure function (src/lib/schema/keyword-checks.ts) that the emitted code calls and the
 * run-time interpreter (src/engine/interpret-schema.ts) calls too.
 *
 * Pure module: no React, no Node APIs.
 */
import type Ajv from 'ajv';
import { _, type Code, type KeywordCxt, type KeywordDefinition } from 'ajv';
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
  PROVIDER_KEYWORD,
  SAME_AS_KEYWORD,
  STORED_DEFAULT_KEYWORD,
  UNCHANGED_KEYWORD,
} from './keyword-names.js';
import { isGoRegex } from './go-regex.js';
import { KEYWORD_CHECKS, keywordMessage } from './keyword-checks.js';

/** The module specifier standalone code requires the checks from (vite-plugin-validators.ts links it). */
export const CHECKS_MODULE = '@outpost/keyword-checks';

/** A user-info mapping: a dot path (`data.0.id`, `token.email` reads the token response) or a `{path}` template. */
const USER_FIELD = { type: 'string', minLength: 1 };

/** The facts of x-provider (see keyword-names.ts); ajv checks every provider file against this. */
const PROVIDER_META_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['logo', 'displayName', 'authUrl', 'tokenUrl', 'userApiUrl', 'scopes', 'pkce', 'user'],
  properties: {
    logo: { type: 'string', pattern: '^[a-z0-9-]+\\.svg$' },
    displayName: { type: 'string', minLength: 1 },
    authUrl: { type: 'string' },
    tokenUrl: { type: 'string' },
    userApiUrl: { type: 'string' },
    scopes: { type: 'array', items: { type: 'string', minLength: 1 } },
    pkce: { type: 'boolean' },
    userSource: { enum: ['userApi', 'idToken'] },
    userApiClientIdHeader: { type: 'string', minLength: 1 },
    authParams: { type: 'object', additionalProperties: { type: 'string' } },
    accept: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
    emails: {
      type: 'object',
      additionalProperties: false,
      required: ['url', 'email', 'match'],
      properties: {
        url: { type: 'string', minLength: 1 },
        when: { enum: ['missing', 'always'] },
        list: { type: 'string' },
        email: USER_FIELD,
        match: { type: 'object', minProperties: 1, additionalProperties: { type: ['string', 'number', 'boolean'] } },
      },
    },
    user: {
      type: 'object',
      additionalProperties: false,
      required: ['id'],
      properties: {
        id: USER_FIELD,
        name: USER_FIELD,
        username: USER_FIELD,
        email: USER_FIELD,
        avatar: USER_FIELD,
        emailVerified: { anyOf: [USER_FIELD, { type: 'boolean' }] },
      },
    },
  },
};

/**
 * A keyword whose meaning is a pure check of src/lib/schema/keyword-checks.ts: the emitted code
 * calls the check (standalone code requires it from CHECKS_MODULE, which the build links to that
 * file) with the value, its parent and property name and `this`, the validation context.
 */
function checkedKeyword(keyword: string, schemaType: 'string' | 'boolean', metaSchema: object): KeywordDefinition {
  return {
    keyword,
    schemaType,
    metaSchema,
    error: { message: keywordMessage(keyword), params: ({ params }) => params.failure as Code },
    code(cxt: KeywordCxt) {
      const { gen, it } = cxt;
      const check = gen.scopeValue('func', { ref: KEYWORD_CHECKS[keyword], code: _`require(${CHECKS_MODULE}).KEYWORD_CHECKS[${keyword}]` });
      const failure = gen.const('failure', _`${check}(${cxt.schemaCode}, ${cxt.data}, ${it.parentData}, ${it.parentDataProperty}, this)`);
      cxt.setParams({ failure });
      cxt.fail(_`${failure} !== null`);
    },
  };
}

const SIBLING_NAME = { type: 'string', minLength: 1 };
const TRUE = { const: true };

const CUSTOM_KEYWORDS: readonly KeywordDefinition[] = [
  {
    keyword: MESSAGES_KEYWORD,
    schemaType: 'object',
    metaSchema: { type: 'object', additionalProperties: { type: 'string' } },
  },
  {
    keyword: FORM_MESSAGES_KEYWORD,
    schemaType: 'object',
    metaSchema: { type: 'object', additionalProperties: { type: 'string' } },
  },
  {
    keyword: CODES_KEYWORD,
    schemaType: 'object',
    metaSchema: { type: 'object', additionalProperties: { type: 'string' } },
  },
  { keyword: PROVIDER_KEYWORD, schemaType: 'object', metaSchema: PROVIDER_META_SCHEMA },
  { keyword: STORED_DEFAULT_KEYWORD },
  checkedKeyword(SAME_AS_KEYWORD, 'string', SIBLING_NAME),
  checkedKeyword(NOT_EMPTY_KEYWORD, 'boolean', TRUE),
  checkedKeyword(MINIMUM_OF_KEYWORD, 'string', SIBLING_NAME),
  checkedKeyword(INTEGER_WHEN_KEYWORD, 'string', SIBLING_NAME),
  checkedKeyword(MAXIMUM_COUNT_OF_KEYWORD, 'string', SIBLING_NAME),
  checkedKeyword(UNCHANGED_KEYWORD, 'boolean', TRUE),
  checkedKeyword(COLLECTION_EXISTS_KEYWORD, 'boolean', TRUE),
  checkedKeyword(NOT_VIEW_KEYWORD, 'boolean', TRUE),
];

/**
 * Our own formats, by name: pure functions exported by src/lib/schema/go-regex.ts, which the
 * build-time validators import (src/engine/vite-plugin-validators.ts) instead of inlining them.
 */
export const CUSTOM_FORMATS: Readonly<Record<string, (value: string) => boolean>> = { [GO_REGEX_FORMAT]: isGoRegex };

/** The names of every custom keyword, for tools that only need the allowlist. */
export const CUSTOM_KEYWORD_NAMES: readonly string[] = CUSTOM_KEYWORDS.map((k) => String(k.keyword));

/** Registers the custom keywords and formats on an ajv instance (idempotent). */
export function addCustomKeywords<A extends Ajv>(ajv: A): A {
  for (const def of CUSTOM_KEYWORDS) {
    if (!ajv.getKeyword(String(def.keyword))) ajv.addKeyword(def);
  }
  for (const [name, validate] of Object.entries(CUSTOM_FORMATS)) {
    if (!(name in ajv.formats)) ajv.addFormat(name, validate);
  }
  return ajv;
}
