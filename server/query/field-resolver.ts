// How filter and sort identifiers become SQL. The compiler never builds an identifier itself: it
// asks a FieldResolver, so each API (logs, records, rules) decides which names exist and what they
// mean. SimpleFieldResolver covers flat tables with JSON columns (logs, admins, collections).
import { FilterError } from './filter-ast';
import type { Sql } from './sql';

export interface ResolvedField extends Sql {
  /**
   * Compare with `IS` / `IS NOT` instead of PocketBase's empty-or-NULL normalisation: json fields
   * and json paths, where '' and null are different values.
   */
  noCoalesce?: boolean;
  /**
   * Set when the identifier stands for a fixed value (e.g. `@request.auth.id`) rather than a
   * column: it then counts as a literal for `= ''` handling and `~` wrapping, and cannot be sorted
   * on. `sql` is then usually `?` with the value in `params`.
   */
  literal?: { value: unknown };
  /**
   * Multi-valued operand (multi relation paths, back-relations, @collection.*, :each): a
   * subquery, correlated to the outer row, that yields one row per element in a column named
   * `multiMatchValue`. Plain operators then require every element to match (NOT EXISTS of a
   * mismatch); the ?-operators use only `sql`, which should match when any element does (e.g. a
   * column of a LEFT JOIN that fans out one row per element).
   */
  multiMatch?: Sql;
  /** Wraps the finished comparison (e.g. `:isset` or rule-specific guards). */
  afterBuild?: (expr: Sql) => Sql;
}

export interface FieldResolver {
  /** Resolves one identifier (`title`, `data.auth`, `rel.name`, `@request.auth.id`). Throws FilterError when unknown. */
  resolve(identifier: string): ResolvedField;
  /**
   * FROM-clause additions (LEFT JOINs) the resolved identifiers need; read after compiling.
   * When non-empty the list query selects DISTINCT rows and counts DISTINCT ids.
   */
  joins?(): Sql[];
}

export interface SimpleResolverOptions {
  /** Name usable in filter/sort → SQL column expression (from code, trusted). */
  columns: Record<string, string>;
  /** Names among `columns` whose dotted sub-paths (`data.auth`, `data.list.0`) go through json_extract. */
  jsonColumns?: string[];
}

const PATH_PART = /^[\w:]+$/;

/** PocketBase's SimpleFieldResolver: listed columns, plus json_extract for sub-paths of json columns. */
export function createSimpleResolver({ columns, jsonColumns = [] }: SimpleResolverOptions): FieldResolver {
  const json = new Set(jsonColumns);
  return {
    resolve(identifier) {
      if (Object.hasOwn(columns, identifier)) return { sql: columns[identifier], params: [] };
      const [head, ...rest] = identifier.split('.');
      if (rest.length > 0 && json.has(head) && Object.hasOwn(columns, head) && rest.every((p) => PATH_PART.test(p))) {
        return { sql: `json_extract(${columns[head]}, ?)`, params: [jsonPath(rest)], noCoalesce: true };
      }
      throw new FilterError(`failed to resolve field ${JSON.stringify(identifier)}`);
    },
  };
}

/** `['a', '0', 'b']` → `$."a"[0]."b"` (keys quoted so `:` and digits-first names stay keys). */
function jsonPath(parts: string[]): string {
  return '$' + parts.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `."${p}"`)).join('');
}
