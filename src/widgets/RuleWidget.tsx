import { useState } from 'react';
import { useSnapshot } from 'valtio';
import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '../lib/dom-ids';
import { LazyCodeEditor } from './CodeEditorLoader';
import './collection-widgets.css';
import { collectionsState } from '../state/collections';
import { ruleAutocompleteKeys } from '../lib/collections/rules';
import type { CollectionModel } from '../lib/collections/types';
import type { FormContext } from './form-context';
import { t } from '../ui/i18n';

/**
 * A collection API rule: null is "admins only" (locked), a text is a filter
 * (empty = everyone). 'Set Admins only' locks and remembers the text; unlocking restores it (or '').
 * The text is kept in the form context's `ruleMemory` when the page gives one (the collection
 * editor does, so it survives tab switches), else in the widget.
 * The editor (ace, loaded on demand) autocompletes the fields of the collection being edited,
 * relation paths up to 4 levels, @request.* and @collection.*.
 */
export function RuleWidget({ id, value, disabled, readonly, rawErrors, placeholder, label, registry, onChange, onBlur, onFocus }: WidgetProps) {
  const [own, setOwn] = useState('');
  const memory = (registry?.formContext as FormContext | undefined)?.ruleMemory;
  const remembered = memory ? (memory.get(id) ?? '') : own;
  const remember = (text: string) => (memory ? memory.set(id, text) : setOwn(text));
  const snap = useSnapshot(collectionsState);
  const locked = value === null || value === undefined;
  const invalid = (rawErrors ?? []).some(Boolean);
  const off = disabled || readonly;

  const completions = () =>
    ruleAutocompleteKeys(
      (collectionsState.draft ?? undefined) as CollectionModel | undefined,
      collectionsState.collections as CollectionModel[],
    );
  void snap; // re-render when collections change (completions read the live store)

  if (locked) {
    return (
      <div className={`rule-locked${invalid ? ' rule-locked--invalid' : ''}`} id={id} tabIndex={-1} aria-describedby={ariaDescribedByIds(id)}>
        <span className="rule-locked-text">{t('rule.adminsOnly')}</span>
        <button
          type="button"
          className="btn btn-sm btn-secondary"
          disabled={off}
          onClick={() => {
            onChange(remembered);
          }}
        >
          {t('rule.unlock')}
        </button>
      </div>
    );
  }

  return (
    <div className="rule-editor">
      <LazyCodeEditor
        id={id}
        label={label}
        mode="rule"
        value={typeof value === 'string' ? value : ''}
        placeholder={placeholder || t('rule.placeholder')}
        disabled={off}
        invalid={invalid}
        describedBy={ariaDescribedByIds(id)}
        completions={completions}
        onChange={(v) => onChange(v)}
        onBlur={() => onBlur(id, value)}
        onFocus={() => onFocus(id, value)}
      />
      <button
        type="button"
        className="btn btn-sm btn-transparent rule-lock"
        disabled={off}
        onClick={() => {
          remember(typeof value === 'string' ? value : '');
          onChange(null);
        }}
      >
        {t('rule.setAdminsOnly')}
      </button>
    </div>
  );
}
