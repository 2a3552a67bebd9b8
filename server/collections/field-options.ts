// A field's options are checked with schemas/fields/<type>.schema.json, the file the collection
// editor draws them from, so the API and the editor hold one rule set. The schema describes the
// stored options with 0.22's rules; what JSON Schema cannot say (a Go regex compiles, max no less
// than min, maxSelect within the choices, a relation's target exists) is a named custom keyword
// (src/lib/schema/keywords.ts); the keywords about other collections read them from the context.
import { schemaValidator } from '../core/schema-validator';
import type { ErrorTree } from '../../src/lib/schema/error-tree';
import type { KeywordContext } from '../../src/lib/schema/keyword-checks';
import type { FieldType } from './model';

/** The option errors of one field (decoded as Go would, ./normalize.ts); null when valid. */
export function validateFieldOptions(type: FieldType, options: Record<string, unknown>, context: KeywordContext): ErrorTree | null {
  const errors = schemaValidator(`fields/${type}`).validate(withoutNulls(options), context);
  return Object.keys(errors).length ? errors : null;
}

/** The options as ozzo's rules read them: a nil option is not set. */
export const withoutNulls = (options: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(options).filter(([, v]) => v !== null));
