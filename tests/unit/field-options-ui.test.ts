// src/fields/options-ui.ts: a field type's options UI schema (`ui:record`) places stored options on
// the record input's UI schema; unset options and unknown targets change nothing.
import { describe, expect, it } from 'vitest';
import { isRecordUiTarget, optionsToUi } from '../../src/fields/options-ui';

const field = (options: Record<string, unknown>) => ({ name: 'title', type: 'text', required: false, options });
const base = { 'ui:widget': 'recordText', 'ui:options': { fieldType: 'text', rows: 1 } };

describe('ui:record', () => {
  it('puts an option on a ui: key or into ui:options, keeping what the type set', () => {
    const ui = optionsToUi(base, field({ placeholder: 'Say it', rows: 3, hint: 'Short' }), {
      'ui:record': { placeholder: 'ui:placeholder', rows: 'ui:options.rows', hint: 'ui:help' },
    });
    expect(ui).toEqual({ 'ui:widget': 'recordText', 'ui:placeholder': 'Say it', 'ui:help': 'Short', 'ui:options': { fieldType: 'text', rows: 3 } });
    expect(base['ui:options'].rows).toBe(1); // the input is not changed in place
  });

  it('leaves the input as it was for unset options, unknown targets and no map', () => {
    const map = { 'ui:record': { placeholder: 'ui:placeholder', hint: 'ui:help', tags: 'ui:options.tags', evil: 'ui:widget' } };
    expect(optionsToUi(base, field({ placeholder: '', hint: null, tags: [], evil: 'password' }), map)).toEqual(base);
    expect(optionsToUi(base, field({ placeholder: 'x' }), undefined)).toEqual(base);
    expect(optionsToUi(base, field({ placeholder: 'x' }), { 'ui:record': ['placeholder'] })).toEqual(base);
  });

  it('knows its targets', () => {
    for (const t of ['ui:placeholder', 'ui:help', 'ui:title', 'ui:description', 'ui:options.maxSize']) expect(isRecordUiTarget(t), t).toBe(true);
    for (const t of ['ui:widget', 'ui:options', 'ui:options.', 'placeholder', 5]) expect(isRecordUiTarget(t), String(t)).toBe(false);
  });
});
