/**
 * Validation results in the engine's shape, whichever validator produced them: the lite renderer's
 * precompiled ajv functions or an rjsf validator (precompiled or runtime). Both go through the same
 * message mapping (messages.ts), so a field shows the same words on either path.
 *
 * Type-only imports of ajv and rjsf: this module adds neither to a bundle.
 */
import type { ErrorObject } from 'ajv';
import type { ErrorSchema, RJSFSchema, RJSFValidationError, UiSchema, ValidatorType } from '@rjsf/utils';
import { withoutEmptyStrings } from '../lib/schema/empty';
import { buildErrorSchema } from './error-schema';
import { createTransformErrors, propertyPath } from './messages';

export interface ValidationResult {
  isValid: boolean;
  errors: RJSFValidationError[];
  errorSchema: ErrorSchema;
}

/** Validates a document against the schema a form was built for. */
export type Validate = (data: unknown) => ValidationResult;

/** A standalone ajv validate function, as the build emits them. */
export interface StandaloneValidate {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}


/**
 * ajv errors in rjsf's shape, as @rjsf/validator-ajv8 converts them (the property accessor from the
 * instance path plus the missing property; titles are not needed, messages are ours).
 */
export function toRjsfErrors(errors: readonly ErrorObject[]): RJSFValidationError[] {
  return errors.map((e) => {
    let property = e.instancePath.replace(/\//g, '.');
    if ('missingProperty' in e.params) property = property ? `${property}.${e.params.missingProperty}` : String(e.params.missingProperty);
    return { name: e.keyword, property, message: e.message ?? '', params: e.params, stack: `${property} ${e.message ?? ''}`.trim(), schemaPath: e.schemaPath };
  });
}

/** The engine's result for a standalone function's verdict. */
export function resultOf(schema: RJSFSchema, validate: StandaloneValidate, data: unknown): ValidationResult {
  // An empty string reads as a missing value, as on the server (empty.ts).
  const judged = withoutEmptyStrings(data);
  const raw = validate(judged) ? [] : toRjsfErrors(validate.errors ?? []);
  const errors = createTransformErrors(schema, judged)(raw);
  const errorSchema = buildErrorSchema(errors.map((e) => [propertyPath(e.property), [e.message ?? '']]));
  return { isValid: errors.length === 0, errors, errorSchema };
}

/** The engine's result from an rjsf validator (the runtime ajv8 one or a precompiled one). */
export function validateWith(validator: ValidatorType, schema: RJSFSchema, data: unknown, uiSchema?: UiSchema): ValidationResult {
  const judged = withoutEmptyStrings(data);
  const { errors, errorSchema } = validator.validateFormData(judged, schema, undefined, createTransformErrors(schema, judged), uiSchema);
  return { isValid: errors.length === 0, errors, errorSchema };
}
