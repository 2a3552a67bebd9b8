// Compiles a parsed filter to a parameterised SQL WHERE expression with PocketBase 0.22's
// semantics (tools/search/filter.go): empty-or-NULL equality, LIKE wrapping and escaping,
// date macros, and the multi-match rules for multi-valued operands.
import { FilterError, isAnyOp, plainOf, type CompareNode, type FilterNode, type Operand, type PlainOp } from './filter-ast';
import type { FieldResolver, ResolvedField } from './field-resolver';
import { macroValue } from './macros';
import { parseFilter } from './filter-parser';
import { bind, joinSql, raw, sql, type Sql } from './sql';

export interface CompileOptions {
  /** Clock for the date macros (tests pin it). */
  now?: Date;
}

/** Parses and compiles in one step; throws FilterError on any problem. */
export function compileFilter(filter: string, resolver: FieldResolver, options: CompileOptions = {}): Sql {
  return compileNode(parseFilter(filter), resolver, options);
}

function compileNode(node: FilterNode, resolver: FieldResolver, options: CompileOptions = {}): Sql {
  const ctx: Ctx = { resolver, now: options.now ?? new Date(), aliasSeq: 0 };
  return build(node, ctx);
}

interface Ctx {
  resolver: FieldResolver;
  now: Date;
  aliasSeq: number;
}

function build(node: FilterNode, ctx: Ctx): Sql {
  if (node.type === 'compare') return compare(node, ctx);
  const parts = node.items.map((item) => build(item, ctx));
  const joined = joinSql(parts, node.type === 'and' ? ' AND ' : ' OR ');
  return { sql: `(${joined.sql})`, params: joined.params };
}

function compare(node: CompareNode, ctx: Ctx): Sql {
  const left = resolveOperand(node.left, ctx, 'left');
  const right = resolveOperand(node.right, ctx, 'right');
  return buildComparison(left, node.op, right, ctx);
}

const FALLBACK_IDENTIFIERS: Record<string, string> = { null: 'NULL', true: '1', false: '0' };

function resolveOperand(operand: Operand, ctx: Ctx, side: string): ResolvedField {
  if (operand.type === 'text') return { ...bind(operand.value), literal: { value: operand.value } };
  if (operand.type === 'number') return { ...bind(operand.value), literal: { value: operand.value } };
  const macro = macroValue(operand.name, ctx.now);
  if (macro !== undefined) return { ...bind(macro), literal: { value: macro } };
  try {
    return ctx.resolver.resolve(operand.name);
  } catch (err) {
    // like PocketBase, a field named null/true/false wins; otherwise the keywords apply
    const fallback = FALLBACK_IDENTIFIERS[operand.name.toLowerCase()];
    if (fallback) return raw(fallback);
    const reason = err instanceof Error ? err.message : String(err);
    throw new FilterError(`invalid ${side} operand ${JSON.stringify(operand.name)} - ${reason}`);
  }
}

function isEmpty(f: ResolvedField): boolean {
  if (['', 'null', "''", '""'].includes(f.sql.trim().toLowerCase())) return true;
  return !!f.literal && (f.literal.value === null || f.literal.value === undefined || f.literal.value === '');
}

function isKnownNonEmpty(f: ResolvedField): boolean {
  if (['1', '0', 'true', 'false'].includes(f.sql.trim().toLowerCase())) return true;
  return !!f.literal && !isEmpty(f);
}

function buildComparison(left: ResolvedField, op: CompareNode['op'], right: ResolvedField, ctx: Ctx): Sql {
  const plain = plainOf(op);
  let expr = basicComparison(left, plain, right);

  if (!isAnyOp(op)) {
    if (left.multiMatch && right.multiMatch) {
      const l = nextAlias(ctx, 'ml');
      const r = nextAlias(ctx, 'mr');
      const inner = buildComparison(
        { sql: `${l}.multiMatchValue`, params: [], noCoalesce: left.noCoalesce },
        plain,
        { sql: `${r}.multiMatchValue`, params: [], noCoalesce: right.noCoalesce, afterBuild: mismatchOf(plain, [l, r]) },
        ctx,
      );
      expr = sql`(${expr} AND NOT EXISTS (SELECT 1 FROM (${left.multiMatch}) ${raw(l)} LEFT JOIN (${right.multiMatch}) ${raw(r)} WHERE ${inner}))`;
    } else if (left.multiMatch || right.multiMatch) {
      const many = (left.multiMatch ? left : right) as ResolvedField & { multiMatch: Sql };
      const other = left.multiMatch ? right : left;
      const a = nextAlias(ctx, 'sm');
      const element: ResolvedField = { sql: `${a}.multiMatchValue`, params: [], noCoalesce: many.noCoalesce, afterBuild: mismatchOf(plain, [a]) };
      const otherPlain: ResolvedField = { sql: other.sql, params: other.params, literal: other.literal };
      const inner = left.multiMatch ? buildComparison(element, plain, otherPlain, ctx) : buildComparison(otherPlain, plain, element, ctx);
      expr = sql`(${expr} AND NOT EXISTS (SELECT 1 FROM (${many.multiMatch}) ${raw(a)} WHERE ${inner}))`;
    }
  }

  if (left.afterBuild) expr = left.afterBuild(expr);
  if (right.afterBuild) expr = right.afterBuild(expr);
  return expr;
}

