/**
 * A JSON Schema interpreter for schemas built at run time (the record form, from a collection's
 * fields): it walks the schema instead of compiling it, so the dashboard needs no eval (a strict
 * Content-Security-Policy forbids the code ajv generates at run time). Its errors have ajv's shape
 * (instancePath, schemaPath, keyword, params as ajv names them), so the engine's message mapping,
 * rjsf's error processing and the server (which validates the same schemas with ajv) word every
 * error the same. Schemas from schemas/ keep their validators precompiled at build time.
 *
 * Covers the draft-07 keywords our generated schemas use (types, numbers, strings, arrays, objects,
 * enum/const, if/then/else, allOf/anyOf/oneOf/not, local $ref) and every custom keyword, through the
 * same pure checks ajv's generated code calls (src/lib/schema/keyword-checks.ts); the validation
 * context reaches them as with ajv (`validate.call(context, data)`). Annotations (title, default,
 * x-messages, x-codes, …) are ignored; a custom keyword without a check throws when the schema is
 * interpreted, rather than passing silently. Unknown formats pass.
 *
 * Pure module: no React, no ajv.
 */
import type { ErrorObject } from 'ajv';
import { KEYWORD_CHECKS, keywordMessage } from '../lib/schema/keyword-checks';
import { ANNOTATION_KEYWORDS } from '../lib/schema/keyword-names';
import { deepEqual, isObject } from '../lib/json';

type Json = Record<string, unknown>;
type Schema = Json | boolean;

export interface InterpretedValidate {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
  schema: Schema;
}

interface Ctx {
  root: Schema;
  /** other schemas a $ref may name by id (rjsf's root schema id) */
  byId: Map<string, Schema>;
  errors: ErrorObject[];
  /** The validation context the caller passed (`this`), for the custom keywords. */
  context: unknown;
}

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapePointer = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function matchesType(v: unknown, type: string): boolean {
  const t = typeOf(v);
  return t === type || (type === 'number' && t === 'integer');
}

const patternCache = new Map<string, RegExp | null>();
function regExp(pattern: string): RegExp | null {
  let re = patternCache.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(pattern, 'u');
    } catch {
      try {
        re = new RegExp(pattern);
      } catch {
        re = null;
      }
    }
    patternCache.set(pattern, re);
  }
  return re;
}

const FORMATS: Record<string, RegExp> = {
  email: /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i,
  uri: /^[a-z][a-z0-9+.-]*:[^\s]*$/i,
  date: /^\d\d\d\d-[01]\d-[0-3]\d$/,
  'date-time': /^\d\d\d\d-[01]\d-[0-3]\d[t\s](?:[0-2]\d:[0-5]\d:[0-5]\d|23:59:60)(?:\.\d+)?(?:z|[+-]\d\d(?::?\d\d)?)$/i,
};

function resolveRef(ref: string, ctx: Ctx): Schema | undefined {
  const hash = ref.indexOf('#');
  const base = hash < 0 ? ref : ref.slice(0, hash);
  let target: unknown = base ? ctx.byId.get(base) : ctx.root;
  const pointer = hash < 0 ? '' : ref.slice(hash + 1);
  for (const part of pointer.split('/').filter(Boolean)) {
    if (!isObject(target) && !Array.isArray(target)) return undefined;
    target = (target as Json)[unescapePointer(decodeURIComponent(part))];
  }
  return isObject(target) || typeof target === 'boolean' ? target : undefined;
}

