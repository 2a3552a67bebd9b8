/**
 * The runtime rjsf validator: ajv 8 compiling schemas in the browser, with ajv-formats and our
 * custom keywords. The forms in schemas/ do not need it (their validators are compiled at build
 * time, see vite-plugin-validators.ts); it is loaded lazily for schemas built at run time, and the
 * contract tests use it to check the files.
 */
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { addCustomKeywords } from './keywords';
import { validateWith, type ValidationResult } from './validation';

export type { ValidationResult };
export { transformErrorsFor } from './validation';

// Not strict: rjsf compiles helper schemas of its own; the schema files are held to strict mode by
// the contract tests (src/engine/ajv.ts).
export const validator = customizeValidator({ extenderFn: (ajv) => addCustomKeywords(ajv) });

/** Validates data against a schema, with the spec's messages. */
export function validateData(schema: RJSFSchema, data: unknown, uiSchema?: UiSchema): ValidationResult {
  return validateWith(validator, schema, data, uiSchema);
}
