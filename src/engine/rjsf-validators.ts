/**
 * Validators for the rjsf renderer: rjsf's precompiled validator for the forms in schemas/
 * (compiled at build time), the runtime ajv8 validator, loaded on first use, for schemas built at
 * run time.
 */
import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import { createPrecompiledValidator } from '@rjsf/validator-ajv8';
import { rjsfValidators } from 'virtual:outpost-rjsf-validators';
import { formNameOf } from './schemas';

const precompiled = new WeakMap<object, ValidatorType>();

/** rjsf's precompiled validator for a registry schema; undefined for any other schema. */
export function precompiledValidatorFor(schema: RJSFSchema): ValidatorType | undefined {
  let v = precompiled.get(schema);
  if (v) return v;
  const name = formNameOf(schema);
  const fns = name === undefined ? undefined : rjsfValidators[name];
  if (!fns) return undefined;
  v = createPrecompiledValidator(fns, schema);
  precompiled.set(schema, v);
  return v;
}

let runtime: Promise<ValidatorType> | undefined;

/** The runtime ajv8 validator (ajv compiles in the browser); one shared promise, for React's `use`. */
export function runtimeValidator(): Promise<ValidatorType> {
  return (runtime ??= import('./validator').then((m) => m.validator));
}
