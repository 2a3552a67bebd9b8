import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '../lib/dom-ids';
import { t } from '../ui/i18n';

/** A native select over the schema's enum/oneOf options (option values are their indexes). */
export function SelectWidget({ id, htmlName, value, disabled, readonly, autofocus, placeholder, required, options, schema, rawErrors, onChange, onBlur, onFocus }: WidgetProps) {
  const enumOptions = options.enumOptions ?? [];
  const index = enumOptions.findIndex((o) => o.value === value);
  const decode = (raw: string) => (raw === '' ? options.emptyValue : enumOptions[Number(raw)]?.value);
  return (
    <select
      id={id}
      name={htmlName || id}
      className="sf-input sf-select"
      value={index >= 0 ? String(index) : ''}
      disabled={disabled || readonly}
      autoFocus={autofocus}
      required={required}
      aria-invalid={(rawErrors ?? []).some(Boolean) || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(e) => onChange(decode(e.target.value))}
      onBlur={(e) => onBlur(id, decode(e.target.value))}
      onFocus={(e) => onFocus(id, decode(e.target.value))}
    >
      {(schema.default === undefined || index < 0) && <option value="">{placeholder || t('form.select')}</option>}
      {enumOptions.map((o, i) => (
        <option key={String(o.value)} value={String(i)} disabled={options.enumDisabled?.includes(o.value)}>
          {o.label}
        </option>
      ))}
    </select>
  );
}
