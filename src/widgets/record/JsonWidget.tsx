import { lazy, Suspense } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { parseJsonText } from '../../lib/record-form';
import { ariaDescribedByIds } from '../../lib/dom-ids';
import { Tooltip } from '../../ui/Tooltip';
import { t } from '../../ui/i18n';

const JsonAce = lazy(() => import('./JsonAce'));

/** The JSON field: ace (lazy; a textarea stands in meanwhile) with a 'Valid JSON' / 'Invalid JSON' mark. */
export function RecordJsonWidget({ id, value, disabled, readonly, rawErrors, onChange, onBlur, onFocus }: WidgetProps) {
  const text = typeof value === 'string' ? value : '';
  const parsed = parseJsonText(text);
  const describedBy = ariaDescribedByIds(id);
  const fallback = (
    <textarea
      id={id}
      className="sf-input sf-textarea record-json-fallback"
      value={text}
      rows={3}
      disabled={disabled || readonly}
      aria-invalid={(rawErrors ?? []).some(Boolean) || undefined}
      aria-describedby={describedBy}
      onChange={(e) => onChange(e.target.value)}
    />
  );
  return (
    <div className={`record-json${parsed.ok ? '' : ' record-json--invalid'}`}>
      <Tooltip text={parsed.ok ? undefined : parsed.message} focusable danger>
        <span className={`record-json-status ${parsed.ok ? 'txt-success' : 'txt-danger'}`}>{parsed.ok ? t('recordWidget.validJson') : t('recordWidget.invalidJson')}</span>
      </Tooltip>
      <Suspense fallback={fallback}>
        <JsonAce
          id={id}
          value={text}
          disabled={disabled || readonly}
          describedBy={describedBy}
          onChange={(v) => onChange(v)}
          onBlur={() => onBlur(id, text)}
          onFocus={() => onFocus(id, text)}
        />
      </Suspense>
    </div>
  );
}
