// The `sort` query parameter: comma-separated `-field` (DESC), `+field` or `field` (ASC), plus
// `@random`. Fields go through the same FieldResolver as filters.
import { FilterError } from './filter-ast';
import type { FieldResolver } from './field-resolver';
import { joinSql, type Sql } from './sql';

export interface SortField {
  name: string;
  direction: 'ASC' | 'DESC';
}

export function parseSort(input: string): SortField[] {
  return input.split(',').map((part) => {
    const field = part.trim();
    if (field.startsWith('-')) return { name: field.slice(1), direction: 'DESC' };
    return { name: field.startsWith('+') ? field.slice(1) : field, direction: 'ASC' };
  });
}

/** ORDER BY terms; throws FilterError for fields that are unknown or not columns. */
export function compileSort(fields: SortField[], resolver: FieldResolver): Sql | null {
  const terms = fields.map(({ name, direction }): Sql => {
    if (name === '@random') return { sql: 'RANDOM()', params: [] };
    let resolved;
    try {
      resolved = resolver.resolve(name);
    } catch {
      throw new FilterError(`invalid sort field ${JSON.stringify(name)}`);
    }
    if (resolved.literal || resolved.sql.trim() === '' || resolved.sql.trim().toLowerCase() === 'null') {
      throw new FilterError(`invalid sort field ${JSON.stringify(name)}`);
    }
    return { sql: `${resolved.sql} ${direction}`, params: resolved.params };
  });
  return terms.length ? joinSql(terms, ', ') : null;
}
