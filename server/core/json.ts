import { jsonTooDeep, MAX_JSON_DEPTH } from './json-depth';

// Go's encoding/json output, which PocketBase clients may rely on byte for byte:
// compact, with <, >, & and the JS line separators escaped.
const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

export function stringifyLikeGo(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return 'null';
  return text.replace(/[<>&\u2028\u2029]/g, (c) => ESCAPES[c]);
}

/**
 * Parses a JSON request body; an empty body counts as {} (PocketBase's form endpoints do the same).
 * Throws, like a syntax error, when the body nests deeper than MAX_JSON_DEPTH.
 */
export function parseJsonBody(raw: string): unknown {
  if (raw.trim() === '') return {};
  if (jsonTooDeep(raw)) throw new SyntaxError(`the JSON nests more than ${MAX_JSON_DEPTH} levels deep`);
  return JSON.parse(raw);
}
