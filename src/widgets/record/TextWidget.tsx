import { useLayoutEffect, useRef } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '../../lib/dom-ids';

/** Plain text: a textarea that grows with its content (CSS caps it at 200 px). */
export function RecordTextWidget({ id, htmlName, value, disabled, readonly, autofocus, placeholder, required, rawErrors, onChange, onBlur, onFocus }: WidgetProps) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight + 2}px`;
  }, [value]);
  return (
    <textarea
      ref={ref}
      id={id}
      name={htmlName || id}
      className="sf-input sf-textarea record-text"
      rows={1}
      value={typeof value === 'string' ? value : ''}
      disabled={disabled}
      readOnly={readonly}
      autoFocus={autofocus}
      placeholder={placeholder}
      required={required}
      aria-invalid={(rawErrors ?? []).some(Boolean) || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(e) => onChange(e.target.value)}
      onBlur={(e) => onBlur(id, e.target.value)}
      onFocus={(e) => onFocus(id, e.target.value)}
    />
  );
}
