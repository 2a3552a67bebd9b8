// A date from the API shown in the admin's chosen zone (src/ui/date-zone.ts), the instant in both
// zones on hover; and the zone's name for a column header.
import { dateTooltip, formatInstant, parseApiDate, zoneLabel } from '../lib/date-display';
import { useDateZone } from './date-zone';

/**
 * 'yyyy-MM-dd HH:mm:ss' in the chosen zone; `withZone` adds the zone's name where no header says
 * it. Empty for no value, the text itself when it is no date.
 */
export function FormattedDate({ value, withZone = false, ms = false, className }: { value: unknown; withZone?: boolean; ms?: boolean; className?: string }) {
  const zone = useDateZone();
  const d = parseApiDate(value);
  if (!d) return <>{typeof value === 'string' ? value : ''}</>;
  return (
    <span className={className} title={dateTooltip(value, zone)}>
      {formatInstant(d, zone, { ms })}
      {withZone && <span className="date-zone txt-hint txt-sm"> {zoneLabel(zone, d)}</span>}
    </span>
  );
}

/** The chosen zone's name ('UTC', 'Europe/Berlin') for a header over dates. */
export function DateZoneLabel({ className = '' }: { className?: string }) {
  const zone = useDateZone();
  return <span className={`date-zone txt-hint txt-sm ${className}`.trim()}>{zoneLabel(zone)}</span>;
}
