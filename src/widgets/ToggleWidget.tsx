import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from './dom-ids';

/**
 * An on/off switch with its label beside it. The hint (`ui:help`) is drawn under it by the
 * FieldTemplate; `ui:options.badge` adds a small label such as "recommended".
 */
export function ToggleWidget({ id, htmlName, value, disabled, readonly, autofocus, label, options, onChange, onBlur, onFocus }: WidgetProps) {
  return (
    <label className="sf-toggle" htmlFor={id}>
      <input
        type="checkbox"
        role="switch"
        id={id}
        name={htmlName || id}
        checked={value === true}
        disabled={disabled || readonly}
        autoFocus={autofocus}
        aria-checked={value === true}
        aria-describedby={ariaDescribedByIds(id)}
        onChange={(e) => onChange(e.target.checked)}
        onBlur={(e) => onBlur(id, e.target.checked)}
        onFocus={(e) => onFocus(id, e.target.checked)}
      />
      <span className="sf-toggle-track" aria-hidden="true" />
      <span className="sf-toggle-label">{label}</span>
      {typeof options.badge === 'string' && <span className="sf-badge">{options.badge}</span>}
    </label>
  );
}
