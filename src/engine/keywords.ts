/**
 * The custom JSON Schema keywords (and formats) our schema files may use, declared once for every consumer:
 * the dashboard's rjsf validator, the build-time precompiled validators, the contract tests and the
 * server. Anything else that is not a standard keyword fails ajv strict mode, which keeps the
 * schema files honest.
 *
 * Keywords are defined with ajv `code` generators (not `validate` functions) so that ajv's
 * standalone code generation can emit them: the browser runs validators compiled at build time
 * (src/engine/vite-plugin-validators.ts) without shipping the ajv compiler.
 *
 * Pure module: no React, no Node APIs.
 */
import type Ajv from 'ajv';
import { _, type Code, type KeywordCxt, type KeywordDefinition } from 'ajv';
import type { KeywordErrorCxt } from 'ajv/dist/types';
import {
  CODES_KEYWORD,
  GO_REGEX_FORMAT,
  INTEGER_WHEN_KEYWORD,
  MAXIMUM_COUNT_OF_KEYWORD,
  MESSAGES_KEYWORD,
  MINIMUM_OF_KEYWORD,
  NOT_EMPTY_KEYWORD,
  PROVIDER_KEYWORD,
  SAME_AS_KEYWORD,
  STORED_DEFAULT_KEYWORD,
} from '../lib/schema/keyword-names.js';
import { isGoRegex } from '../lib/schema/go-regex.js';

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

/** The named sibling of the value in its parent object (undefined without a parent object). */
const sibling = (cxt: KeywordErrorCxt | KeywordCxt) => _`${cxt.it.parentData}[${cxt.schema as string}]`;
const hasParent = (cxt: KeywordCxt) => {
  const parent = cxt.it.parentData;
  return _`${parent} !== undefined && ${parent} !== null && typeof ${parent} == "object"`;
};
/** ozzo's threshold rules skip an empty value: 0 and "" are not set. */
const isSet = (value: Code) => _`${value} !== 0 && ${value} !== "" && (typeof ${value} == "number" || typeof ${value} == "string")`;
const SIBLING_NAME = { type: 'string', minLength: 1 };
/** The limit a count keyword compares with: the sibling's item count, at least 1. */
const countLimit = (cxt: KeywordErrorCxt | KeywordCxt) => _`Math.max(Array.isArray(${sibling(cxt)}) ? ${sibling(cxt)}.length : 0, 1)`;

const CUSTOM_KEYWORDS: readonly KeywordDefinition[] = [
  {
    keyword: MESSAGES_KEYWORD,
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
  {
    keyword: SAME_AS_KEYWORD,
    schemaType: 'string',
    metaSchema: { type: 'string', minLength: 1 },
    // Fails when the value differs from the named sibling in the parent object. Without a parent
    // object (a bare value validated on its own) there is nothing to compare, so it passes.
    code(cxt: KeywordCxt) {
      cxt.fail(_`${hasParent(cxt)} && ${cxt.data} !== ${sibling(cxt)}`);
    },
  },
  {
    keyword: NOT_EMPTY_KEYWORD,
    schemaType: 'boolean',
    metaSchema: { const: true },
    code(cxt: KeywordCxt) {
      const d = cxt.data;
      cxt.fail(_`${d} === 0 || ${d} === "" || (Array.isArray(${d}) && ${d}.length === 0)`);
    },
  },
  {
    keyword: MINIMUM_OF_KEYWORD,
    schemaType: 'string',
    metaSchema: SIBLING_NAME,
    error: { message: 'must not be less than its sibling', params: (cxt) => _`{limit: ${sibling(cxt)}}` },
    code(cxt: KeywordCxt) {
      const d = cxt.data;
      const other = sibling(cxt);
      // the limit counts when it is of the value's type and not "" (a min of 0 is a limit)
      cxt.fail(_`${hasParent(cxt)} && ${isSet(d)} && typeof ${other} == typeof ${d} && ${other} !== "" && ${d} < ${other}`);
    },
  },
  {
    keyword: INTEGER_WHEN_KEYWORD,
    schemaType: 'string',
    metaSchema: SIBLING_NAME,
    code(cxt: KeywordCxt) {
      const d = cxt.data;
      cxt.fail(_`${hasParent(cxt)} && ${sibling(cxt)} === true && typeof ${d} == "number" && !Number.isInteger(${d})`);
    },
  },
  {
    keyword: MAXIMUM_COUNT_OF_KEYWORD,
    schemaType: 'string',
    metaSchema: SIBLING_NAME,
    error: { message: 'must not exceed the item count of its sibling', params: (cxt) => _`{limit: ${countLimit(cxt)}}` },
    code(cxt: KeywordCxt) {
      const d = cxt.data;
      cxt.fail(_`${hasParent(cxt)} && typeof ${d} == "number" && ${d} > ${countLimit(cxt)}`);
    },
  },
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
