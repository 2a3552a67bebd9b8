import type { ChangeEvent, FocusEvent } from 'react';
import type { BaseInputTemplateProps } from '@rjsf/utils';
import { ariaDescribedByIds, getInputProps } from '../../lib/dom-ids';

/**
 * The `<input>` behind rjsf's text, email, password, url and number widgets. Empty input becomes
 * `options.emptyValue` (undefined by default) so "required" reads an empty field as missing.
 */
export function BaseInputTemplate(props: BaseInputTemplateProps) {
  const {
    id, htmlName, value, readonly, disabled, autofocus, placeholder, required, onBlur, onFocus, onChange,
    onChangeOverride, options, schema, type, rawErrors,
  } = props;
  const inputProps = getInputProps(schema, type, options);
  const isNumber = inputProps.type === 'number' || inputProps.type === 'integer';
  const inputValue = isNumber ? (value || value === 0 ? value : '') : (value ?? '');
  const invalid = (rawErrors ?? []).some(Boolean);

  const handleChange = ({ target }: ChangeEvent<HTMLInputElement>) => {
    if (target.value === '') return onChange(options.emptyValue);
    onChange(isNumber && !Number.isNaN(target.valueAsNumber) ? target.valueAsNumber : target.value);
  };

  return (
    <input
      id={id}
      name={htmlName || id}
      className="sf-input"
      readOnly={readonly}
      disabled={disabled}
      autoFocus={autofocus}
      placeholder={placeholder}
      required={required}
      autoComplete={options.autocomplete as string | undefined}
      spellCheck={inputProps.type === 'text' ? undefined : false}
      {...inputProps}
      value={inputValue}
      aria-invalid={invalid || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={onChangeOverride || handleChange}
      onBlur={(e: FocusEvent<HTMLInputElement>) => onBlur(id, e.target.value)}
      onFocus={(e: FocusEvent<HTMLInputElement>) => onFocus(id, e.target.value)}
    />
  );
}
