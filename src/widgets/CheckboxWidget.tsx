import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '../lib/dom-ids';

/** A checkbox with its label beside it (rjsf hides the label above boolean fields). */
export function CheckboxWidget({ id, htmlName, value, disabled, readonly, autofocus, label, hideLabel, required, onChange, onBlur, onFocus }: WidgetProps) {
  return (
    <label className="sf-check" htmlFor={id}>
      <input
        type="checkbox"
        id={id}
        name={htmlName || id}
        checked={value === true}
        disabled={disabled || readonly}
        autoFocus={autofocus}
        aria-describedby={ariaDescribedByIds(id)}
        onChange={(e) => onChange(e.target.checked)}
        onBlur={(e) => onBlur(id, e.target.checked)}
        onFocus={(e) => onFocus(id, e.target.checked)}
      />
      {!hideLabel && (
        <span>
          {label}
          {required && <span className="sf-required" aria-hidden="true"> *</span>}
        </span>
      )}
    </label>
  );
}
