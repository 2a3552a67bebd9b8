/**
 * The custom JSON Schema keywords our schema files may use, declared once for every consumer:
 * the dashboard's rjsf validator, the contract tests and the server. Anything else that is not a
 * standard keyword fails ajv strict mode, which keeps the schema files honest.
 *
 * Pure module: no React, no Node APIs.
 */
import type Ajv from 'ajv';
import type { KeywordDefinition } from 'ajv';

/** Spec messages per failing keyword, e.g. `{ "minLength": "Minimum 10 characters." }`. Annotation only. */
export const MESSAGES_KEYWORD = 'x-messages';
/** `"x-sameAs": "password"`: the value must equal the sibling property named (a password confirmation). */
export const SAME_AS_KEYWORD = 'x-sameAs';

export const CUSTOM_KEYWORDS: readonly KeywordDefinition[] = [
  {
    keyword: MESSAGES_KEYWORD,
    schemaType: 'object',
    metaSchema: { type: 'object', additionalProperties: { type: 'string' } },
  },
  {
    keyword: SAME_AS_KEYWORD,
    schemaType: 'string',
    metaSchema: { type: 'string', minLength: 1 },
    errors: false,
    // ajv passes the parent object in the data context; without one (a bare value) there is nothing to compare.
    validate: (sibling: string, data: unknown, _parentSchema?: unknown, cxt?: { parentData?: unknown }) => {
      const parent = cxt?.parentData;
      if (!parent || typeof parent !== 'object') return true;
      return data === (parent as Record<string, unknown>)[sibling];
    },
  },
];

/** The names of every custom keyword, for tools that only need the allowlist. */
export const CUSTOM_KEYWORD_NAMES: readonly string[] = CUSTOM_KEYWORDS.map((k) => String(k.keyword));

/** Registers the custom keywords on an ajv instance (idempotent). */
export function addCustomKeywords<A extends Ajv>(ajv: A): A {
  for (const def of CUSTOM_KEYWORDS) {
    if (!ajv.getKeyword(String(def.keyword))) ajv.addKeyword(def);
  }
  return ajv;
}
