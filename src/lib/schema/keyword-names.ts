/**
 * The names of our custom JSON Schema keywords, on their own so that code reading schemas (the
 * message mapping, the lite renderer) never imports ajv.
 *
 * Pure module: no React, no Node APIs, no ajv.
 */

/**
 * Messages per failing keyword, e.g. `{ "format": "Must be a valid email address." }`: the API's
 * field errors and the dashboard's form both say them (a request body's file words 0.22's). Annotation only.
 */
export const MESSAGES_KEYWORD = 'x-messages';
/**
 * What the dashboard's form says instead of x-messages, where the spec words a form differently from
 * 0.22's API (`{ "minLength": "Minimum 10 characters." }` where the API says "The length must be
 * between 10 and 72."). The server never reads it. Annotation only.
 */
export const FORM_MESSAGES_KEYWORD = 'x-form-messages';
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
 * its shape is checked by the keyword's meta-schema (src/lib/schema/keywords.ts).
 */
export const PROVIDER_KEYWORD = 'x-provider';
/**
 * `"x-notEmpty": true`: a value that is present must not be empty (0, "" or []), PocketBase's
 * "required" for a value Go always stores (maxSize 0 reads as not set). Absent or null passes.
 */
export const NOT_EMPTY_KEYWORD = 'x-notEmpty';
/**
 * `"x-minimumOf": "min"`: the value is no less than the named sibling ("max >= min"), numbers or
 * strings (dates) alike. As PocketBase's threshold rules, it skips an empty value (0, "") and a
 * sibling that is empty or of another type.
 */
export const MINIMUM_OF_KEYWORD = 'x-minimumOf';
/** `"x-integerWhen": "noDecimal"`: a number must be whole while the named boolean sibling is true. */
export const INTEGER_WHEN_KEYWORD = 'x-integerWhen';
/**
 * `"x-maximumCountOf": "values"`: the value is no greater than the number of items of the named
 * sibling array (at least 1): a select's maxSelect against its choices.
 */
export const MAXIMUM_COUNT_OF_KEYWORD = 'x-maximumCountOf';
/** The format of a Go (RE2) regular expression (src/lib/schema/go-regex.ts). */
export const GO_REGEX_FORMAT = 'go-regex';
/**
 * `"x-unchanged": true`: on update, the value may not differ from the stored document's value of
 * the same property (a relation's target collection). Reads the stored document from the
 * validation context (src/lib/schema/keyword-checks.ts); passes without one.
 */
export const UNCHANGED_KEYWORD = 'x-unchanged';
/**
 * `"x-collectionExists": true`: the value is the id of a collection (as it will be after the save),
 * from the validation context; passes without one.
 */
export const COLLECTION_EXISTS_KEYWORD = 'x-collectionExists';
/**
 * `"x-notView": true`: the collection the value names is not a view, unless the collection being
 * edited is a view itself (validation context); passes without one.
 */
export const NOT_VIEW_KEYWORD = 'x-notView';
/** The custom keywords that only annotate (no check of their own). */
export const ANNOTATION_KEYWORDS: readonly string[] = [MESSAGES_KEYWORD, FORM_MESSAGES_KEYWORD, CODES_KEYWORD, STORED_DEFAULT_KEYWORD, PROVIDER_KEYWORD];
