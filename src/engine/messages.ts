/**
 * Turns ajv errors into the messages the spec words. A schema may override any message per keyword
 * with `"x-messages": { "<keyword>": "…" }` on the property's schema; otherwise a default below is
 * used. `required` is looked up on the missing property's own schema, so its message sits next to the
 * field it belongs to.
 *
 * Pure module: no React, no Node APIs.
 */
import type { RJSFSchema, RJSFValidationError } from '@rjsf/utils';
import { MESSAGES_KEYWORD, SAME_AS_KEYWORD } from './keyword-names';

type Schema = Record<string, unknown>;
type Params = Record<string, unknown>;

const FORMAT_MESSAGES: Record<string, string> = {
  email: 'Must be a valid email address.',
  uri: 'Must be a valid url.',
  url: 'Must be a valid url.',
};

/** Fallback messages, modelled on PocketBase's validation wording. */
export function defaultMessage(keyword: string, params: Params): string {
  const limit = params.limit as number | undefined;
  switch (keyword) {
    case 'required':
      return 'Cannot be blank.';
    case 'minLength':
      return `Minimum ${limit} characters.`;
    case 'maxLength':
      return `Maximum ${limit} characters.`;
    case 'minimum':
      return `Must be no less than ${limit}.`;
    case 'maximum':
      return `Must be no greater than ${limit}.`;
    case 'minItems':
      return `Select at least ${limit} items.`;
    case 'maxItems':
      return `Select up to ${limit} items.`;
    case 'format':
      return FORMAT_MESSAGES[String(params.format)] ?? 'Invalid format.';
    case 'pattern':
      return 'Invalid format.';
    case SAME_AS_KEYWORD:
      return "Values don't match.";
    default:
      return 'Invalid value.';
  }
}

const ORDER = ['required', 'dependencies', 'type', 'minLength', 'maxLength', 'format', 'pattern', 'minimum', 'maximum'];
const priority = (keyword = '') => {
  const i = ORDER.indexOf(keyword);
  return i < 0 ? ORDER.length : i;
};

/** Keywords that only say "a sub-schema failed"; the sub-schema's own error is the useful one. */
const WRAPPER_KEYWORDS = new Set(['if', 'then', 'else', 'allOf', 'anyOf', 'oneOf', 'not']);

function isObject(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Resolves a local JSON pointer ('#/definitions/x') against the root schema. */
function resolvePointer(root: Schema, pointer: string): unknown {
  if (!pointer.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/').filter(Boolean)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function deref(root: Schema, node: unknown): Schema | undefined {
  if (!isObject(node)) return undefined;
  if (typeof node.$ref === 'string') return deref(root, resolvePointer(root, node.$ref));
  return node;
}

/**
 * Every sub-schema that can describe the property at `path`: properties of the object schema and
 * of its conditional branches (allOf, if/then/else, dependencies, anyOf/oneOf).
 */
export function propertySchemas(root: Schema, path: readonly string[]): Schema[] {
  let level: Schema[] = [root];
  for (const key of path) {
    const next: Schema[] = [];
    const visit = (node: unknown, depth: number) => {
      const s = deref(root, node);
      if (!s || depth > 8) return;
      if (isObject(s.properties) && key in s.properties) {
        const p = deref(root, s.properties[key]);
        if (p) next.push(p);
      }
      if (isObject(s.items) && /^\d+$/.test(key)) {
        const p = deref(root, s.items);
        if (p) next.push(p);
      }
      for (const k of ['then', 'else']) visit(s[k], depth + 1);
      for (const k of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(s[k])) (s[k] as unknown[]).forEach((b) => visit(b, depth + 1));
      if (isObject(s.dependencies)) Object.values(s.dependencies).forEach((d) => visit(d, depth + 1));
    };
    level.forEach((s) => visit(s, 0));
    level = next;
  }
  return level;
}

function messagesOf(schema: Schema | undefined): Record<string, string> | undefined {
  const m = schema?.[MESSAGES_KEYWORD];
  return isObject(m) ? (m as Record<string, string>) : undefined;
}

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

/** The message for one error: the failing schema's x-messages, then the property's, then a default. */
export function messageFor(root: Schema, error: RJSFValidationError): string {
  // A property dependency ("b is required when a is set") reads like any other missing value.
  const keyword = error.name === 'dependencies' ? 'required' : (error.name ?? '');
  const params = (error.params ?? {}) as Params;
  if (error.schemaPath && keyword !== 'required') {
    const owner = deref(root, resolvePointer(root, error.schemaPath.replace(/\/[^/]*$/, '')));
    const own = messagesOf(owner)?.[keyword];
    if (own) return own;
  }
  for (const s of propertySchemas(root, propertyPath(error.property))) {
    const m = messagesOf(s)?.[keyword];
    if (m) return m;
  }
  return defaultMessage(keyword, params);
}

/**
 * Builds rjsf's `transformErrors` for a schema: drops wrapper errors and errors about the whole
 * form (nothing to show them under), and rewrites each message in the spec's words.
 */
export function createTransformErrors(schema: RJSFSchema) {
  const root = schema as Schema;
  return (errors: RJSFValidationError[]): RJSFValidationError[] =>
    errors
      .filter((e) => !WRAPPER_KEYWORDS.has(e.name ?? '') && propertyPath(e.property).length > 0)
      // A field shows its first error: the most basic problem first, "doesn't match" last.
      .sort((a, b) => priority(a.name) - priority(b.name))
      .map((e) => {
        const message = messageFor(root, e);
        return { ...e, message, stack: `${e.property} ${message}` };
      });
}
