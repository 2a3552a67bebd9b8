/**
 * rjsf's transformErrors for the dashboard's forms: the messages the spec words, looked up as the
 * server's error tree looks them up (src/lib/schema/schema-words.ts: the failing schema's or the
 * property's `x-messages`, else a default).
 *
 * No React, no Node APIs.
 */
import type { RJSFSchema, RJSFValidationError } from '@rjsf/utils';
import { defaultWordsOf, keywordPriority, schemaFormMessageOf, WRAPPER_KEYWORDS } from '../lib/schema/schema-words';
import { t } from '../ui/i18n';

type Schema = Record<string, unknown>;

/** Splits rjsf's property accessor ('.a.b', "['x-y']", '.list.0') into path segments. */
export function propertyPath(property: string | undefined): string[] {
  if (!property) return [];
  // rjsf writes a top-level missing property without the leading dot ('password').
  if (!/^[.[]/.test(property)) property = `.${property}`;
  const out: string[] = [];
  const re = /\.([^.[\]]+)|\[(?:'([^']*)'|"([^"]*)"|(\d+))\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(property))) out.push(m[1] ?? m[2] ?? m[3] ?? m[4]);
  return out;
}

function valueAt(data: unknown, path: readonly string[]): unknown {
  let node = data;
  for (const key of path) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  return node;
}

/**
 * The message for one error: the failing schema's x-messages, then the property's, then a default
 * (which may name the failing value of `data`, as a Go regex's parse error does).
 */
function messageFor(root: Schema, error: RJSFValidationError, data?: unknown): string {
  // A property dependency ("b is required when a is set") reads like any other missing value.
  const keyword = error.name === 'dependencies' ? 'required' : (error.name ?? '');
  const params = (error.params ?? {}) as Record<string, unknown>;
  const path = propertyPath(error.property);
  const failure = { keyword, params, path, schemaPath: error.schemaPath, value: valueAt(data, path) };
  // the schema's words are translated with the file (src/engine/schemas.ts); the defaults are the catalog's
  const words = schemaFormMessageOf(root, failure) ?? defaultWordsOf(keyword, params, failure.value);
  return typeof words === 'string' ? words : t(words.key, words.params);
}

/**
 * Builds rjsf's `transformErrors` for a schema: drops wrapper errors and errors about the whole
 * form (nothing to show them under), and rewrites each message in the spec's words.
 */
export function createTransformErrors(schema: RJSFSchema, data?: unknown) {
  const root = schema as Schema;
  return (errors: RJSFValidationError[]): RJSFValidationError[] =>
    errors
      .filter((e) => !WRAPPER_KEYWORDS.has(e.name ?? '') && propertyPath(e.property).length > 0)
      // A field shows its first error: the most basic problem first, "doesn't match" last.
      .sort((a, b) => keywordPriority(a.name) - keywordPriority(b.name))
      .map((e) => {
        const message = messageFor(root, e, data);
        return { ...e, message, stack: `${e.property} ${message}` };
      });
}
