import { copyText } from '../lib/browser-io';
import { t } from './i18n';

/** The toast after a copy: 'Copied {value} to clipboard', shown for 2 s. */
export const COPIED_MESSAGE = (value: string) => t('common.copiedValue', { value });
export const COPIED_TOAST_MS = 2000;

/**
 * The placeholders a template field understands ({APP_NAME}, {APP_URL}, {TOKEN}, {ACTION_URL}),
 * as chips that copy themselves on click; `onCopied` tells the user (the caller owns the toasts).
 * Any field shows them with `ui:options.placeholders`.
 */
export function PlaceholderChips({ values, onCopied }: { values: readonly string[]; onCopied(value: string): void }) {
  if (!values.length) return null;
  const copy = async (value: string) => {
    if (await copyText(value)) onCopied(value);
  };
  return (
    <div className="sf-placeholders">
      <span className="sf-placeholders-label">{t('form.placeholders')}</span>
      {values.map((v) => (
        <button key={v} type="button" className="sf-chip" title={t('common.copy')} onClick={() => void copy(v)}>
          {v}
        </button>
      ))}
    </div>
  );
}
