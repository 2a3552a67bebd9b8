/**
 * A strict ajv instance for validating documents against the schema files outside rjsf: the server
 * and the contract tests use it, so they judge data exactly as the dashboard does.
 *
 * Pure module: no React, no Node APIs.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { addCustomKeywords } from './keywords';

export function createStrictAjv(): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  return addCustomKeywords(ajv);
}
