import { useRef, useState } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import type { FormContext } from './form-context';
import { CopyButton } from '../ui/CopyButton';
import { ariaDescribedByIds } from '../lib/dom-ids';
import { randomSecret } from './SecretGeneratorWidget';
import { t } from '../ui/i18n';

/** Generated passwords are never shorter than this, whatever the options say. */
const PASSWORD_GENERATOR_MIN = 15;
const PASSWORD_GENERATOR_DEFAULT = 32;

/**
 * A password input with a 'Generate password' button: a random password of `ui:options.length`
 * characters (at least 15, 32 by default) goes into this field and into the field named by
 * `ui:options.confirm`, shown in clear with a copy button so the admin can hand it on.
 */
export function PasswordGeneratorWidget(props: WidgetProps) {
  const { id, htmlName, value, disabled, readonly, placeholder, required, options, rawErrors, registry, onChange, onBlur, onFocus } = props;
  const [shown, setShown] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const length = Math.max(PASSWORD_GENERATOR_MIN, Number(options.length) || PASSWORD_GENERATOR_DEFAULT);
  const confirm = typeof options.confirm === 'string' ? options.confirm : '';
  const patch = (registry?.formContext as FormContext | undefined)?.patch;

  const generate = () => {
    const next = randomSecret(length);
    const fieldName = props.name;
    if (patch && confirm) patch({ [fieldName]: next, [confirm]: next });
    else onChange(next);
    setShown(true);
    input.current?.focus();
  };

  const text = typeof value === 'string' ? value : '';
  return (
    <div className="sf-password-gen">
      <input
        ref={input}
        id={id}
        name={htmlName || id}
        type={shown ? 'text' : 'password'}
        className="sf-input"
        autoComplete="new-password"
        value={text}
        placeholder={placeholder}
        disabled={disabled}
        readOnly={readonly}
        required={required}
        aria-invalid={(rawErrors ?? []).some(Boolean) || undefined}
        aria-describedby={ariaDescribedByIds(id)}
        onChange={(e) => {
          setShown(false);
          onChange(e.target.value === '' ? options.emptyValue : e.target.value);
        }}
        onBlur={(e) => onBlur(id, e.target.value)}
        onFocus={(e) => onFocus(id, e.target.value)}
      />
      <span className="sf-password-gen-tools">
        {shown && text && <CopyButton value={text} label={t('form.copyPassword')} />}
        {!disabled && !readonly && (
          <button type="button" className="sf-secret-set" onClick={generate}>
            {t('form.generate')}
          </button>
        )}
      </span>
    </div>
  );
}
