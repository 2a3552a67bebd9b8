// Parameterised SQL fragments: text with `?` placeholders plus their values in order. Fragments
// compose by concatenation, so values never get spliced into SQL text.

export interface Sql {
  sql: string;
  params: unknown[];
}

export const raw = (text: string): Sql => ({ sql: text, params: [] });

export const bind = (value: unknown): Sql => ({ sql: '?', params: [value] });

/** Template tag: literal text stays SQL, every interpolation must itself be a fragment. */
export function sql(strings: TemplateStringsArray, ...parts: Sql[]): Sql {
  let text = strings[0];
  const params: unknown[] = [];
  parts.forEach((part, i) => {
    text += part.sql + strings[i + 1];
    params.push(...part.params);
  });
  return { sql: text, params };
}

export function joinSql(parts: Sql[], separator: string): Sql {
  return { sql: parts.map((p) => p.sql).join(separator), params: parts.flatMap((p) => p.params) };
}

/** Double-quotes an identifier coming from code (table and column names), never from input. */
export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;
