// Date macros of the filter language, evaluated in UTC when the filter is compiled (0.22's
// identifier_macros). Date values use PocketBase's `2006-01-02 15:04:05.000Z` layout.

/** Formats a date the way PocketBase stores and prints timestamps. */
export function formatPbDate(d: Date): string {
  return d.toISOString().replace('T', ' ');
}

const utc = (y: number, m: number, day: number, h = 0, min = 0, s = 0, ms = 0) =>
  new Date(Date.UTC(y, m, day, h, min, s, ms));

export function macroValue(name: string, now: Date): string | number | undefined {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  switch (name) {
    case '@now':
      return formatPbDate(now);
    case '@second':
      return now.getUTCSeconds();
    case '@minute':
      return now.getUTCMinutes();
    case '@hour':
      return now.getUTCHours();
    case '@day':
      return d;
    case '@month':
      return m + 1;
    case '@weekday':
      return now.getUTCDay();
    case '@year':
      return y;
    case '@todayStart':
      return formatPbDate(utc(y, m, d));
    case '@todayEnd':
      return formatPbDate(utc(y, m, d, 23, 59, 59, 999));
    case '@monthStart':
      return formatPbDate(utc(y, m, 1));
    case '@monthEnd':
      // day 0 of the next month is the last day of this one
      return formatPbDate(utc(y, m + 1, 0, 23, 59, 59, 999));
    case '@yearStart':
      return formatPbDate(utc(y, 0, 1));
    case '@yearEnd':
      return formatPbDate(utc(y, 11, 31, 23, 59, 59, 999));
    default:
      return undefined;
  }
}
