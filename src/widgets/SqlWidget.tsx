import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '../lib/dom-ids';
import { LazyCodeEditor } from './CodeEditorLoader';
import './collection-widgets.css';

/** An SQL editor (ace, loaded on demand) for a view collection's query. */
export function SqlWidget({ id, value, disabled, readonly, rawErrors, placeholder, label, onChange, onBlur, onFocus }: WidgetProps) {
  return (
    <LazyCodeEditor
      id={id}
      label={label}
      mode="sql"
      value={typeof value === 'string' ? value : ''}
      placeholder={placeholder}
      disabled={disabled || readonly}
      invalid={(rawErrors ?? []).some(Boolean)}
      describedBy={ariaDescribedByIds(id)}
      onChange={(v) => onChange(v === '' ? undefined : v)}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    />
  );
}
