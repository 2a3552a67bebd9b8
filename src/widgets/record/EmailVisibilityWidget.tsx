import type { WidgetProps } from '@rjsf/utils';

/** The auth email's "Public: On/Off" switch, drawn as a small button beside the email input. */
export function EmailVisibilityWidget({ id, value, disabled, readonly, onChange, onBlur }: WidgetProps) {
  const on = value === true;
  return (
    <button
      type="button"
      id={id}
      className={`btn btn-sm record-email-visibility${on ? ' is-on' : ''}`}
      aria-pressed={on}
      disabled={disabled || readonly}
      title="Make email public or private"
      onClick={() => onChange(!on)}
      onBlur={() => onBlur(id, on)}
    >
      Public: {on ? 'On' : 'Off'}
    </button>
  );
}
