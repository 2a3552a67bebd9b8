import { useId, useMemo, useState } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '../lib/dom-ids';
import { t } from '../ui/i18n';

interface Preset {
  value: string;
  label: string;
}

/** The message for a cron draft: blank while on, or not matching the schema's pattern. */
function cronProblem(text: string, pattern: RegExp | null): string {
  if (text.trim() === '') return t('form.required');
  return pattern && !pattern.test(text) ? t('form.cronInvalid') : '';
}

/**
 * A cron expression with an on/off switch (on when the saved value is non-empty, off
 * clears it), preset schedules (`ui:options.presets`) and free text checked as you type
 * against the schema's own `pattern`, so the widget and the server judge it the same way.
 * `ui:options.toggle` labels the switch, `ui:options.hint` is shown under the input while on.
 */
export function CronPickerWidget(props: WidgetProps) {
  const { id, htmlName, value, disabled, readonly, placeholder, schema, options, rawErrors, label, onChange, onBlur, onFocus } = props;
  const text = typeof value === 'string' ? value : '';
  const [on, setOn] = useState(text !== '');
  const [touched, setTouched] = useState(false);
  const switchId = useId();
  const presetsId = useId();
  const presets = (Array.isArray(options.presets) ? options.presets : []) as Preset[];
  const pattern = useMemo(() => (typeof schema.pattern === 'string' ? new RegExp(schema.pattern) : null), [schema.pattern]);
  const serverErrors = (rawErrors ?? []).filter(Boolean);
  const problem = on && (touched || text !== '') ? cronProblem(text, pattern) : '';
  const shownProblem = serverErrors.length ? '' : problem;

  const toggle = (next: boolean) => {
    setOn(next);
    setTouched(false);
    if (!next) onChange(undefined);
  };

  return (
    <div className="cron-picker">
      <label className="sf-toggle" htmlFor={switchId}>
        <input
          type="checkbox"
          role="switch"
          id={switchId}
          checked={on}
          disabled={disabled || readonly}
          aria-checked={on}
          onChange={(e) => toggle(e.target.checked)}
        />
        <span className="sf-toggle-track" aria-hidden="true" />
        <span className="sf-toggle-label">{typeof options.toggle === 'string' ? options.toggle : t('form.enabled')}</span>
      </label>
      {on && (
        <div className="cron-picker-fields">
          <label className="sf-label" htmlFor={id}>
            {label || t('form.cron')}
            <span className="sf-required" aria-hidden="true"> *</span>
          </label>
          <div className="cron-picker-row">
            <input
              id={id}
              name={htmlName || id}
              className="sf-input"
              value={text}
              required
              disabled={disabled}
              readOnly={readonly}
              placeholder={placeholder}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={Boolean(shownProblem || serverErrors.length) || undefined}
              aria-describedby={`${ariaDescribedByIds(id)} ${presetsId}-problem`}
              onChange={(e) => {
                setTouched(true);
                onChange(e.target.value === '' ? undefined : e.target.value);
              }}
              onBlur={(e) => {
                setTouched(true);
                onBlur(id, e.target.value);
              }}
              onFocus={(e) => onFocus(id, e.target.value)}
            />
            {presets.length > 0 && (
              <select
                id={presetsId}
                className="sf-input cron-picker-presets"
                aria-label={t('form.cronPresets')}
                value=""
                disabled={disabled || readonly}
                onChange={(e) => {
                  if (!e.target.value) return;
                  setTouched(true);
                  onChange(e.target.value);
                }}
              >
                <option value="">{t('form.presets')}</option>
                {presets.map((p) => (
                  <option key={p.value} value={p.value}>
                    {p.label} ({p.value})
                  </option>
                ))}
              </select>
            )}
          </div>
          <div id={`${presetsId}-problem`} className="sf-error" role="status">
            {shownProblem}
          </div>
          {typeof options.hint === 'string' && !shownProblem && <div className="sf-help">{options.hint}</div>}
        </div>
      )}
    </div>
  );
}
