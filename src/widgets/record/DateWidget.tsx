import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '../../lib/dom-ids';
import { parseApiDate, utcToWall, wallToUtc, zoneLabel } from '../../lib/date-display';
import { useDateZone } from '../../ui/date-zone';
import { t } from '../../ui/i18n';

/** Date picker constants: a picked day starts at 12:00; minutes move in steps of 5. */
const DEFAULT_TIME = '12:00:00';
const MINUTE_STEP = 5;

/** Splits the form's 'YYYY-MM-DD HH:mm:ss' into the two inputs' values. */
export function splitDate(value: unknown): { date: string; time: string } {
  if (typeof value !== 'string' || value.length < 10) return { date: '', time: '' };
  const v = value.replace('T', ' ');
  return { date: v.slice(0, 10), time: v.slice(11, 19) || DEFAULT_TIME };
}

/** Joins a day and a time into the 19 characters the form keeps ('' without a day). */
export function joinDate(date: string, time: string): string {
  if (!date) return '';
  const t = time ? (time.length === 5 ? `${time}:00` : time.slice(0, 8)) : DEFAULT_TIME;
  return `${date} ${t}`;
}

/**
 * A date and time kept in UTC (19 characters; a picked day starts at 12:00, 5-minute steps), shown
 * and typed in the admin's chosen zone (a time a daylight saving change skips or repeats: wallToUtc).
 */
export function RecordDateWidget({ id, htmlName, value, disabled, readonly, required, options, rawErrors, onChange, onBlur, onFocus }: WidgetProps) {
  const zone = useDateZone();
  const { date, time } = splitDate(utcToWall(value, zone));
  // the value the input held decides which of a repeated hour's two times is meant
  const send = (wall: string) => onChange(wall ? wallToUtc(wall, zone, value) : '');
  const day = (limit: unknown) => (typeof limit === 'string' && limit ? utcToWall(limit, zone).slice(0, 10) || undefined : undefined);
  const min = day(options.min);
  const max = day(options.max);
  const zoneName = zoneLabel(zone);
  const invalid = (rawErrors ?? []).some(Boolean) || undefined;
  return (
    <div className="record-date">
      <input
        type="date"
        id={id}
        name={htmlName || id}
        className="sf-input record-date-day"
        value={date}
        min={min}
        max={max}
        disabled={disabled}
        readOnly={readonly}
        required={required}
        aria-invalid={invalid}
        aria-describedby={ariaDescribedByIds(id)}
        onChange={(e) => send(joinDate(e.target.value, time))}
        onBlur={() => onBlur(id, value)}
        onFocus={() => onFocus(id, value)}
      />
      <input
        type="time"
        className="sf-input record-date-time"
        aria-label={t('recordWidget.time', { zone: zoneName })}
        step={MINUTE_STEP * 60}
        value={date ? time.slice(0, 5) : ''}
        disabled={disabled || !date}
        readOnly={readonly}
        aria-invalid={invalid}
        onChange={(e) => send(joinDate(date, e.target.value || DEFAULT_TIME))}
        onBlur={() => onBlur(id, value)}
      />
      <span className="record-date-zone txt-hint">{zoneLabel(zone, parseApiDate(value))}</span>
      {date && !readonly && !disabled && (
        <button type="button" className="btn btn-transparent btn-sm btn-circle" aria-label={t('recordWidget.clearDate')} title={t('form.clear')} onClick={() => onChange('')}>
          ×
        </button>
      )}
    </div>
  );
}
