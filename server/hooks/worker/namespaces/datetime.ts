// `new DateTime(str?)` (0.22's types.DateTime: now, or the text parsed; "" or unparsable text is
// the zero time) and the Go time.Time its `time()` returns, with the methods hook code calls on
// it. DateTime's text is 0.22's "2006-01-02 15:04:05.000Z" in UTC, "" for the zero time.
import { strict } from '../../../migrations/js-unsupported';

/** Go's zero time.Time (0001-01-01 00:00:00 UTC) in epoch milliseconds. */
const ZERO_MS = -62_135_596_800_000;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The Go-style text of a time without its fractional part's trailing zeros. */
function goString(ms: number): string {
  const d = new Date(ms);
  const frac = pad(d.getUTCMilliseconds(), 3).replace(/0+$/, '');
  const date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return `${date} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${frac ? `.${frac}` : ''} +0000 UTC`;
}

/** Go's time.Time (UTC, millisecond precision): what DateTime.time() and file dates give. */
export class GoTime {
  constructor(readonly ms: number) {}

  unix(): number {
    return Math.floor(this.ms / 1000);
  }
  unixMilli(): number {
    return this.ms;
  }
  unixMicro(): number {
    return this.ms * 1000;
  }
  unixNano(): number {
    return this.ms * 1_000_000;
  }
  isZero(): boolean {
    return this.ms === ZERO_MS;
  }
  year(): number {
    return new Date(this.ms).getUTCFullYear();
  }
  /** 1-12, as Go's time.Month. */
  month(): number {
    return new Date(this.ms).getUTCMonth() + 1;
  }
  day(): number {
    return new Date(this.ms).getUTCDate();
  }
  hour(): number {
    return new Date(this.ms).getUTCHours();
  }
  minute(): number {
    return new Date(this.ms).getUTCMinutes();
  }
  second(): number {
    return new Date(this.ms).getUTCSeconds();
  }
  nanosecond(): number {
    return new Date(this.ms).getUTCMilliseconds() * 1_000_000;
  }
  /** 0 = Sunday, as Go's time.Weekday. */
  weekday(): number {
    return new Date(this.ms).getUTCDay();
  }
  yearDay(): number {
    const d = new Date(this.ms);
    return Math.floor((this.ms - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
  }
  utc(): GoTime {
    return goTime(this.ms);
  }
  local(): GoTime {
    return goTime(this.ms);
  }
  /** Adds a Go duration (nanoseconds). */
  add(ns: unknown): GoTime {
    return goTime(this.ms + Math.trunc(Number(ns) / 1_000_000));
  }
  /** The Go duration (nanoseconds) from `other` to this time. */
  sub(other: unknown): number {
    return (this.ms - msOf(other)) * 1_000_000;
  }
  before(other: unknown): boolean {
    return this.ms < msOf(other);
  }
  after(other: unknown): boolean {
    return this.ms > msOf(other);
  }
  equal(other: unknown): boolean {
    return this.ms === msOf(other);
  }
  string(): string {
    return goString(this.ms);
  }
  toString(): string {
    return goString(this.ms);
  }
  toJSON(): string {
    return new Date(this.ms).toISOString();
  }
}

/** A GoTime whose other Go methods say they are not supported. */
export const goTime = (ms: number): GoTime => strict('time.Time', new GoTime(ms));

function msOf(value: unknown): number {
  if (value instanceof GoTime) return value.ms;
  if (value instanceof DateTime) return value.time().ms;
  if (value instanceof Date) return value.getTime();
  throw new TypeError('expected a time (DateTime.time(), a file date)');
}

const DEFAULT_LAYOUT = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d{3})Z$/;
// the other common layouts cast.ToTime accepts: date, date and time (T or space), fraction, zone
const COMMON = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}:?\d{2})?(?: [A-Z]{3,4})?$/;

/** 0.22's DateTime.Scan of a string: its layout, then the common ones, else the zero time. */
function parse(text: string): number {
  const m = DEFAULT_LAYOUT.exec(text) ?? COMMON.exec(text);
  if (m) {
    const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '0', zone = 'Z'] = m;
    let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(frac.padEnd(3, '0').slice(0, 3)));
    if (Number(y) < 100) ms = new Date(ms).setUTCFullYear(Number(y));
    if (zone !== 'Z') {
      const z = /([+-])(\d{2}):?(\d{2})/.exec(zone)!;
      ms -= (z[1] === '-' ? -1 : 1) * (Number(z[2]) * 60 + Number(z[3])) * 60_000;
    }
    return Number.isNaN(ms) ? ZERO_MS : ms;
  }
  const other = Date.parse(text);
  return Number.isNaN(other) ? ZERO_MS : other;
}

export class DateTime {
  #ms: number;

  constructor(value?: unknown) {
    // 0.22 parses a non-empty string and takes anything else as now; a time is copied (Outpost)
    if (value instanceof DateTime) this.#ms = value.#ms;
    else if (value instanceof GoTime) this.#ms = value.ms;
    else if (value instanceof Date) this.#ms = value.getTime();
    else if (typeof value === 'string' && value !== '') this.#ms = parse(value);
    else this.#ms = Date.now();
  }

  time(): GoTime {
    return goTime(this.#ms);
  }
  isZero(): boolean {
    return this.#ms === ZERO_MS;
  }
  /** Seconds since the epoch (Go: dt.time().unix()). */
  unix(): number {
    return Math.floor(this.#ms / 1000);
  }
  string(): string {
    if (this.isZero()) return '';
    return new Date(this.#ms).toISOString().replace('T', ' ');
  }
  toString(): string {
    return this.string();
  }
  toJSON(): string {
    return this.string();
  }
}
