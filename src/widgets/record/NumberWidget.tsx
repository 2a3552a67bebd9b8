import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '../../lib/dom-ids';

/** A number with the field's min/max and any step; empty is undefined (sent as null → 0). */
export function RecordNumberWidget({ id, htmlName, value, disabled, readonly, autofocus, placeholder, required, options, rawErrors, onChange, onBlur, onFocus }: WidgetProps) {
  const shown = typeof value === 'number' && Number.isFinite(value) ? value : '';
  const read = (el: HTMLInputElement) => (el.value === '' || Number.isNaN(el.valueAsNumber) ? undefined : el.valueAsNumber);
  return (
    <input
      type="number"
      step="any"
      id={id}
      name={htmlName || id}
      className="sf-input"
      min={typeof options.min === 'number' ? options.min : undefined}
      max={typeof options.max === 'number' ? options.max : undefined}
      value={shown}
      disabled={disabled}
      readOnly={readonly}
      autoFocus={autofocus}
      placeholder={placeholder}
      required={required}
      aria-invalid={(rawErrors ?? []).some(Boolean) || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(e) => onChange(read(e.target))}
      onBlur={(e) => onBlur(id, read(e.target))}
      onFocus={(e) => onFocus(id, read(e.target))}
    />
  );
}
