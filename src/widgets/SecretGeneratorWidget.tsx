import { useState } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '../lib/dom-ids';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random [A-Za-z0-9] string from the browser's crypto (rejection sampling, no modulo bias). */
export function randomSecret(length = 50): string {
  const out: string[] = [];
  const buf = new Uint8Array(length * 2);
  while (out.length < length) {
    crypto.getRandomValues(buf);
    for (const b of buf) {
      if (b < 248 && out.length < length) out.push(ALPHABET[b % ALPHABET.length]);
    }
  }
  return out.join('');
}

/**
 * A secret that is never shown, only replaced: a toggle (labelled by the field's title, e.g.
 * 'Invalidate all previously issued tokens') that puts a new random value (`ui:options.length`,
 * default 50 characters) in place of the stored one; off again restores the value it had.
 */
export function SecretGeneratorWidget({ id, htmlName, value, disabled, readonly, label, options, onChange, onBlur, onFocus }: WidgetProps) {
  const [original] = useState<unknown>(value);
  const on = value !== original && typeof value === 'string' && value !== '';
  const length = Number(options.length) || 50;
  return (
    <label className="sf-toggle sf-toggle--small" htmlFor={id}>
      <input
        type="checkbox"
        role="switch"
        id={id}
        name={htmlName || id}
        checked={on}
        disabled={disabled || readonly}
        aria-checked={on}
        aria-describedby={ariaDescribedByIds(id)}
        onChange={(e) => onChange(e.target.checked ? randomSecret(length) : original)}
        onBlur={() => onBlur(id, value)}
        onFocus={() => onFocus(id, value)}
      />
      <span className="sf-toggle-track" aria-hidden="true" />
      <span className="sf-toggle-label">{label}</span>
    </label>
  );
}
