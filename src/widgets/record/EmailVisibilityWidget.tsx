import type { WidgetProps } from '@rjsf/utils';
import { t } from '../../ui/i18n';

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
      title={t('recordWidget.emailVisibility')}
      onClick={() => onChange(!on)}
      onBlur={() => onBlur(id, on)}
    >
      {on ? t('recordWidget.emailPublicOn') : t('recordWidget.emailPublicOff')}
    </button>
  );
}
