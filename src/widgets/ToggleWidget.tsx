import { useState } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '../lib/dom-ids';

/**
 * An on/off switch with its label beside it. The hint (`ui:help`) is drawn under it by the
 * FieldTemplate; `ui:options.badge` adds a small label such as "recommended";
 * `ui:options.changeWarning` shows a warning while the value differs from the one it started with
 * (e.g. switching the files storage means migrating the files by hand).
 */
export function ToggleWidget({ id, htmlName, value, disabled, readonly, autofocus, label, options, onChange, onBlur, onFocus }: WidgetProps) {
  const [initial] = useState(value === true);
  const warning = typeof options.changeWarning === 'string' && (value === true) !== initial ? options.changeWarning : '';
  return (
    <>
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
      {warning && (
        <div className="alert alert-warning sf-change-warning" role="alert">
          {warning}
        </div>
      )}
    </>
  );
}