/**
 * Inside the NOT EXISTS of a plain operator on a multi-valued operand: an element that fails the
 * comparison, or (except for `=`) a missing element, is a mismatch.
 */
function mismatchOf(op: PlainOp, aliases: string[]): (expr: Sql) => Sql {
  return (expr) => {
    const negated = sql`NOT (${expr})`;
    if (op === '=') return negated;
    return joinOr([negated, ...aliases.map((a) => raw(`${a}.multiMatchValue IS NULL`))]);
  };
}

function joinOr(parts: Sql[]): Sql {
  const joined = joinSql(parts, ' OR ');
  return { sql: `(${joined.sql})`, params: joined.params };
}

function nextAlias(ctx: Ctx, kind: string): string {
  ctx.aliasSeq += 1;
  return `__${kind}${ctx.aliasSeq}`;
}

function basicComparison(left: ResolvedField, op: PlainOp, right: ResolvedField): Sql {
  switch (op) {
    case '=':
      return equality(true, left, right);
    case '!=':
      return equality(false, left, right);
    case '~':
      return like(false, left, right);
    case '!~':
      return like(true, left, right);
    case '<':
    case '<=':
    case '>':
    case '>=':
      return sql`${left} ${raw(op)} ${right}`;
    default:
      throw new FilterError(`unknown expression operator ${JSON.stringify(op)}`);
  }
}

/**
 * `=` / `!=` as PocketBase builds them: '' and NULL are the same value unless an operand is a
 * json field/path (then plain IS / IS NOT). `!=` uses IS NOT so NULL columns compare as values.
 */
function equality(equal: boolean, left: ResolvedField, right: ResolvedField): Sql {
  const eq = raw(equal ? '=' : 'IS NOT');
  const nullEq = raw(equal ? 'IS' : 'IS NOT');
  const concat = raw(equal ? 'OR' : 'AND');
  const nullCheck = raw(equal ? 'IS NULL' : 'IS NOT NULL');
  const empty = raw("''");
  const leftEmpty = isEmpty(left);
  const rightEmpty = isEmpty(right);

  if (left.noCoalesce || right.noCoalesce) return sql`${left} ${nullEq} ${right}`;
  if (leftEmpty && rightEmpty) return sql`${empty} ${eq} ${empty}`;
  if (isKnownNonEmpty(left) || isKnownNonEmpty(right)) {
    return sql`${leftEmpty ? empty : left} ${eq} ${rightEmpty ? empty : right}`;
  }
  if (leftEmpty) return sql`(${empty} ${eq} ${right} ${concat} ${right} ${nullCheck})`;
  if (rightEmpty) return sql`(${left} ${eq} ${empty} ${concat} ${left} ${nullCheck})`;
  return sql`COALESCE(${left}, '') ${eq} COALESCE(${right}, '')`;
}

/**
 * `~` / `!~`: a literal pattern without an unescaped `%` gets `\ % _` escaped and is wrapped in
 * %…% (contains); one with an unescaped `%` is used as is. A column on the right is wrapped in SQL.
 */
function like(negate: boolean, left: ResolvedField, right: ResolvedField): Sql {
  const kw = raw(negate ? 'NOT LIKE' : 'LIKE');
  if (right.literal) {
    return sql`${left} ${kw} ${bind(likePattern(right.literal.value))} ESCAPE '\\'`;
  }
  return sql`${left} ${kw} ('%' || ${right} || '%') ESCAPE '\\'`;
}

export function likePattern(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (containsUnescaped(text, '%')) return text;
  return `%${escapeUnescaped(text, ['\\', '%', '_'])}%`;
}

function containsUnescaped(text: string, ch: string): boolean {
  let prev = '';
  for (const c of text) {
    if (c === ch && prev !== '\\') return true;
    // an escaped backslash does not escape what follows it
    prev = c === '\\' && prev === '\\' ? '' : c;
  }
  return false;
}

/**
 * Prefixes `\` to each of `chars` that is not already escaped. (PocketBase's version scans
 * backwards and misses the first of two adjacent specials, e.g. `__`; this escapes every one.)
 */
function escapeUnescaped(text: string, chars: string[]): string {
  const runes = [...text];
  let out = '';
  for (let i = 0; i < runes.length; i++) {
    const c = runes[i];
    if (c === '\\' && i + 1 < runes.length && chars.includes(runes[i + 1])) {
      out += c + runes[i + 1];
      i++;
    } else {
      out += chars.includes(c) ? `\\${c}` : c;
    }
  }
  return out;
}
