/**
 * The names of our custom JSON Schema keywords, on their own so that code reading schemas (the
 * message mapping, the lite renderer) never imports ajv.
 *
 * Pure module: no React, no Node APIs, no ajv.
 */

/** Spec messages per failing keyword, e.g. `{ "minLength": "Minimum 10 characters." }`. Annotation only. */
export const MESSAGES_KEYWORD = 'x-messages';
/** `"x-sameAs": "password"`: the value must equal the sibling property named (a password confirmation). */
export const SAME_AS_KEYWORD = 'x-sameAs';
/**
 * PocketBase error codes per failing keyword, e.g. `{ "pattern": "validation_missing_required_param" }`,
 * for the `code` of the server's field errors when the default for the keyword does not fit. Annotation only.
 */
export const CODES_KEYWORD = 'x-codes';
/**
 * The value a fresh install stores for a settings property when it differs from the form's `default`
 * (0.22 stores SMTP's AUTH method as "", which the form shows as its default, PLAIN). Annotation only.
 */
export const STORED_DEFAULT_KEYWORD = 'x-stored-default';
/**
 * An OAuth2 provider's facts for the server (schemas/providers/*.schema.json): logo, endpoints,
 * scopes, PKCE and how its user info maps to id, name, username, email and avatar. Annotation only;
 * its shape is checked by the keyword's meta-schema (src/engine/keywords.ts).
 */
export const PROVIDER_KEYWORD = 'x-provider';
