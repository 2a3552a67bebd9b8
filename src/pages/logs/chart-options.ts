// The logs chart's constants as apexcharts options, kept apart from the lazily
// loaded chart module so they can be unit tested without apexcharts.
import type { ApexOptions } from 'apexcharts';
import { formatInstant, zoneLabel, type DateZone } from '../../lib/date-display';

export const CHART_RESIZE_DELAY_MS = 250;
const CHART_MAX_Y_TICKS = 4;
const CHART_MAX_X_TICKS = 15;
const CHART_COLOR = '#e34562';
const CHART_FILL_OPACITY = 0.05;
export const CHART_HEIGHT = 170;
export const CHART_SERIES_NAME = 'Total requests';

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

/** The chart's options; the hours' labels are in `zone`, the admin's choice. */
export function chartOptions(points: readonly ChartPoint[], zone: DateZone): ApexOptions {
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
        datetimeFormatter: { year: 'yyyy', month: "MMM 'yy", day: 'dd MMM', hour: 'HH:mm' },
      },
      axisBorder: { color: '#e4e9ec' },
      tooltip: { enabled: false },
    },
    yaxis: {
      min: 0,
      max: y.max,
      tickAmount: y.tickAmount,
      forceNiceScale: false,
      labels: { formatter: (v: number) => String(Math.round(v)), style: { colors: '#666f75' } },
    },
    tooltip: {
      x: { formatter: (v: number) => tooltipDate(v, zone) },
      y: { formatter: (v: number) => String(v) },
      marker: { show: true },
    },
  };
}
