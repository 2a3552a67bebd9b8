// Request bodies are judged by their schema files (schemas/requests/<area>/<name>.schema.json, or
// the dashboard's form file where the form is the body, as admins/login or backups/create) with
// the strict ajv and the shared error mapper, so the API answers PocketBase 0.22's codes and words
// (each file's x-codes / x-messages) and the documentation is generated from the same file. What
// a schema cannot know (a token against the database, a unique email, an enabled provider) is a
// check run after the file's rules, as ozzo's validation.By runs after the field's other rules:
// only for a field that passed them and is not blank.
import { derivedValidator, schemaValidator } from './schema-validator';
import { badRequest } from './errors';
import { sortErrorTree, type ErrorTree, type FieldError } from '../../src/lib/schema/error-tree';

export type { FieldError };
type Json = Record<string, unknown>;
/** A check beyond the schema for one field's value: an error, or null when it passes. */
export type FieldCheck = (value: unknown) => FieldError | null;

export const fieldFailure = (code: string, message: string): FieldError => ({ code, message });

const isBlank = (v: unknown) => v === undefined || v === null || v === '';

/** The errors of `body` against schemas/<name>.schema.json ("requests/admins/create"), then of `checks`, keys sorted. */
export function bodyErrors(name: string, body: Record<string, unknown>, checks: Record<string, FieldCheck> = {}): ErrorTree {
  return withChecks(schemaValidator(name).validate(body), body, checks);
}

function withChecks(schemaErrors: ErrorTree, body: Record<string, unknown>, checks: Record<string, FieldCheck>): ErrorTree {
  const errors = { ...schemaErrors };
  for (const [field, check] of Object.entries(checks)) {
    if (errors[field] || isBlank(body[field])) continue;
    const failure = check(body[field]);
    if (failure) errors[field] = failure;
  }
  return sortErrorTree(errors);
}

/** bodyErrors, thrown as 0.22's 400 (`message`: the endpoint's own, else the generic one). */
export function validateBody(name: string, body: Record<string, unknown>, checks: Record<string, FieldCheck> = {}, message?: string): void {
  const errors = bodyErrors(name, body, checks);
  if (Object.keys(errors).length) throw badRequest(message, errors);
}

/**
 * bodyErrors with a string property's minimum set at run time (a collection's minPasswordLength),
 * worded as ozzo's Length(min, max) words it: "The length must be between min and max."
 */
export function bodyErrorsWithMinLength(
  name: string,
  body: Record<string, unknown>,
  limit: { property: string; min: number },
  checks: Record<string, FieldCheck> = {},
): ErrorTree {
  const validator = derivedValidator(name, `${limit.property}>=${limit.min}`, (schema) => {
    const prop = (schema.properties as Record<string, Record<string, unknown>>)[limit.property];
    const words = `The length must be between ${limit.min} and ${String(prop.maxLength)}.`;
    prop.minLength = limit.min;
    prop['x-messages'] = { ...(prop['x-messages'] as object), minLength: words, maxLength: words };
    prop['x-codes'] = { ...(prop['x-codes'] as object), minLength: 'validation_length_out_of_range', maxLength: 'validation_length_out_of_range' };
    return schema;
  });
  return withChecks(validator.validate(body), body, checks);
}

/**
 * bodyErrors against a variant of the file whose rules depend on the request (which fields are
 * required, a minimum set by the collection): `derive` rewrites a copy of the schema, compiled once
 * per `variant` key.
 */
export function bodyErrorsOfVariant(
  name: string,
  variant: string,
  derive: (schema: Json) => Json,
  body: Record<string, unknown>,
  checks: Record<string, FieldCheck> = {},
): ErrorTree {
  return withChecks(derivedValidator(name, variant, derive).validate(body), body, checks);
}

