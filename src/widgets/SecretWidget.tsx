import { useRef, useState } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '../lib/dom-ids';
import { REDACTED_MASK } from '../lib/redacted';
import { t } from '../ui/i18n';

/**
 * A secret the server only shows masked. While the value is the mask the input is locked and a
 * "Set new value" button clears it for typing; otherwise it is a plain password input.
 */
export function SecretWidget({ id, htmlName, value, disabled, readonly, placeholder, required, options, rawErrors, onChange, onBlur, onFocus }: WidgetProps) {
  const input = useRef<HTMLInputElement>(null);
  const [editing, setEditing] = useState(false);
  const masked = value === REDACTED_MASK && !editing;
  const unlock = () => {
    setEditing(true);
    onChange(options.emptyValue);
    queueMicrotask(() => input.current?.focus());
  };
  return (
    <div className="sf-secret">
      <input
        ref={input}
        id={id}
        name={htmlName || id}
        type="password"
        className="sf-input"
        autoComplete="new-password"
        value={masked ? '' : (value ?? '')}
        placeholder={masked ? REDACTED_MASK : placeholder}
        disabled={disabled || masked}
        readOnly={readonly}
        required={required && !masked}
        aria-invalid={(rawErrors ?? []).some(Boolean) || undefined}
        aria-describedby={ariaDescribedByIds(id)}
        onChange={(e) => onChange(e.target.value === '' ? options.emptyValue : e.target.value)}
        onBlur={(e) => onBlur(id, e.target.value)}
        onFocus={(e) => onFocus(id, e.target.value)}
      />
      {masked && !disabled && !readonly && (
        <button type="button" className="sf-secret-set" onClick={unlock}>
          {t('form.setNewValue')}
        </button>
      )}
    </div>
  );
}
