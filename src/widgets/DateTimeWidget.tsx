import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '../lib/dom-ids';

/** 'YYYY-MM-DD HH:mm:ss(.SSS)Z' (PocketBase's UTC text) ⇄ the datetime-local input's value. */
function toInputValue(value: unknown): string {
  if (typeof value !== 'string' || value === '') return '';
  return value.replace(' ', 'T').replace(/(\.\d+)?Z$/, '').slice(0, 19);
}

function fromInputValue(text: string): string {
  if (!text) return '';
  const withSeconds = text.length === 16 ? `${text}:00` : text.slice(0, 19);
  return `${withSeconds.replace('T', ' ')}.000Z`;
}

/** A UTC date and time (seconds precision), empty for none. */
export function DateTimeWidget({ id, htmlName, value, disabled, readonly, required, rawErrors, onChange, onBlur, onFocus }: WidgetProps) {
  return (
    <input
      type="datetime-local"
      step={1}
      id={id}
      name={htmlName || id}
      className="sf-input"
      value={toInputValue(value)}
      disabled={disabled}
      readOnly={readonly}
      required={required}
      aria-invalid={(rawErrors ?? []).some(Boolean) || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(e) => onChange(fromInputValue(e.target.value))}
      onBlur={(e) => onBlur(id, fromInputValue(e.target.value))}
      onFocus={(e) => onFocus(id, fromInputValue(e.target.value))}
    />
  );
}
