// Dates shown in UTC or the browser's zone (src/lib/date-display.ts), with the local zone set to
// Europe/Berlin through TZ (Node applies a TZ assigned at run time; vitest runs each file in its own
// process): its 2026 daylight saving changes, 2026-03-29 02:00 CET → 03:00 CEST (01:00 UTC) and
// 2026-10-25 03:00 CEST → 02:00 CET (01:00 UTC).
process.env.TZ = 'Europe/Berlin';

import { describe, expect, it } from 'vitest';
import { dateTooltip, formatApiDate, formatInstant, parseApiDate, setDateLanguage, utcToWall, wallToUtc, zoneLabel } from '../../src/lib/date-display';
import { chartOptions, tooltipDate } from '../../src/pages/logs/chart-options';

const MINUTE = 60_000;

describe('the local zone of this file', () => {
  it('is Europe/Berlin', () => {
    expect(new Date(Date.UTC(2026, 0, 15)).getTimezoneOffset()).toBe(-60);
    expect(new Date(Date.UTC(2026, 6, 15)).getTimezoneOffset()).toBe(-120);
  });
});

describe('showing a date', () => {
  it('parses the API text as UTC', () => {
    expect(parseApiDate('2024-03-05 07:08:09.123Z')?.toISOString()).toBe('2024-03-05T07:08:09.123Z');
    expect(parseApiDate('2024-03-05 07:08:09')?.toISOString()).toBe('2024-03-05T07:08:09.000Z');
    expect(parseApiDate('2024-03-05T07:08:09.123Z')?.toISOString()).toBe('2024-03-05T07:08:09.123Z');
    expect(parseApiDate('')).toBeNull();
    expect(parseApiDate('nope')).toBeNull();
    expect(parseApiDate(42)).toBeNull();
  });

  it("formats 'yyyy-MM-dd HH:mm:ss' (24-hour) in UTC or local time, .SSS on request", () => {
    expect(formatApiDate('2024-03-05 17:08:09.123Z', 'utc')).toBe('2024-03-05 17:08:09');
    expect(formatApiDate('2024-03-05 17:08:09.123Z', 'utc', { ms: true })).toBe('2024-03-05 17:08:09.123');
    expect(formatApiDate('2024-03-05 17:08:09.123Z', 'local')).toBe('2024-03-05 18:08:09');
    expect(formatApiDate('2024-07-05 23:08:09.123Z', 'local', { ms: true })).toBe('2024-07-06 01:08:09.123');
    expect(formatApiDate('garbage', 'local')).toBe('garbage');
    expect(formatApiDate(null, 'utc')).toBe('');
  });

  it('names the zone, with the offset of the instant where it is given', () => {
    expect(zoneLabel('utc')).toBe('UTC');
    expect(zoneLabel('local')).toBe('Europe/Berlin');
    expect(zoneLabel('local', new Date('2026-01-15T12:00:00Z'))).toBe('Europe/Berlin, UTC+1');
    expect(zoneLabel('local', new Date('2026-07-15T12:00:00Z'))).toBe('Europe/Berlin, UTC+2');
  });

  it('the tooltip gives both zones with milliseconds, the one not shown first', () => {
    const v = '2024-03-05 17:08:09.123Z';
    expect(dateTooltip(v, 'utc')).toBe('2024-03-05 18:08:09.123 Europe/Berlin, UTC+1\n2024-03-05 17:08:09.123 UTC');
    expect(dateTooltip(v, 'local')).toBe('2024-03-05 17:08:09.123 UTC\n2024-03-05 18:08:09.123 Europe/Berlin, UTC+1');
    expect(dateTooltip('', 'utc')).toBe('');
  });

  it('the logs chart labels its hours in the chosen zone', () => {
    const points = [{ x: Date.UTC(2026, 9, 25, 0), y: 1 }, { x: Date.UTC(2026, 9, 25, 1), y: 2 }];
    expect(chartOptions(points, 'utc').xaxis?.labels?.datetimeUTC).toBe(true);
    expect(chartOptions(points, 'local').xaxis?.labels?.datetimeUTC).toBe(false);
    // the night the clocks go back: two different hours read 02:00, told apart by their offset
    expect(tooltipDate(points[0].x, 'local')).toBe('2026-10-25 02:00 Europe/Berlin, UTC+2');
    expect(tooltipDate(points[1].x, 'local')).toBe('2026-10-25 02:00 Europe/Berlin, UTC+1');
    expect(tooltipDate(points[1].x, 'utc')).toBe('2026-10-25 01:00 UTC');
  });
});

