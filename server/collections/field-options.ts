// A field's options are checked with schemas/fields/<type>.schema.json, the file the collection
// editor draws them from, so the API and the editor hold one rule set. The schema describes the
// stored options with 0.22's rules; what JSON Schema cannot say (a Go regex compiles, max no less
// than min, maxSelect within the choices) is a named custom keyword (src/engine/keywords.ts).
import { schemaValidator } from '../core/schema-validator';
import type { ErrorTree } from '../../src/lib/schema/error-tree';
import type { FieldType } from './model';

/** The option errors of one field (decoded as Go would, ./normalize.ts); null when valid. */
export function validateFieldOptions(type: FieldType, options: Record<string, unknown>): ErrorTree | null {
  // a nil option reads as not set, as ozzo's rules read it
  const set = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== null));
  const errors = schemaValidator(`fields/${type}`).validate(set);
  return Object.keys(errors).length ? errors : null;
}
