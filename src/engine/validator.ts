/**
 * The runtime rjsf validator: ajv 8 compiling schemas, with ajv-formats and our custom keywords.
 * The dashboard does not ship it (compiling means eval, which its CSP forbids): forms in schemas/
 * use validators compiled at build time (vite-plugin-validators.ts) and forms built at run time use
 * the interpreter (interpret-schema.ts). The contract and unit tests use it as the reference.
 */
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { addCustomKeywords } from '../lib/schema/keywords';
import { validateWith, type ValidationResult } from './validation';

export type { ValidationResult };

// Not strict: rjsf compiles helper schemas of its own; the schema files are held to strict mode by
// the contract tests (src/lib/schema/ajv.ts).
export const validator = customizeValidator({ extenderFn: (ajv) => addCustomKeywords(ajv) });

/** Validates data against a schema, with the spec's messages. */
export function validateData(schema: RJSFSchema, data: unknown, uiSchema?: UiSchema): ValidationResult {
  return validateWith(validator, schema, data, uiSchema);
}
