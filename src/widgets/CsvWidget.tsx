import { useState } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '../lib/dom-ids';

/** Splits "a, b ,c" into trimmed, non-empty items. */
function splitList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * A comma-separated list in one input (domains, thumb sizes). Holds an array when the schema is
 * an array, otherwise the normalised "a, b" string. The raw text is kept while typing so a
 * trailing comma is not eaten.
 */
export function CsvWidget({ id, htmlName, value, disabled, readonly, placeholder, required, schema, options, rawErrors, onChange, onBlur, onFocus }: WidgetProps) {
  const asArray = schema.type === 'array';
  const joined = Array.isArray(value) ? value.join(', ') : typeof value === 'string' ? value : '';
  const [draft, setDraft] = useState<string | null>(null);
  const shown = draft !== null && splitList(draft).join(', ') === splitList(joined).join(', ') ? draft : joined;
  const emit = (text: string) => {
    const items = splitList(text);
    if (asArray) onChange(items);
    else onChange(items.length ? items.join(', ') : options.emptyValue);
  };
  return (
    <input
      id={id}
      name={htmlName || id}
      className="sf-input"
      value={shown}
      disabled={disabled}
      readOnly={readonly}
      placeholder={placeholder}
      required={required}
      aria-invalid={(rawErrors ?? []).some(Boolean) || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(e) => {
        setDraft(e.target.value);
        emit(e.target.value);
      }}
      onBlur={(e) => {
        setDraft(null);
        onBlur(id, e.target.value);
      }}
      onFocus={(e) => onFocus(id, e.target.value)}
    />
  );
}
