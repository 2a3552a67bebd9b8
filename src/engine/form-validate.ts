/**
 * Validates a registry form's data outside the form component, with the very validators the form
 * uses (compiled at build time): a screen needs every section's verdict to enable its Save button.
 */
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { litePlan } from './lite-support';
import { liteValidatorFor } from './lite-validators';
import { precompiledValidatorFor } from './rjsf-validators';
import { validateWith, type ValidationResult } from './validation';

const VALID: ValidationResult = { isValid: true, errors: [], errorSchema: {} };

/** The form's verdict on `data`; a schema without a compiled validator (built at run time) counts as valid here. */
export function validateForm(schema: RJSFSchema, uiSchema: UiSchema | undefined, data: unknown): ValidationResult {
  const lite = litePlan(schema, uiSchema) ? liteValidatorFor(schema) : undefined;
  if (lite) return lite(data);
  const v = precompiledValidatorFor(schema);
  return v ? validateWith(v, schema, data, uiSchema) : VALID;
}