/** Validates `data`; pushes ajv-shaped errors into ctx.errors; returns whether it passed. */
function check(schema: Schema, data: unknown, path: string, sPath: string, ctx: Ctx, parent?: unknown, property?: string | number): boolean {
  if (schema === true) return true;
  if (schema === false) {
    ctx.errors.push({ instancePath: path, schemaPath: sPath, keyword: 'false schema', params: {}, message: 'boolean schema is false' });
    return false;
  }
  const before = ctx.errors.length;
  const fail = (keyword: string, params: Record<string, unknown>, message: string) =>
    ctx.errors.push({ instancePath: path, schemaPath: `${sPath}/${keyword}`, keyword, params, message, parentSchema: schema } as ErrorObject);

  if (typeof schema.$ref === 'string') {
    const target = resolveRef(schema.$ref, ctx);
    if (target !== undefined) check(target, data, path, `${sPath}/$ref`, ctx, parent, property);
  }

  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    if (!types.some((t) => matchesType(data, t))) {
      fail('type', { type: types.join(',') }, `must be ${types.join(',')}`);
      return false; // ajv stops at a type error: the other keywords would not apply
    }
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((v) => deepEqual(v, data))) {
    fail('enum', { allowedValues: schema.enum }, 'must be equal to one of the allowed values');
  }
  if ('const' in schema && !deepEqual(schema.const, data)) fail('const', { allowedValue: schema.const }, 'must be equal to constant');

  if (typeof data === 'number') {
    const n = (k: string) => (typeof schema[k] === 'number' ? (schema[k] as number) : undefined);
    const min = n('minimum');
    const max = n('maximum');
    const xmin = n('exclusiveMinimum');
    const xmax = n('exclusiveMaximum');
    const mult = n('multipleOf');
    if (max !== undefined && !(data <= max)) fail('maximum', { comparison: '<=', limit: max }, `must be <= ${max}`);
    if (min !== undefined && !(data >= min)) fail('minimum', { comparison: '>=', limit: min }, `must be >= ${min}`);
    if (xmax !== undefined && !(data < xmax)) fail('exclusiveMaximum', { comparison: '<', limit: xmax }, `must be < ${xmax}`);
    if (xmin !== undefined && !(data > xmin)) fail('exclusiveMinimum', { comparison: '>', limit: xmin }, `must be > ${xmin}`);
    if (mult !== undefined && mult > 0) {
      const q = data / mult;
      if (Math.abs(q - Math.round(q)) > 1e-9 * Math.max(1, Math.abs(q))) fail('multipleOf', { multipleOf: mult }, `must be multiple of ${mult}`);
    }
  }

  if (typeof data === 'string') {
    const len = [...data].length; // code points, as ajv counts
    if (typeof schema.maxLength === 'number' && len > schema.maxLength) fail('maxLength', { limit: schema.maxLength }, `must NOT have more than ${schema.maxLength} characters`);
    if (typeof schema.minLength === 'number' && len < schema.minLength) fail('minLength', { limit: schema.minLength }, `must NOT have fewer than ${schema.minLength} characters`);
    if (typeof schema.pattern === 'string') {
      const re = regExp(schema.pattern);
      if (re && !re.test(data)) fail('pattern', { pattern: schema.pattern }, `must match pattern "${schema.pattern}"`);
    }
    if (typeof schema.format === 'string' && FORMATS[schema.format] && !FORMATS[schema.format].test(data)) {
      fail('format', { format: schema.format }, `must match format "${schema.format}"`);
    }
  }

  if (Array.isArray(data)) {
    if (typeof schema.maxItems === 'number' && data.length > schema.maxItems) fail('maxItems', { limit: schema.maxItems }, `must NOT have more than ${schema.maxItems} items`);
    if (typeof schema.minItems === 'number' && data.length < schema.minItems) fail('minItems', { limit: schema.minItems }, `must NOT have fewer than ${schema.minItems} items`);
    if (schema.uniqueItems === true) {
      outer: for (let i = data.length - 1; i > 0; i--) {
        for (let j = i - 1; j >= 0; j--) {
          if (deepEqual(data[i], data[j])) {
            fail('uniqueItems', { i, j }, `must NOT have duplicate items (items ## ${j} and ${i} are identical)`);
            break outer;
          }
        }
      }
    }
    if (isObject(schema.items) || typeof schema.items === 'boolean') {
      data.forEach((item, i) => check(schema.items as Schema, item, `${path}/${i}`, `${sPath}/items`, ctx, data, i));
    } else if (Array.isArray(schema.items)) {
      (schema.items as Schema[]).forEach((s, i) => {
        if (i < data.length) check(s, data[i], `${path}/${i}`, `${sPath}/items/${i}`, ctx, data, i);
      });
    }
  }

  if (isObject(data)) {
    if (Array.isArray(schema.required)) {
      for (const key of schema.required as string[]) {
        if (data[key] === undefined) fail('required', { missingProperty: key }, `must have required property '${key}'`);
      }
    }
    const props = isObject(schema.properties) ? schema.properties : {};
    for (const [key, sub] of Object.entries(props)) {
      if (data[key] !== undefined) check(sub as Schema, data[key], `${path}/${escapePointer(key)}`, `${sPath}/properties/${escapePointer(key)}`, ctx, data, key);
    }
    if (schema.additionalProperties !== undefined && schema.additionalProperties !== true) {
      for (const key of Object.keys(data)) {
        if (key in props) continue;
        if (schema.additionalProperties === false) fail('additionalProperties', { additionalProperty: key }, 'must NOT have additional properties');
        else check(schema.additionalProperties as Schema, data[key], `${path}/${escapePointer(key)}`, `${sPath}/additionalProperties`, ctx, data, key);
      }
    }
  }

  for (const [keyword, checkKeyword] of Object.entries(KEYWORD_CHECKS)) {
    if (schema[keyword] === undefined) continue;
    const failure = checkKeyword(schema[keyword], data, parent, property, ctx.context);
    if (failure) fail(keyword, failure, keywordMessage(keyword));
  }

  if (Array.isArray(schema.allOf)) (schema.allOf as Schema[]).forEach((s, i) => check(s, data, path, `${sPath}/allOf/${i}`, ctx, parent, property));
  if (Array.isArray(schema.anyOf)) {
    const mark = ctx.errors.length;
    const passed = (schema.anyOf as Schema[]).map((s, i) => check(s, data, path, `${sPath}/anyOf/${i}`, ctx, parent, property)).some(Boolean);
    if (passed) ctx.errors.length = mark;
    else fail('anyOf', {}, 'must match a schema in anyOf');
  }
  if (Array.isArray(schema.oneOf)) {
    const mark = ctx.errors.length;
    const passing = (schema.oneOf as Schema[]).map((s, i) => check(s, data, path, `${sPath}/oneOf/${i}`, ctx, parent, property));
    const count = passing.filter(Boolean).length;
    if (count === 1) ctx.errors.length = mark;
    else {
      if (count > 1) ctx.errors.length = mark;
      fail('oneOf', { passingSchemas: count > 1 ? passing.flatMap((p, i) => (p ? [i] : [])) : null }, 'must match exactly one schema in oneOf');
    }
  }
  if (schema.not !== undefined) {
    const mark = ctx.errors.length;
    const passed = check(schema.not as Schema, data, path, `${sPath}/not`, ctx, parent, property);
    ctx.errors.length = mark;
    if (passed) fail('not', {}, 'must NOT be valid');
  }
  if (schema.if !== undefined && (schema.then !== undefined || schema.else !== undefined)) {
    const mark = ctx.errors.length;
    const cond = check(schema.if as Schema, data, path, `${sPath}/if`, ctx, parent, property);
    ctx.errors.length = mark;
    const branch = cond ? 'then' : 'else';
    if (schema[branch] !== undefined && !check(schema[branch] as Schema, data, path, `${sPath}/${branch}`, ctx, parent, property)) {
      fail('if', { failingKeyword: branch }, `must match "${branch}" schema`);
    }
  }
  return ctx.errors.length === before;
}

