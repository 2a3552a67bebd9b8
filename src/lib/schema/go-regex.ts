/**
 * Go (RE2) regular expressions as PocketBase 0.22 checks a text field's `pattern` option: the
 * `go-regex` JSON Schema format (src/lib/schema/keywords.ts) and the error text 0.22 answers with.
 *
 * Pure module: no React, no Node APIs, no ajv.
 */

/** Go-like error text for a pattern RE2 would refuse; null when it compiles (or is empty). */
export function goRegexError(pattern: string): string | null {
  if (pattern === '') return null;
  // RE2 has no lookaround or backreferences; JS would accept them.
  const unsupported = /\(\?<?[=!]/.exec(pattern);
  if (unsupported) return `error parsing regexp: invalid or unsupported Perl syntax: \`${unsupported[0]}\``;
  const backref = /\\[1-9]/.exec(pattern);
  if (backref) return `error parsing regexp: invalid escape sequence: \`${backref[0]}\``;
  // Translate the RE2-only syntax JS lacks before letting JS parse the rest.
  const translated = pattern.replace(/^\(\?[imsU]+\)/, '').replace(/\(\?P</g, '(?<').replace(/\(\?[imsU]+:/g, '(?:');
  try {
    new RegExp(translated, 'u');
    return null;
  } catch (err) {
    try {
      new RegExp(translated);
      return null;
    } catch {
      const reason = err instanceof Error ? err.message.replace(/^Invalid regular expression: /, '') : String(err);
      return `error parsing regexp: ${reason}`;
    }
  }
}

/** The `go-regex` format's check. */
export const isGoRegex = (pattern: string): boolean => goRegexError(pattern) === null;
