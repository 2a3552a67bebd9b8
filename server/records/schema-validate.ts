// The record fields' JSON Schema checks on the server: the dashboard's generated record schema
// (src/lib/record-schema.ts) compiled with the engine's strict ajv (custom keywords x-messages /
// x-codes), run over the normalised data with blank values dropped, and turned into PocketBase's
// {code, message} field errors. validate.ts adds what JSON Schema cannot say.
import type { ValidateFunction } from 'ajv';
import { createStrictAjv } from '../../src/lib/schema/ajv';
import { recordDataSchema, recordSchemaErrors, withoutEmptyValues, type JsonSchema, type RecordFieldError } from '../../src/lib/record-schema';
import type { Collection } from '../collections/model';

interface Compiled {
  schema: JsonSchema;
  validate: ValidateFunction;
}

// Patterns are compiled as PocketBase's (Go) regexps are read by the rest of the server: without
// the unicode flag. Created on first use: compiling ajv's meta-schemas is a large part of the server's cold start.
let lazyAjv: ReturnType<typeof createStrictAjv> | undefined;
const getAjv = () => (lazyAjv ??= createStrictAjv({ unicodeRegExp: false }));
const cache = new Map<string, Compiled>();
const MAX_CACHE = 200;

function compiledFor(collection: Collection): Compiled {
  const schema = recordDataSchema(collection);
  const key = `${collection.id}:${JSON.stringify(schema)}`;
  let c = cache.get(key);
  if (c) return c;
  if (cache.size >= MAX_CACHE) {
    for (const old of cache.values()) getAjv().removeSchema(old.schema);
    cache.clear();
  }
  c = { schema, validate: getAjv().compile(schema) };
  cache.set(key, c);
  return c;
}

/** The schema fields' errors for normalised record data (fields absent from `data` are skipped). */
export function schemaFieldErrors(collection: Collection, data: Record<string, unknown>): Record<string, RecordFieldError> {
  const { schema, validate } = compiledFor(collection);
  const present: Record<string, unknown> = {};
  for (const f of collection.schema) if (Object.hasOwn(data, f.name)) present[f.name] = data[f.name];
  const judged = withoutEmptyValues(present);
  if (validate(judged)) return {};
  const errors = recordSchemaErrors(schema, validate.errors ?? [], judged);
  // a field absent from the submitted data is not judged (as before: only present fields)
  for (const k of Object.keys(errors)) if (!Object.hasOwn(data, k)) delete errors[k];
  return errors;
}
