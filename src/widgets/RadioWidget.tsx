import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '../lib/dom-ids';

/** A radio group over the schema's enum/oneOf options (labels from `ui:enumNames` or titles). */
export function RadioWidget({ id, htmlName, value, disabled, readonly, autofocus, options, label, onChange, onBlur, onFocus }: WidgetProps) {
  const enumOptions = options.enumOptions ?? [];
  return (
    <div className="sf-radios" role="radiogroup" aria-label={label} id={id}>
      {enumOptions.map((o, i) => {
        const optionId = `${id}-${i}`;
        return (
          <label key={String(o.value)} className="sf-radio" htmlFor={optionId}>
            <input
              type="radio"
              id={optionId}
              name={htmlName || id}
              value={String(i)}
              checked={o.value === value}
              disabled={disabled || readonly || options.enumDisabled?.includes(o.value)}
              autoFocus={autofocus && i === 0}
              aria-describedby={ariaDescribedByIds(id)}
              onChange={() => onChange(o.value)}
              onBlur={() => onBlur(id, value)}
              onFocus={() => onFocus(id, value)}
            />
            <span>{o.label}</span>
          </label>
        );
      })}
    </div>
  );
}
