/**
 * The rjsf validator the engine uses: ajv 8 with ajv-formats and our custom keywords, plus a
 * `validateData` helper that pages use to ask "is this data valid?" without rendering a form.
 */
import type { ErrorSchema, RJSFSchema, RJSFValidationError, UiSchema } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { addCustomKeywords } from './keywords';
import { createTransformErrors } from './messages';

// Not strict: rjsf compiles helper schemas of its own; the schema files are held to strict mode by
// the contract tests (src/engine/ajv.ts).
export const validator = customizeValidator({ extenderFn: (ajv) => addCustomKeywords(ajv) });

export interface ValidationResult {
  isValid: boolean;
  errors: RJSFValidationError[];
  errorSchema: ErrorSchema;
}

const transformers = new WeakMap<object, ReturnType<typeof createTransformErrors>>();

/** One transformErrors per schema object, so memoised callers get a stable function. */
export function transformErrorsFor(schema: RJSFSchema) {
  let t = transformers.get(schema);
  if (!t) transformers.set(schema, (t = createTransformErrors(schema)));
  return t;
}

/** Validates data against a schema, with the spec's messages. */
export function validateData(schema: RJSFSchema, data: unknown, uiSchema?: UiSchema): ValidationResult {
  const { errors, errorSchema } = validator.validateFormData(data, schema, undefined, transformErrorsFor(schema), uiSchema);
  return { isValid: errors.length === 0, errors, errorSchema };
}
