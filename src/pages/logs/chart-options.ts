// The logs chart's constants as apexcharts options, kept apart from the lazily
// loaded chart module so they can be unit tested without apexcharts.
import type { ApexOptions } from 'apexcharts';

type ApexLocale = NonNullable<NonNullable<ApexOptions['chart']>['locales']>[number];
import { formatInstant, zoneLabel, type DateZone } from '../../lib/date-display';

export const CHART_RESIZE_DELAY_MS = 250;
const CHART_MAX_Y_TICKS = 4;
const CHART_MAX_X_TICKS = 15;
const CHART_COLOR = '#e34562';
const CHART_FILL_OPACITY = 0.05;
export const CHART_HEIGHT = 170;
const SOURCE_LANGUAGE = 'en';

const HOUR_MS = 3_600_000;

export interface ChartPoint {
  /** ms since the epoch (the hour) */
  x: number;
  y: number;
}

/**
 * The y axis from zero to a round maximum with at most CHART_MAX_Y_TICKS integer ticks (zero
 * included): a step of 1, 2 or 5 × 10^n covering the largest total in at most three intervals.
 */
export function yAxisScale(maxTotal: number): { max: number; tickAmount: number } {
  const top = Math.max(1, Math.ceil(maxTotal));
  const intervals = CHART_MAX_Y_TICKS - 1;
  let step = 1;
  for (let pow = 1; ; pow *= 10) {
    const found = [1, 2, 5].map((m) => m * pow).find((s) => Math.ceil(top / s) <= intervals);
    if (found) {
      step = found;
      break;
    }
  }
  const tickAmount = Math.max(1, Math.ceil(top / step));
  return { max: tickAmount * step, tickAmount };
}

/** The tooltip's hour in the chosen zone, 24-hour, with the zone: '2024-01-03 09:00 UTC'. */
export function tooltipDate(ms: number, zone: DateZone): string {
  return `${formatInstant(ms, zone, { seconds: false })} ${zoneLabel(zone, new Date(ms))}`;
}

const numberFormats = new Map<string, Intl.NumberFormat>();
/** A count as the language writes it (1,234 / 1.234); English keeps 0.22's bare digits. */
function countText(n: number, lang: string): string {
  if (lang === SOURCE_LANGUAGE) return String(n);
  let f = numberFormats.get(lang);
  if (!f) numberFormats.set(lang, (f = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 })));
  return f.format(n);
}

const names = (lang: string, count: number, at: (i: number) => Date, options: Intl.DateTimeFormatOptions) => {
  const f = new Intl.DateTimeFormat(lang, { ...options, timeZone: 'UTC' });
  return Array.from({ length: count }, (_, i) => f.format(at(i)));
};

/**
 * apexcharts' locale for a language, its month and day names from Intl (a new language needs no
 * list of names); English is apexcharts' own default.
 */
function chartLocale(lang: string): ApexLocale {
  const month = (i: number) => new Date(Date.UTC(2024, i, 1));
  const day = (i: number) => new Date(Date.UTC(2024, 0, 7 + i)); // 2024-01-07 is a Sunday
  return {
    name: lang,
    options: {
      months: names(lang, 12, month, { month: 'long' }),
      shortMonths: names(lang, 12, month, { month: 'short' }),
      days: names(lang, 7, day, { weekday: 'long' }),
      shortDays: names(lang, 7, day, { weekday: 'short' }),
    },
  };
}

/**
 * The axis' day label as the language orders day and month ('dd MMM' in English, 'dd. MMM' in
 * German), in apexcharts' pattern letters; read from Intl's parts, so only letter-free separators.
 */
export function dayPattern(lang: string): string {
  if (lang === SOURCE_LANGUAGE) return 'dd MMM';
  const parts = new Intl.DateTimeFormat(lang, { day: '2-digit', month: 'short', timeZone: 'UTC' }).formatToParts(new Date(Date.UTC(2024, 0, 3)));
  let pattern = '';
  for (const p of parts) {
    if (p.type === 'day') pattern += 'dd';
    else if (p.type === 'month') pattern += 'MMM';
    else if (p.type === 'literal' && !/\p{L}/u.test(p.value)) pattern += p.value;
    else return 'dd MMM';
  }
  return pattern.trim() || 'dd MMM';
}

/**
 * The chart's options; the hours' labels are in `zone`, the admin's choice, and in `lang` (the
 * dashboard's language: month names, day order, numbers; the tooltip's date follows date-display).
 */
export function chartOptions(points: readonly ChartPoint[], zone: DateZone, lang = SOURCE_LANGUAGE): ApexOptions {
  const y = yAxisScale(points.reduce((m, p) => Math.max(m, p.y), 0));
  // a lone hour would otherwise sit on a days-wide axis
  const around = points.length === 1 ? { min: points[0].x - 6 * HOUR_MS, max: points[0].x + 6 * HOUR_MS } : {};
  return {
    chart: {
      id: 'logs-chart',
      type: 'area',
      fontFamily: 'inherit',
      animations: { enabled: false },
      toolbar: { show: false },
      zoom: { enabled: false },
      selection: { enabled: false },
      // the page redraws on resize itself, after CHART_RESIZE_DELAY_MS
      redrawOnWindowResize: false,
      redrawOnParentResize: false,
      parentHeightOffset: 0,
      ...(lang === SOURCE_LANGUAGE ? {} : { locales: [chartLocale(lang)], defaultLocale: lang }),
    },
    colors: [CHART_COLOR],
    stroke: { curve: 'straight', width: 2 },
    fill: { type: 'solid', opacity: CHART_FILL_OPACITY },
    // hundreds of hours need no dots (fewer SVG nodes to draw); a lone hour does
    markers: { size: points.length > 1 ? 0 : 3, strokeWidth: 0, hover: { size: 4 } },
    dataLabels: { enabled: false },
    legend: { show: false },
    grid: { borderColor: '#edf0f3', padding: { left: 4, right: 8 } },
    xaxis: {
      type: 'datetime',
      ...around,
      tickAmount: CHART_MAX_X_TICKS - 1,
      labels: {
        datetimeUTC: zone === 'utc',
        hideOverlappingLabels: true,
        rotate: 0,
        style: { colors: '#666f75' },
        datetimeFormatter: { year: 'yyyy', month: "MMM 'yy", day: dayPattern(lang), hour: 'HH:mm' },
      },
      axisBorder: { color: '#e4e9ec' },
      tooltip: { enabled: false },
    },
    yaxis: {
      min: 0,
      max: y.max,
      tickAmount: y.tickAmount,
      forceNiceScale: false,
      labels: { formatter: (v: number) => countText(Math.round(v), lang), style: { colors: '#666f75' } },
    },
    tooltip: {
      x: { formatter: (v: number) => tooltipDate(v, zone) },
      y: { formatter: (v: number) => countText(v, lang) },
      marker: { show: true },
    },
  };
}
