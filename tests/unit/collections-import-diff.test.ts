import { describe, expect, it } from 'vitest';
import { diffLines, foldUnchanged, hasDifferences } from '../../src/lib/collections-import';

const summary = (rows: ReturnType<typeof diffLines>) =>
  rows.map((r) => `${r.type}:${r.left ? r.left.no + '=' + r.left.text : '-'}|${r.right ? r.right.no + '=' + r.right.text : '-'}`);

describe('collections import: side-by-side line diff', () => {
  it('equal texts are all same rows', () => {
    const rows = diffLines('a\nb\nc', 'a\nb\nc');
    expect(rows.every((r) => r.type === 'same')).toBe(true);
    expect(hasDifferences(rows)).toBe(false);
  });

  it('pairs a replaced line as changed and keeps the line numbers of each side', () => {
    expect(summary(diffLines('a\nb\nc', 'a\nB\nc'))).toEqual(['same:1=a|1=a', 'changed:2=b|2=B', 'same:3=c|3=c']);
  });

  it('shows insertions and deletions with a blank on the other side', () => {
    expect(summary(diffLines('a\nc', 'a\nb\nc'))).toEqual(['same:1=a|1=a', 'added:-|2=b', 'same:2=c|3=c']);
    expect(summary(diffLines('a\nb\nc', 'a\nc'))).toEqual(['same:1=a|1=a', 'removed:2=b|-', 'same:3=c|2=c']);
  });

  it('an empty side is all added or all removed', () => {
    expect(summary(diffLines('', 'x\ny'))).toEqual(['added:-|1=x', 'added:-|2=y']);
    expect(summary(diffLines('x', ''))).toEqual(['removed:1=x|-']);
    expect(diffLines('', '')).toEqual([]);
  });

  it('pairs uneven blocks: changed rows first, then the rest', () => {
    expect(summary(diffLines('a\nx\ny\nz', 'a\nq'))).toEqual([
      'same:1=a|1=a',
      'changed:2=x|2=q',
      'removed:3=y|-',
      'removed:4=z|-',
    ]);
  });

  it('finds common lines in the middle (LCS)', () => {
    const rows = diffLines(['{', '"a": 1,', '"b": 2,', '"c": 3', '}'].join('\n'), ['{', '"a": 9,', '"b": 2,', '"c": 4', '}'].join('\n'));
    expect(rows.map((r) => r.type)).toEqual(['same', 'changed', 'same', 'changed', 'same']);
  });

  it('handles large inputs', () => {
    const a = Array.from({ length: 3000 }, (_, i) => `line ${i}`);
    const b = a.slice();
    b[1500] = 'changed';
    const rows = diffLines(a.join('\n'), b.join('\n'));
    expect(rows.filter((r) => r.type !== 'same')).toEqual([
      { type: 'changed', left: { no: 1501, text: 'line 1500' }, right: { no: 1501, text: 'changed' } },
    ]);
  });
});

describe('collections import: folding unchanged lines', () => {
  it('keeps context around changes and folds the rest', () => {
    const a = Array.from({ length: 20 }, (_, i) => `l${i}`);
    const b = a.slice();
    b[10] = 'x';
    const items = foldUnchanged(diffLines(a.join('\n'), b.join('\n')), 2);
    expect(items.map((it) => (it.kind === 'skip' ? `skip ${it.from}+${it.count}` : it.row.type))).toEqual([
      'skip 0+8',
      'same',
      'same',
      'changed',
      'same',
      'same',
      'skip 13+7',
    ]);
  });

  it('does not fold a single line or a diff without changes into nothing', () => {
    const rows = diffLines('a\nb\nc\nd', 'a\nb\nc\nD');
    expect(foldUnchanged(rows, 2).map((it) => it.kind)).toEqual(['row', 'row', 'row', 'row']);
    expect(foldUnchanged(diffLines('a\nb\nc', 'a\nb\nc'), 1)).toEqual([{ kind: 'skip', from: 0, count: 3 }]);
  });
});