const SUB_SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'];
const SUB_SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs', 'dependencies'];
const SUB_SCHEMAS = ['items', 'additionalProperties', 'additionalItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else'];

/** Throws on a custom keyword (x-…) that is neither an annotation nor checked, anywhere in the schema. */
function assertKnownKeywords(schema: unknown): void {
  if (!isObject(schema)) return;
  for (const key of Object.keys(schema)) {
    if (key.startsWith('x-') && !ANNOTATION_KEYWORDS.includes(key) && !(key in KEYWORD_CHECKS)) {
      throw new Error(`interpret-schema: the custom keyword "${key}" has no check (src/lib/schema/keyword-checks.ts)`);
    }
  }
  const subs: unknown[] = SUB_SCHEMAS.map((k) => schema[k]);
  for (const k of SUB_SCHEMA_LISTS) if (Array.isArray(schema[k])) subs.push(...(schema[k] as unknown[]));
  for (const k of SUB_SCHEMA_MAPS) if (isObject(schema[k])) subs.push(...Object.values(schema[k]));
  if (Array.isArray(schema.items)) subs.push(...(schema.items as unknown[]));
  subs.forEach(assertKnownKeywords);
}

/**
 * A validate function for `schema` with ajv's calling convention (returns a boolean, leaves the
 * errors on `.errors`). `$ref`s resolve against `root` or the schemas of `byId`.
 */
export function interpretSchema(schema: Schema, root: Schema = schema, byId: ReadonlyMap<string, Schema> = new Map()): InterpretedValidate {
  assertKnownKeywords(schema);
  const validate = function (this: unknown, data: unknown) {
    const ctx: Ctx = { root, byId: new Map(byId), errors: [], context: this };
    const ok = check(schema, data, '', '#', ctx);
    validate.errors = ok ? null : ctx.errors;
    return ok;
  } as InterpretedValidate;
  validate.schema = schema;
  validate.errors = null;
  return validate;
}