describe('a date input in local time (the form keeps UTC)', () => {
  it('UTC: what is typed is what is kept', () => {
    expect(utcToWall('2026-03-29 02:30:00', 'utc')).toBe('2026-03-29 02:30:00');
    expect(utcToWall('2026-03-29 02:30:00.000Z', 'utc')).toBe('2026-03-29 02:30:00');
    expect(wallToUtc('2026-03-29 02:30', 'utc')).toBe('2026-03-29 02:30:00');
    expect(wallToUtc('2026-03-29T02:30:15', 'utc')).toBe('2026-03-29 02:30:15');
    expect(wallToUtc('0050-06-01 10:00', 'utc')).toBe('0050-06-01 10:00:00'); // not 1950
    expect(wallToUtc('', 'local')).toBe('');
    expect(utcToWall('', 'local')).toBe('');
  });

  it('shows the local wall time and converts it back (winter and summer)', () => {
    expect(utcToWall('2026-01-15 11:00:00', 'local')).toBe('2026-01-15 12:00:00');
    expect(wallToUtc('2026-01-15 12:00:00', 'local')).toBe('2026-01-15 11:00:00');
    expect(utcToWall('2026-07-15 22:30:00.000Z', 'local')).toBe('2026-07-16 00:30:00');
    expect(wallToUtc('2026-07-16 00:30', 'local')).toBe('2026-07-15 22:30:00');
  });

  it('2026-03-29: a time the clocks skip is moved forward by the gap', () => {
    expect(utcToWall('2026-03-29 00:59:59', 'local')).toBe('2026-03-29 01:59:59');
    expect(utcToWall('2026-03-29 01:00:00', 'local')).toBe('2026-03-29 03:00:00');
    // 02:30 does not exist in Berlin that night: read with the winter offset, it is 01:30 UTC,
    // which the input then shows as 03:30
    expect(wallToUtc('2026-03-29 02:30', 'local')).toBe('2026-03-29 01:30:00');
    expect(utcToWall(wallToUtc('2026-03-29 02:30', 'local'), 'local')).toBe('2026-03-29 03:30:00');
    expect(wallToUtc('2026-03-29 02:00', 'local')).toBe('2026-03-29 01:00:00');
    expect(wallToUtc('2026-03-29 03:30', 'local')).toBe('2026-03-29 01:30:00');
    expect(wallToUtc('2026-03-29 01:59:59', 'local')).toBe('2026-03-29 00:59:59');
  });

  it('2026-10-25: a time that happens twice is the earlier one, unless the value held is the later', () => {
    expect(utcToWall('2026-10-25 00:30:00', 'local')).toBe('2026-10-25 02:30:00'); // CEST
    expect(utcToWall('2026-10-25 01:30:00', 'local')).toBe('2026-10-25 02:30:00'); // CET, an hour later
    expect(wallToUtc('2026-10-25 02:30', 'local')).toBe('2026-10-25 00:30:00');
    expect(wallToUtc('2026-10-25 02:30', 'local', '2026-10-25 00:15:00')).toBe('2026-10-25 00:30:00');
    // the input held the second 02:15 (CET): changing its minutes keeps it in the second hour
    expect(wallToUtc('2026-10-25 02:45', 'local', '2026-10-25 01:15:00.000Z')).toBe('2026-10-25 01:45:00');
    // a value held on another day says nothing about that night's hours: the earlier
    expect(wallToUtc('2026-10-25 02:45', 'local', '2026-10-20 10:00:00')).toBe('2026-10-25 00:45:00');
    expect(wallToUtc('2026-10-25 03:00', 'local')).toBe('2026-10-25 02:00:00');
    expect(wallToUtc('2026-10-25 01:59', 'local')).toBe('2026-10-24 23:59:00');
  });

  it('every minute of both nights survives showing and reading back unchanged', () => {
    for (const start of [Date.UTC(2026, 2, 28, 20), Date.UTC(2026, 9, 24, 20)]) {
      for (let t = start; t < start + 10 * 60 * MINUTE; t += MINUTE) {
        const utc = new Date(t).toISOString().replace('T', ' ').slice(0, 19);
        expect(wallToUtc(utcToWall(utc, 'local'), 'local', utc)).toBe(utc);
      }
    }
  });
});

describe('a date input while the dashboard is in another language', () => {
  it("keeps the inputs' and the form's 'yyyy-MM-dd HH:mm:ss', never the language's '28.11.2026, 14:05:00'", () => {
    setDateLanguage('de');
    try {
      expect(formatInstant(Date.UTC(2026, 10, 28, 13, 5), 'utc')).toBe('28.11.2026, 13:05:00');
      expect(wallToUtc('2026-11-28T14:05', 'utc')).toBe('2026-11-28 14:05:00');
      expect(wallToUtc('2026-11-28T14:05', 'local')).toBe('2026-11-28 13:05:00');
      expect(utcToWall('2026-11-28 13:05:00.000Z', 'local')).toBe('2026-11-28 14:05:00');
      expect(wallToUtc('2026-10-25 02:45', 'local', '2026-10-25 01:15:00.000Z')).toBe('2026-10-25 01:45:00');
    } finally {
      setDateLanguage(null);
    }
  });
});
