// How the dashboard shows a date: in UTC (PocketBase 0.22's way, the default) or in the browser's
// time zone, the admin's choice (src/ui/date-zone.ts keeps it). Values are stored and sent in UTC
// whatever the choice: only the text an admin reads, and the wall time a date input shows and
// reads back, are in the chosen zone. "Local" is the browser's own zone (Date's local getters),
// so tests pick it with TZ and the browser with its time zone.

export type DateZone = 'utc' | 'local';

/** The zone a date is shown in when nothing was chosen: UTC, as 0.22. */
export const DEFAULT_DATE_ZONE: DateZone = 'utc';

export const isDateZone = (v: unknown): v is DateZone => v === 'utc' || v === 'local';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

function pad(n: number, len = 2): string {
  return String(n).padStart(len, '0');
}

/**
 * Parses the API's 'YYYY-MM-DD HH:MM:SS(.sss)Z' text (also with a 'T', or without the 'Z': the
 * dashboard's forms keep 19 characters, still UTC); null when it is not a date.
 */
export function parseApiDate(value: unknown): Date | null {
  if (typeof value !== 'string' || !value.trim()) return null;
  const v = value.trim();
  const iso = v.includes('T') ? v : v.replace(' ', 'T');
  const d = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : iso + 'Z');
  return Number.isNaN(d.getTime()) ? null : d;
}

type Wall = { y: number; mo: number; d: number; h: number; mi: number; s: number; ms: number };

function wallOf(d: Date, zone: DateZone): Wall {
  return zone === 'utc'
    ? { y: d.getUTCFullYear(), mo: d.getUTCMonth() + 1, d: d.getUTCDate(), h: d.getUTCHours(), mi: d.getUTCMinutes(), s: d.getUTCSeconds(), ms: d.getUTCMilliseconds() }
    : { y: d.getFullYear(), mo: d.getMonth() + 1, d: d.getDate(), h: d.getHours(), mi: d.getMinutes(), s: d.getSeconds(), ms: d.getMilliseconds() };
}

function wallText(w: Wall, opts: { ms?: boolean; seconds?: boolean } = {}): string {
  const day = `${pad(w.y, 4)}-${pad(w.mo)}-${pad(w.d)} ${pad(w.h)}:${pad(w.mi)}`;
  if (opts.seconds === false) return day;
  return opts.ms ? `${day}:${pad(w.s)}.${pad(w.ms, 3)}` : `${day}:${pad(w.s)}`;
}

// The dashboard's language when it is not the source language (src/ui/i18n.ts sets it): dates are
// then written as that language writes them ('28.11.2026, 14:05:00'); in English they stay 0.22's
// 'yyyy-MM-dd HH:mm:ss'.
let dateLanguage: string | null = null;
const dateFormats = new Map<string, Intl.DateTimeFormat>();

export function setDateLanguage(lang: string | null): void {
  dateLanguage = lang;
}

function languageText(d: Date, zone: DateZone, lang: string, opts: { ms?: boolean; seconds?: boolean }): string {
  const key = `${lang}|${zone}|${opts.ms ? 1 : 0}|${opts.seconds === false ? 0 : 1}`;
  let f = dateFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(lang, {
      year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit',
      second: opts.seconds === false ? undefined : '2-digit',
      fractionalSecondDigits: opts.ms && opts.seconds !== false ? 3 : undefined,
      hourCycle: 'h23',
      timeZone: zone === 'utc' ? 'UTC' : undefined,
    });
    dateFormats.set(key, f);
  }
  return f.format(d);
}

/** An instant (a Date or ms since the epoch) as 'yyyy-MM-dd HH:mm:ss' (24-hour) in `zone`, or as the dashboard's language writes it. */
export function formatInstant(at: Date | number, zone: DateZone, opts: { ms?: boolean; seconds?: boolean } = {}): string {
  const d = typeof at === 'number' ? new Date(at) : at;
  return dateLanguage ? languageText(d, zone, dateLanguage, opts) : wallText(wallOf(d, zone), opts);
}

/** An API date as 'yyyy-MM-dd HH:mm:ss' in `zone`; '' for none, the text itself when it is no date. */
export function formatApiDate(value: unknown, zone: DateZone, opts: { ms?: boolean } = {}): string {
  const d = parseApiDate(value);
  if (!d) return typeof value === 'string' ? value : '';
  return formatInstant(d, zone, opts);
}

let browserZone: string | undefined;
/** The browser's IANA time zone ('Europe/Berlin'); read once, it does not change while the page lives. */
function browserZoneName(): string {
  if (browserZone === undefined) {
    try {
      browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
    } catch {
      browserZone = 'local time';
    }
  }
  return browserZone;
}

