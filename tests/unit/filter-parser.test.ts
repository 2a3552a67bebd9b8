import { describe, expect, it } from 'vitest';
import { FilterError, type FilterNode } from '../../server/query/filter-ast';
import { tokenize } from '../../server/query/filter-lexer';
import { FILTER_LIMITS, parseFilter } from '../../server/query/filter-parser';

/** Compact view of a tree: comparisons as [left, op, right], joins as {and|or: [...]}. */
function show(node: FilterNode): unknown {
  if (node.type === 'compare') {
    const operand = (o: typeof node.left) => (o.type === 'identifier' ? o.name : o.type === 'text' ? `'${o.value}'` : o.value);
    return [operand(node.left), node.op, operand(node.right)];
  }
  return { [node.type]: node.items.map(show) };
}

describe('filter lexer', () => {
  it('reads literals, identifiers, operators and joins', () => {
    const kinds = tokenize(`@request.auth.id != "" && a.b:length >= -1.5 || x ?~ 'y' // trailing comment`).map((t) => [t.kind, t.text]);
    expect(kinds).toEqual([
      ['identifier', '@request.auth.id'],
      ['op', '!='],
      ['text', ''],
      ['join', '&&'],
      ['identifier', 'a.b:length'],
      ['op', '>='],
      ['number', '-1.5'],
      ['join', '||'],
      ['identifier', 'x'],
      ['op', '?~'],
      ['text', 'y'],
    ]);
  });

  it('unescapes only the quote that opened the text', () => {
    expect(tokenize(String.raw`'it\'s' "say \"hi\"" 'a\%b' "it's"`).map((t) => t.text)).toEqual([
      "it's",
      'say "hi"',
      String.raw`a\%b`,
      "it's",
    ]);
  });

  it('knows every comparison operator', () => {
    for (const op of ['=', '!=', '>', '>=', '<', '<=', '~', '!~', '?=', '?!=', '?>', '?>=', '?<', '?<=', '?~', '?!~']) {
      expect(tokenize(`a ${op} 1`)[1]).toMatchObject({ kind: 'op', text: op });
    }
  });

  it.each([
    [`a == 1`, 'sign operator'],
    [`a = 'x`, 'quoted text'],
    [`a = "x`, 'quoted text'],
    [`a = 1.`, 'number'],
    [`a = 1 & b = 2`, 'join'],
    [`a = $x`, 'unexpected character'],
    [`a. = 1`, 'identifier'],
    [`a = 1; DROP TABLE x`, 'unexpected character'],
  ])('rejects %s', (input, message) => {
    expect(() => tokenize(input)).toThrow(FilterError);
    expect(() => tokenize(input)).toThrow(message);
  });
});

describe('filter parser', () => {
  it('parses a comparison with each literal kind', () => {
    expect(show(parseFilter(`title = "x"`))).toEqual(['title', '=', "'x'"]);
    expect(show(parseFilter(`n >= 10`))).toEqual(['n', '>=', 10]);
    expect(show(parseFilter(`flag = true`))).toEqual(['flag', '=', 'true']);
    expect(show(parseFilter(`'a' = null`))).toEqual(["'a'", '=', 'null']);
  });

  it('binds && tighter than ||', () => {
    expect(show(parseFilter('a = 1 || b = 2 && c = 3'))).toEqual({
      or: [['a', '=', 1], { and: [['b', '=', 2], ['c', '=', 3]] }],
    });
    expect(show(parseFilter('a = 1 && b = 2 || c = 3'))).toEqual({
      or: [{ and: [['a', '=', 1], ['b', '=', 2]] }, ['c', '=', 3]],
    });
  });

  it('honours parentheses', () => {
    expect(show(parseFilter('(a = 1 || b = 2) && c = 3'))).toEqual({
      and: [{ or: [['a', '=', 1], ['b', '=', 2]] }, ['c', '=', 3]],
    });
    expect(show(parseFilter('((((a = 1))))'))).toEqual(['a', '=', 1]);
  });

  it('ignores comments and whitespace, drops empty groups like fexpr', () => {
    expect(show(parseFilter('a = 1 // the rest is ignored && b = 2\n && b = 2'))).toEqual({ and: [['a', '=', 1], ['b', '=', 2]] });
    expect(show(parseFilter('a = 1 && ()'))).toEqual(['a', '=', 1]);
    expect(show(parseFilter("a = '// not a comment'"))).toEqual(['a', '=', "'// not a comment'"]);
  });

  it.each([
    [''],
    ['   '],
    ['// only a comment'],
    ['()'],
    ['a'],
    ['a ='],
    ['a = 1 &&'],
    ['&& a = 1'],
    ['a = 1 b = 2'],
    ['(a = 1'],
    ['a = 1)'],
    ['(a = 1)(b = 2)'],
    ['= 1'],
    ['a = = 1'],
    ["'; DROP TABLE x; --"],
    ["title = ''; DROP TABLE x; --"],
  ])('rejects malformed filter #%#', (input) => {
    expect(() => parseFilter(input)).toThrow(FilterError);
  });

  it('bounds length, depth and size instead of overflowing the stack', () => {
    expect(() => parseFilter('('.repeat(10_000) + 'a = 1' + ')'.repeat(10_000))).toThrow(FilterError);
    expect(() => parseFilter('('.repeat(100_000))).toThrow(FilterError);
    const deepOk = '('.repeat(FILTER_LIMITS.maxDepth) + 'a = 1' + ')'.repeat(FILTER_LIMITS.maxDepth);
    expect(show(parseFilter(deepOk))).toEqual(['a', '=', 1]);
    expect(() => parseFilter('a = 1' + ' && a = 1'.repeat(FILTER_LIMITS.maxComparisons))).toThrow(/too many|longer/);
    expect(() => parseFilter(`a = '${'x'.repeat(FILTER_LIMITS.maxLength)}'`)).toThrow(/longer than/);
  });
});
