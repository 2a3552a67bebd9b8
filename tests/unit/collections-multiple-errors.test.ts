// The editor-only rule of the single/multiple switch (src/pages/collections/multiple-errors.ts):
// a select switched to multiple with one choice gets maxSelect 1, which the server would store as
// a single select; the editor answers maxSelect's error at the field's payload position.
import { describe, expect, it } from 'vitest';
import { setMultiple } from '../../src/lib/collections/fields';
import type { SchemaField } from '../../src/lib/collections/types';
import { multipleSwitchErrors } from '../../src/pages/collections/multiple-errors';

const select = (name: string, values: string[], extra: Partial<SchemaField> = {}): SchemaField =>
  ({ id: '', name, type: 'select', system: false, required: false, presentable: false, options: { values, maxSelect: 1 }, ...extra }) as SchemaField;

describe('multipleSwitchErrors', () => {
  it('flags a select switched to multiple with one choice, at its payload index', () => {
    const removed = select('gone', ['a'], { toDelete: true });
    const one = setMultiple(select('one', ['a']), true);
    expect(one.options.maxSelect).toBe(1);
    const tree = multipleSwitchErrors([removed, one]);
    expect(tree).toEqual({ schema: { '0': { options: { maxSelect: expect.objectContaining({ code: 'validation_min_greater_equal_than_required' }) } } } });
  });

  it('passes two choices, a single select and a stored multiple never switched', () => {
    expect(multipleSwitchErrors([setMultiple(select('two', ['a', 'b']), true)])).toBeNull();
    expect(multipleSwitchErrors([setMultiple(select('single', ['a']), false)])).toBeNull();
    expect(multipleSwitchErrors([select('stored', ['a', 'b', 'c'], { options: { values: ['a', 'b', 'c'], maxSelect: 3 } })])).toBeNull();
  });
});
