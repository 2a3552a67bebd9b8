/**
 * Validators for the rjsf renderer: rjsf's precompiled validator for the forms in schemas/
 * (compiled at build time) and, for schemas built at run time (the record form), the same rjsf
 * precompiled-validator machinery over interpreted validate functions (interpret-schema.ts): no
 * schema is compiled to code in the browser, so the dashboard's CSP can forbid eval.
 */
import { schemaParser, type RJSFSchema, type ValidatorType } from '@rjsf/utils';
import { createPrecompiledValidator, type ValidatorFunctions } from '@rjsf/validator-ajv8';
import { rjsfValidators } from 'virtual:outpost-rjsf-validators';
import { interpretSchema } from './interpret-schema';
import { formNameOf } from './schemas';
import { withoutWords } from '../lib/i18n/file-words';

const precompiled = new WeakMap<object, ValidatorType>();

/**
 * A validator that hands rjsf's precompiled one each schema without its words: the functions were
 * compiled from the word-free files (vite-plugin-validators.ts) and are found by a hash of the
 * sub-schema, so the form's schema may be in any language (src/engine/schemas.ts).
 */
function wordFree(inner: ValidatorType): ValidatorType {
  return {
    validateFormData: (formData, schema, customValidate, transformErrors, uiSchema) =>
      inner.validateFormData(formData, withoutWords(schema), customValidate, transformErrors, uiSchema),
    isValid: (schema, formData, rootSchema) => inner.isValid(withoutWords(schema), formData, withoutWords(rootSchema)),
    rawValidation: (schema, formData) => inner.rawValidation(withoutWords(schema), formData),
    reset: inner.reset && (() => inner.reset?.()),
  };
}

/** rjsf's precompiled validator for a registry schema; undefined for any other schema. */
export function precompiledValidatorFor(schema: RJSFSchema): ValidatorType | undefined {
  let v = precompiled.get(schema);
  if (v) return v;
  const name = formNameOf(schema);
  const fns = name === undefined ? undefined : rjsfValidators[name];
  if (!fns) return undefined;
  v = wordFree(createPrecompiledValidator(fns, withoutWords(schema)));
  precompiled.set(schema, v);
  return v;
}

const interpreted = new WeakMap<object, ValidatorType>();

/**
 * The validator for a schema built at run time: one interpreted function per sub-schema rjsf may
 * validate on its own (the same map rjsf's build-time compilation makes), keyed as rjsf looks them up.
 */
export function interpretedValidatorFor(schema: RJSFSchema): ValidatorType {
  let v = interpreted.get(schema);
  if (v) return v;
  const fns: ValidatorFunctions = {};
  for (const [id, sub] of Object.entries(schemaParser(schema))) fns[id] = interpretSchema(sub as RJSFSchema, schema) as unknown as ValidatorFunctions[string];
  v = createPrecompiledValidator(fns, schema);
  interpreted.set(schema, v);
  return v;
}
