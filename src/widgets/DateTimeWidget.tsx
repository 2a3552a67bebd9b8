import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '../lib/dom-ids';
import { parseApiDate, utcToWall, wallToUtc, zoneLabel, type DateZone } from '../lib/date-display';
import { useDateZone } from '../ui/date-zone';
import './collection-widgets.css';

/** PocketBase's UTC text 'YYYY-MM-DD HH:mm:ss(.SSS)Z' ⇄ the datetime-local input's value in `zone`. */
function toInputValue(value: unknown, zone: DateZone): string {
  return utcToWall(value, zone).replace(' ', 'T');
}

function fromInputValue(text: string, zone: DateZone, keep: unknown): string {
  const utc = text ? wallToUtc(text, zone, keep) : '';
  return utc ? `${utc}.000Z` : '';
}

/** A date and time kept in UTC (seconds precision), empty for none; shown in the admin's chosen zone. */
export function DateTimeWidget({ id, htmlName, value, disabled, readonly, required, rawErrors, onChange, onBlur, onFocus }: WidgetProps) {
  const zone = useDateZone();
  return (
    <span className="datetime-input">
      <input
        type="datetime-local"
        step={1}
        id={id}
        name={htmlName || id}
        className="sf-input"
        value={toInputValue(value, zone)}
        disabled={disabled}
        readOnly={readonly}
        required={required}
        aria-invalid={(rawErrors ?? []).some(Boolean) || undefined}
        aria-describedby={ariaDescribedByIds(id)}
        onChange={(e) => onChange(fromInputValue(e.target.value, zone, value))}
        onBlur={(e) => onBlur(id, fromInputValue(e.target.value, zone, value))}
        onFocus={(e) => onFocus(id, fromInputValue(e.target.value, zone, value))}
      />
      <span className="datetime-input-zone txt-hint txt-sm">{zoneLabel(zone, parseApiDate(value))}</span>
    </span>
  );
}
