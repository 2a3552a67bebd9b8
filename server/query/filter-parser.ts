// Recursive-descent parser: `||` over `&&` over comparisons and parenthesised groups. Input size,
// nesting depth and comparison count are bounded so hostile filters fail as a FilterError (400),
// never as a stack overflow.
import { FilterError, FilterLimitError, type CompareOp, type FilterNode, type Operand } from './filter-ast';
import { tokenize, type Token } from './filter-lexer';

export const FILTER_LIMITS = {
  /** Characters in one filter (PocketBase rules and dashboard filters stay far below this). */
  maxLength: 3500,
  /** Parenthesis nesting. */
  maxDepth: 50,
  /** Comparisons in one filter. */
  maxComparisons: 300,
};

export function parseFilter(input: string): FilterNode {
  if (input.length > FILTER_LIMITS.maxLength) {
    throw new FilterLimitError(`filter is longer than ${FILTER_LIMITS.maxLength} characters`);
  }
  const parser = new Parser(tokenize(input));
  const node = parser.parseOr(0);
  if (parser.peek()) throw new FilterError(`unexpected ${JSON.stringify(parser.peek()!.text)}`);
  if (!node) throw new FilterError('empty filter expression');
  return node;
}

class Parser {
  private i = 0;
  private comparisons = 0;

  constructor(private readonly tokens: Token[]) {}

  peek(): Token | undefined {
    return this.tokens[this.i];
  }

  private next(): Token | undefined {
    return this.tokens[this.i++];
  }

  /** A null result is an empty group `()`, which fexpr silently drops. */
  parseOr(depth: number): FilterNode | null {
    return this.parseJoin('||', depth);
  }

  private parseJoin(join: '&&' | '||', depth: number): FilterNode | null {
    const items: FilterNode[] = [];
    for (;;) {
      const item = join === '||' ? this.parseJoin('&&', depth) : this.parsePrimary(depth);
      if (item) items.push(item);
      const t = this.peek();
      if (t?.kind !== 'join' || t.text !== join) break;
      this.next();
    }
    if (items.length === 0) return null;
    if (items.length === 1) return items[0];
    return { type: join === '&&' ? 'and' : 'or', items };
  }

  private parsePrimary(depth: number): FilterNode | null {
    const t = this.peek();
    if (!t) throw new FilterError('unexpected end of the filter');
    if (t.kind === 'lparen') {
      if (depth >= FILTER_LIMITS.maxDepth) throw new FilterLimitError('the filter is nested too deeply');
      this.next();
      if (this.peek()?.kind === 'rparen') {
        this.next();
        return null;
      }
      const inner = this.parseOr(depth + 1);
      if (this.next()?.kind !== 'rparen') throw new FilterError('invalid formatted group - missing closing bracket');
      return inner;
    }
    const left = this.operand('left');
    const op = this.next();
    if (op?.kind !== 'op') throw new FilterError(`expected a sign operator, got ${JSON.stringify(op?.text ?? 'end')}`);
    const right = this.operand('right');
    if (++this.comparisons > FILTER_LIMITS.maxComparisons) throw new FilterLimitError('the filter has too many expressions');
    return { type: 'compare', left, op: op.text as CompareOp, right };
  }

  private operand(side: 'left' | 'right'): Operand {
    const t = this.next();
    switch (t?.kind) {
      case 'identifier':
        return { type: 'identifier', name: t.text };
      case 'text':
        return { type: 'text', value: t.text };
      case 'number':
        return { type: 'number', value: Number(t.text), raw: t.text };
      default:
        throw new FilterError(`expected ${side} operand (identifier, text or number), got ${JSON.stringify(t?.text ?? 'end')}`);
    }
  }
}
