/** The lite renderer's validators: strict ajv functions compiled at build time, looked up by form. */
import type { RJSFSchema } from '@rjsf/utils';
import { liteValidators } from 'virtual:outpost-validators';
import { formNameOf } from './schemas';
import { resultOf, type Validate } from './validation';

const cache = new WeakMap<object, Validate>();

/** The precompiled validator for a registry schema the lite renderer draws; undefined otherwise. */
export function liteValidatorFor(schema: RJSFSchema): Validate | undefined {
  const cached = cache.get(schema);
  if (cached) return cached;
  const name = formNameOf(schema);
  const fn = name === undefined ? undefined : liteValidators[name];
  if (!fn) return undefined;
  const validate: Validate = (data) => resultOf(schema, fn, data);
  cache.set(schema, validate);
  return validate;
}
