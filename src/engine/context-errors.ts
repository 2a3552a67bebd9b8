/**
 * The errors of a form that only its validation context reveals (src/lib/schema/keyword-checks.ts:
 * a relation's target collection is gone, is a view, or was changed). A form's own validator runs
 * without context, so those keywords pass there; a page that knows the context asks for them before
 * saving. Interpreted (no eval) with the checks ajv runs on the server, and worded by the shared
 * mapper, so the dashboard shows what the API would answer.
 *
 * Pure module: no React, no ajv.
 */
import { withoutEmptyStrings } from '../lib/schema/empty';
import { interpretSchema, type InterpretedValidate } from './interpret-schema';
import { errorTree, type ErrorTree } from '../lib/schema/error-tree';
import { CONTEXT_KEYWORDS, type KeywordContext } from '../lib/schema/keyword-checks';

type Json = Record<string, unknown>;

const interpreted = new WeakMap<object, InterpretedValidate>();

/** PocketBase's error tree of the context keywords failing on `data`; {} when none fails. */
export function contextErrors(schema: Json, data: unknown, context: KeywordContext): ErrorTree {
  let validate = interpreted.get(schema);
  if (!validate) interpreted.set(schema, (validate = interpretSchema(schema)));
  const judged = withoutEmptyStrings(data);
  if (validate.call(context, judged)) return {};
  const errors = (validate.errors ?? []).filter((e) => CONTEXT_KEYWORDS.has(e.keyword));
  return errorTree(schema, errors, { data: judged });
}

/**
 * PocketBase's error tree of every rule of `schema` failing on `data` (no context keywords); {}
 * when all pass. For rules only the editor can check (a field's `multiple` switch never reaches
 * the server, so its `if`/`then` would pass there).
 */
export function formErrors(schema: Json, data: unknown): ErrorTree {
  let validate = interpreted.get(schema);
  if (!validate) interpreted.set(schema, (validate = interpretSchema(schema)));
  const judged = withoutEmptyStrings(data);
  if (validate.call({}, judged)) return {};
  return errorTree(schema, validate.errors ?? [], { data: judged });
}
