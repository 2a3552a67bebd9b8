/**
 * A strict ajv instance for validating documents against the schema files outside rjsf: the server,
 * the contract tests and the build-time precompiled validators use it, so they judge data exactly
 * as the dashboard does.
 *
 * Pure module: no React, no Node APIs.
 */
import Ajv, { type Options } from 'ajv';
import addFormats from 'ajv-formats';
import { addCustomKeywords } from './keywords.js';

/**
 * The options every strict instance uses; `extra` adds build options (e.g. `code` for standalone
 * output). `passContext`: `validate.call(context, data)` hands the keywords that need outside facts
 * (src/lib/schema/keyword-checks.ts) their context, in sub-schema functions too.
 */
const STRICT_AJV_OPTIONS: Options = { strict: true, allErrors: true, allowUnionTypes: true, passContext: true };

export function createStrictAjv(extra: Options = {}): Ajv {
  const ajv = new Ajv({ ...STRICT_AJV_OPTIONS, ...extra });
  addFormats(ajv);
  return addCustomKeywords(ajv);
}
