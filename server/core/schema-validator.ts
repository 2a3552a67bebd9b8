// Validation with the dashboard's own schema files, so the server judges a document exactly as the
// forms do: the strict ajv instance and custom keywords of src/lib/schema/ajv.ts, and PocketBase's
// error tree from the shared mapper (src/lib/schema/error-tree.ts). Settings, their test actions
// and collection field options all go through it.
import type { ValidateFunction } from 'ajv';
import { createStrictAjv } from '../../src/lib/schema/ajv';
import { withoutEmptyStrings } from '../../src/lib/schema/empty';
import { readForm } from '../../src/lib/schema/catalog-files';
import { errorTree, type ErrorTree } from '../../src/lib/schema/error-tree';
import type { KeywordContext } from '../../src/lib/schema/keyword-checks';
import { SCHEMAS_DIR } from '../paths';

type Json = Record<string, unknown>;

/** A compiled schema file: validates a document and returns PocketBase's nested field errors. */
export interface SchemaValidator {
  name: string;
  schema: Json;
  /** `context`: the outside facts some custom keywords check against (the collections, the stored document). */
  validate(doc: unknown, context?: KeywordContext): ErrorTree;
}

const cache = new Map<string, SchemaValidator>();

function validatorOf(name: string, schema: Json): SchemaValidator {
  // compiled on the first validation: reading the schema (collections load at start) must not
  // pay for ajv on the cold start
  let compiled: ValidateFunction | undefined;
  return {
    name,
    schema,
    validate(doc, context) {
      compiled ??= createStrictAjv().compile(schema);
      // PocketBase's "required" means non-empty and its other rules skip empty values: an empty
      // string reads as absent, as the dashboard's forms read it (src/lib/schema/empty.ts).
      const judged = withoutEmptyStrings(doc);
      return compiled.call(context, judged) ? {} : errorTree(schema, compiled.errors ?? [], { data: judged });
    },
  };
}

/** The validator for <schemasDir>/<name>.schema.json (compiled once). */
export function schemaValidator(name: string, schemasDir = SCHEMAS_DIR): SchemaValidator {
  const cacheKey = `${schemasDir}\0${name}`;
  let v = cache.get(cacheKey);
  if (!v) cache.set(cacheKey, (v = validatorOf(name, readForm(schemasDir, name).schema)));
  return v;
}

/**
 * A variant of a schema file whose rule depends on run-time data (a collection's minimum password
 * length): `derive` rewrites a copy of the file's schema; compiled once per `variant`.
 */
export function derivedValidator(name: string, variant: string, derive: (schema: Json) => Json): SchemaValidator {
  const base = schemaValidator(name);
  const cacheKey = `${SCHEMAS_DIR}\0${name}\0${variant}`;
  let v = cache.get(cacheKey);
  if (!v) cache.set(cacheKey, (v = validatorOf(name, derive(structuredClone(base.schema)))));
  return v;
}
