// Left for the record upsert form (server/records/upsert-form.ts) until it validates with schema
// files as every other request body does (server/core/body-validator.ts); then it goes.
// Form field validation shaped like PocketBase's (ozzo-validation): each field reports its first
// failing rule as {code, message}; every rule but `required` skips empty values; the error map
// has alphabetical keys, as Go encodes it.
import type { FieldError } from '../../src/lib/schema/error-tree';
import { isEmailAddress } from '../../src/lib/email-address';

export type Rule = (value: unknown) => FieldError | null;

const fail = (code: string, message: string): FieldError => ({ code, message });

/** ozzo's notion of empty: "", 0, false, null/undefined, empty arrays and objects. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === 0 || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value as object).length === 0;
  return false;
}

const skipEmpty =
  (rule: Rule): Rule =>
  (value) =>
    isEmpty(value) ? null : rule(value);

/** Characters, not UTF-16 units (Go's utf8.RuneCountInString). */
const runeLength = (s: string) => [...s].length;

export { isEmailAddress };

export const required: Rule = (value) => (isEmpty(value) ? fail('validation_required', 'Cannot be blank.') : null);

export const length = (min: number, max: number): Rule =>
  skipEmpty((value) => {
    const n = runeLength(String(value));
    if (n >= min && (max === 0 || n <= max)) return null;
    if (min === max) return fail('validation_length_invalid', `The length must be exactly ${min}.`);
    if (max === 0) return fail('validation_length_too_short', `The length must be no less than ${min}.`);
    if (min === 0) return fail('validation_length_too_long', `The length must be no more than ${max}.`);
    return fail('validation_length_out_of_range', `The length must be between ${min} and ${max}.`);
  });

export const match = (re: RegExp): Rule =>
  skipEmpty((value) => (re.test(String(value)) ? null : fail('validation_match_invalid', 'Must be in a valid format.')));

/** passwordConfirm-style equality (PocketBase's validators.Compare). */
export const equals = (other: unknown): Rule => (value) =>
  (value ?? '') === (other ?? '') ? null : fail('validation_values_mismatch', "Values don't match.");

/** Runs each field's rules in order and keeps the first error per field (keys sorted). */
export function validateFields(values: Record<string, unknown>, spec: Record<string, Rule[]>): Record<string, FieldError> {
  const errors: Record<string, FieldError> = {};
  for (const field of Object.keys(spec).sort()) {
    for (const rule of spec[field]) {
      const error = rule(values[field]);
      if (error) {
        errors[field] = error;
        break;
      }
    }
  }
  return errors;
}
