// The system fields of a record create or update (0.22's RecordUpsert): judged by
// schemas/requests/records/upsert.schema.json, as every request body is. What depends on the
// collection or the request picks a variant of the file: which fields are required, the
// collection's minimum password length, the id rules only for a new record. What needs the
// record or the database is a check: before the file's rules where 0.22 runs it first (a field
// the caller may not change), after them otherwise (a free id, unique values, the email domain,
// the old password).
import { bodyErrorsOfVariant, fieldFailure, type FieldCheck } from '../core/body-validator';
import type { ErrorTree } from '../../src/lib/schema/error-tree';

type Json = Record<string, unknown>;

const MAX_PASSWORD = 72;

export interface SystemFields {
  id: string;
  username?: string;
  email?: string;
  verified?: boolean;
  password?: string;
  passwordConfirm?: string;
  oldPassword?: string;
}

export interface SystemFieldRules {
  isNew: boolean;
  /** An auth collection's options (requireEmail, minPasswordLength); absent for base and view collections. */
  auth?: { requireEmail: boolean; minPasswordLength: number };
  /** The stored record's id, email and verified state (an update). */
  current: { id: string; email: string; verified: boolean };
  /** The caller may change email and verified freely (an admin, or the collection's manage rule). */
  manageAccess: boolean;
  /** The old password must be given and match (a user changing their own password). */
  needsOldPassword: boolean;
  oldPasswordMatches: boolean;
  idIsFree: (id: string) => boolean;
  isUnique: (field: 'username' | 'email', value: string) => boolean;
  emailDomainAllowed: (email: string) => boolean;
}

const notAllowed = fieldFailure('validation_in_invalid', 'Must be a valid value.');

/** ozzo's Length(min, 72) words and codes for the password. */
function passwordLength(min: number): { messages: Json; codes: Json } {
  if (min === MAX_PASSWORD) return lengthWords(`The length must be exactly ${min}.`, 'validation_length_invalid');
  if (min <= 0) return lengthWords(`The length must be no more than ${MAX_PASSWORD}.`, 'validation_length_too_long');
  return lengthWords(`The length must be between ${min} and ${MAX_PASSWORD}.`, 'validation_length_out_of_range');
}
const lengthWords = (words: string, code: string) => ({ messages: { minLength: words, maxLength: words }, codes: { minLength: code, maxLength: code } });

/** The file with the request's required fields, password minimum and id rules. */
function variantOf(rules: SystemFieldRules): { key: string; derive: (schema: Json) => Json } {
  const { isNew, auth } = rules;
  const required = [
    ...(auth && !isNew ? ['username'] : []),
    ...(auth?.requireEmail ? ['email'] : []),
    ...(auth && isNew ? ['password', 'passwordConfirm'] : []),
    ...(auth && rules.needsOldPassword ? ['oldPassword'] : []),
  ];
  const min = Math.max(0, auth?.minPasswordLength ?? 0);
  const key = `${isNew}|${Boolean(auth)}|${required.join(',')}|${min}`;
  const derive = (schema: Json) => {
    const props = schema.properties as Record<string, Json>;
    if (!isNew) props.id = { type: 'string' };
    schema.required = required;
    if (!auth) {
      for (const name of Object.keys(props)) if (name !== 'id') delete props[name];
      delete schema.dependencies;
      return schema;
    }
    if (min > 0) props.password.minLength = min;
    const words = passwordLength(min);
    props.password['x-messages'] = words.messages;
    props.password['x-codes'] = words.codes;
    return schema;
  };
  return { key, derive };
}

/** The system fields' errors (0.22's order and words), or {} when they pass. */
export function systemFieldErrors(fields: SystemFields, rules: SystemFieldRules): ErrorTree {
  const { auth, current, manageAccess, isNew } = rules;
  const body: Json = auth ? { ...fields } : { id: fields.id };
  // fields the caller may not change: 0.22 checks these before the value's own rules
  const first: ErrorTree = {};
  if (!isNew && fields.id && fields.id !== current.id) first.id = notAllowed;
  if (auth && !manageAccess) {
    if (fields.email && !isNew && fields.email !== current.email) first.email = notAllowed;
    if (fields.verified && fields.verified !== current.verified) first.verified = notAllowed;
  }
  const after: Record<string, FieldCheck> = {
    ...(isNew ? { id: (v) => (rules.idIsFree(String(v)) ? null : fieldFailure('validation_invalid_id', 'The model id is invalid or already exists.')) } : {}),
    ...(auth
      ? {
          username: (v) => (rules.isUnique('username', String(v)) ? null : fieldFailure('validation_invalid_username', 'The username is invalid or already in use.')),
          email: (v) =>
            !rules.emailDomainAllowed(String(v))
              ? fieldFailure('validation_email_domain_not_allowed', 'Email domain is not allowed.')
              : rules.isUnique('email', String(v))
                ? null
                : fieldFailure('validation_invalid_email', 'The email is invalid or already in use.'),
          ...(rules.needsOldPassword ? { oldPassword: () => (rules.oldPasswordMatches ? null : fieldFailure('validation_invalid_old_password', 'Missing or invalid old password.')) } : {}),
        }
      : {}),
  };
  const { key, derive } = variantOf(rules);
  const errors = bodyErrorsOfVariant('requests/records/upsert', key, derive, body, Object.fromEntries(Object.entries(after).filter(([f]) => !first[f])));
  return Object.keys(first).length ? sortKeys({ ...errors, ...first }) : errors;
}

const sortKeys = (tree: ErrorTree): ErrorTree => Object.fromEntries(Object.entries(tree).sort(([a], [b]) => (a < b ? -1 : 1)));
