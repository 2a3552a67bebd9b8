// The filter language's syntax tree (PocketBase's fexpr grammar, parsed into a real tree so that
// `&&` binding tighter than `||` is explicit instead of left to SQL).

/** Plain comparison operators; a `?` prefix makes the any-of (multi-match "at least one") form. */
const PLAIN_OPS = ['=', '!=', '~', '!~', '<', '<=', '>', '>='] as const;
export type PlainOp = (typeof PLAIN_OPS)[number];
export type AnyOp = `?${PlainOp}`;
export type CompareOp = PlainOp | AnyOp;

export const COMPARE_OPS: readonly CompareOp[] = [...PLAIN_OPS, ...PLAIN_OPS.map((op) => `?${op}` as AnyOp)];

export type Operand =
  | { type: 'identifier'; name: string }
  | { type: 'text'; value: string }
  | { type: 'number'; value: number; raw: string };

export interface CompareNode {
  type: 'compare';
  left: Operand;
  op: CompareOp;
  right: Operand;
}

interface JoinNode {
  type: 'and' | 'or';
  items: FilterNode[];
}

export type FilterNode = CompareNode | JoinNode;

/** A filter that cannot be parsed or compiled; the HTTP layer turns it into a 400. */
export class FilterError extends Error {}

/**
 * A filter over one of our own bounds (length, nesting, expressions), which 0.22 does not have:
 * the answer names the filter ('Invalid filter - …') instead of 0.22's generic list failure.
 */
export class FilterLimitError extends FilterError {}

export const isAnyOp = (op: CompareOp): op is AnyOp => op.startsWith('?');
export const plainOf = (op: CompareOp): PlainOp => (isAnyOp(op) ? (op.slice(1) as PlainOp) : op);
