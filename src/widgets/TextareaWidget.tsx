import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '../lib/dom-ids';

/** Multi-line text; `ui:options.rows` sets the starting height (CSS caps it at 200 px). */
export function TextareaWidget({ id, htmlName, value, disabled, readonly, autofocus, placeholder, required, options, rawErrors, onChange, onBlur, onFocus }: WidgetProps) {
  return (
    <textarea
      id={id}
      name={htmlName || id}
      className="sf-input sf-textarea"
      value={value ?? ''}
      rows={Number(options.rows) || 3}
      disabled={disabled}
      readOnly={readonly}
      autoFocus={autofocus}
      placeholder={placeholder}
      required={required}
      aria-invalid={(rawErrors ?? []).some(Boolean) || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(e) => onChange(e.target.value === '' ? options.emptyValue : e.target.value)}
      onBlur={(e) => onBlur(id, e.target.value)}
      onFocus={(e) => onFocus(id, e.target.value)}
    />
  );
}