/** 'UTC+1', 'UTC+5:45', 'UTC-3', 'UTC' for the local zone's offset at `d`. */
function utcOffsetText(d: Date): string {
  const minutes = -d.getTimezoneOffset();
  if (minutes === 0) return 'UTC';
  const abs = Math.abs(minutes);
  return `UTC${minutes < 0 ? '-' : '+'}${Math.floor(abs / 60)}${abs % 60 ? ':' + pad(abs % 60) : ''}`;
}

/**
 * The zone's name where a date is shown: 'UTC', or the browser's zone ('Europe/Berlin'); with an
 * instant, the local name carries that instant's offset ('Europe/Berlin, UTC+2'), which tells the
 * two 02:30 of a night the clocks go back apart.
 */
export function zoneLabel(zone: DateZone, at?: Date | null): string {
  if (zone === 'utc') return 'UTC';
  const name = browserZoneName();
  if (!at) return name;
  const offset = utcOffsetText(at);
  return offset === name ? name : `${name}, ${offset}`;
}

/** The tooltip of a shown date: the instant in both zones with milliseconds, the one not shown first. */
export function dateTooltip(value: unknown, zone: DateZone): string {
  const d = parseApiDate(value);
  if (!d) return '';
  const lines = [`${formatInstant(d, 'local', { ms: true })} ${zoneLabel('local', d)}`, `${formatInstant(d, 'utc', { ms: true })} UTC`];
  return (zone === 'utc' ? lines : lines.reverse()).join('\n');
}

// ---- date inputs: the wall time an input shows ⇄ the UTC text the form keeps ------------------

const WALL = /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d)(?::(\d\d))?/;

/**
 * The form's UTC text ('YYYY-MM-DD HH:mm:ss', 'Z' and milliseconds optional) as the
 * 'YYYY-MM-DD HH:mm:ss' an input shows in `zone`; '' for none or a text that is no date.
 */
export function utcToWall(utc: unknown, zone: DateZone): string {
  if (typeof utc !== 'string' || utc === '') return '';
  if (zone === 'utc') return utc.replace('T', ' ').slice(0, 19);
  const d = parseApiDate(utc);
  return d ? wallText(wallOf(d, 'local')) : '';
}

/** The local zone's offset (local − UTC, ms) at an instant. */
const offsetAt = (ms: number): number => -new Date(ms).getTimezoneOffset() * MINUTE_MS;

/**
 * A wall time typed into an input in `zone` ('YYYY-MM-DD HH:mm(:ss)') as the form's UTC text
 * ('YYYY-MM-DD HH:mm:ss'); '' when it is no date. Around a daylight saving change in the local zone:
 * - a time the clocks skip (Europe/Berlin 2026-03-29 02:30) does not exist: it is read with the
 *   offset before the change, so it lands the gap later (03:30 CEST, 01:30 UTC), as a Date built
 *   from those fields does; the input then shows the time that was kept.
 * - a time that happens twice (Europe/Berlin 2026-10-25 02:30, CEST then CET) is the instant with
 *   the offset of `keep` (the value the input held) when that is one of the two, so editing another
 *   part of a date in the repeated hour leaves its hour alone; otherwise the earlier one.
 */
export function wallToUtc(wall: string, zone: DateZone, keep?: unknown): string {
  const m = WALL.exec(wall.trim());
  if (!m) return '';
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => Number(x ?? 0));
  // not Date.UTC: it reads years 0-99 as 1900-1999
  const asUtc = new Date(0).setUTCFullYear(y, mo - 1, d) + ((h * 60 + mi) * 60 + s) * 1000;
  if (Number.isNaN(asUtc)) return '';
  // the inputs' and the form's text, never the language's ('28.11.2026, 14:05:00' is no value)
  if (zone === 'utc') return wallText(wallOf(new Date(asUtc), 'utc'));
  // the offsets in force around that wall time (a zone changes its offset at most once a day)
  const offsets = [...new Set([offsetAt(asUtc - 12 * HOUR_MS), offsetAt(asUtc + 12 * HOUR_MS)])];
  const instants = offsets.map((o) => asUtc - o).filter((t) => wallMatches(t, asUtc));
  let chosen: number;
  if (instants.length === 0) {
    chosen = asUtc - offsetAt(asUtc - 12 * HOUR_MS); // skipped: the offset before the change
  } else if (instants.length === 1) {
    chosen = instants[0];
  } else {
    const kept = parseApiDate(keep);
    const same = kept ? instants.find((t) => offsetAt(t) === offsetAt(kept.getTime())) : undefined;
    chosen = same ?? Math.min(...instants);
  }
  return wallText(wallOf(new Date(chosen), 'utc'));
}

/** Whether the instant `t` reads as the wall time `asUtc` (its fields taken as UTC) in the local zone. */
function wallMatches(t: number, asUtc: number): boolean {
  return t + offsetAt(t) === asUtc;
}
