// The collection editor's tab markers, from the spec's wording: tabs show 'Has errors' when
// validation fails; the API Rules tab shows a warning icon when any rule is set (non-empty); the
// Options tab shows 'Has errors' when options have errors and manageRule (edited on the API Rules
// tab) has none.
import { describe, expect, it } from 'vitest';
import { newCollection } from '../../src/lib/collections/payload';
import { tabMarkers } from '../../src/pages/collections/tab-markers';

describe('collection editor tab markers', () => {
  it('warns on API Rules when any rule is set, including an empty-string (public) rule', () => {
    const c = newCollection('base');
    expect(tabMarkers(c, {}).rulesSet).toBe(false);
    expect(tabMarkers({ ...c, listRule: '   ' }, {}).rulesSet).toBe(false);
    expect(tabMarkers({ ...c, viewRule: 'id != ""' }, {}).rulesSet).toBe(true);
    const auth = newCollection('auth');
    expect(tabMarkers({ ...auth, options: { ...auth.options, manageRule: 'id = "x"' } }, {}).rulesSet).toBe(true);
  });

  it('marks Options only for option errors other than manageRule, which marks API Rules', () => {
    const auth = newCollection('auth');
    const optionError = { options: { minPasswordLength: { code: 'validation_min_less_equal_than_required', message: 'x' } } };
    expect(tabMarkers(auth, optionError).errors).toEqual({ fields: false, rules: false, options: true });
    const manageError = { options: { manageRule: { code: 'validation_invalid_rule', message: 'x' } } };
    expect(tabMarkers(auth, manageError).errors).toEqual({ fields: false, rules: true, options: false });
    expect(tabMarkers(auth, { listRule: { code: 'x', message: 'y' } }).errors.rules).toBe(true);
    expect(tabMarkers(newCollection('base'), optionError).errors.options).toBe(false);
    expect(tabMarkers(auth, { name: { code: 'x', message: 'y' } }).errors.fields).toBe(true);
  });
});
