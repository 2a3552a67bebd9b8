// Search filter normalisation, shared by the admins, records and logs lists.
// A term without a comparison operator becomes an OR of "contains" matches on each searchable
// field; a non-numeric, non-boolean term is quoted. A term that already looks like a filter
// expression is passed through unchanged.

const OPERATORS = ['=', '!=', '~', '!~', '>', '>=', '<', '<=', '?=', '?!=', '?~', '?!~', '?>', '?>=', '?<', '?<='];

/** Loose check: does the text contain a comparison operator? */
export function looksLikeFilterExpression(text: string): boolean {
  return OPERATORS.some((op) => text.includes(op));
}

function isNumeric(text: string): boolean {
  return text.trim() !== '' && !Number.isNaN(Number(text));
}

/** Quotes a plain term as a filter string literal (surrounding quotes typed by the user are dropped). */
export function quoteFilterTerm(term: string): string {
  const bare = term.replace(/^["'`]+|["'`]+$/g, '');
  if (!bare.includes("'")) return `'${bare}'`;
  if (!bare.includes('"')) return `"${bare}"`;
  return `'${bare.replace(/'/g, "\\'")}'`; // a backslash escapes the opening quote only
}

/**
 * normalizeSearchFilter('bob', ['id', 'email']) -> "id~'bob' || email~'bob'"
 * normalizeSearchFilter('42', ['id', 'level']) -> "id~42 || level~42"
 * normalizeSearchFilter("email='a@b.c'", [...]) -> "email='a@b.c'" (unchanged)
 */
export function normalizeSearchFilter(filter: string | null | undefined, fields: readonly string[]): string {
  const text = (filter ?? '').trim();
  if (!text || fields.length === 0) return text;
  if (looksLikeFilterExpression(text)) return text;
  const value = isNumeric(text) || text === 'true' || text === 'false' ? text : quoteFilterTerm(text);
  return fields.map((f) => `${f}~${value}`).join(' || ');
}

/** Joins non-empty filter parts with '&&' (each part parenthesised when there is more than one). */
export function joinFilters(...parts: Array<string | null | undefined>): string {
  const list = parts.map((p) => (p ?? '').trim()).filter(Boolean);
  if (list.length <= 1) return list[0] ?? '';
  return list.map((p) => `(${p})`).join(' && ');
}
