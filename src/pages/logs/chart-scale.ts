// The logs chart's geometry as pure functions (the SVG in LogsChart.tsx draws it): the y axis from
// zero with at most 4 integer ticks, a time axis in whole hours with at most 15 ticks, the line
// and its filled area, and the tooltip's date.

export const CHART_RESIZE_DELAY_MS = 250;
export const CHART_HEIGHT = 170;
export const CHART_SERIES_NAME = 'Total requests';
/** The series' red-pink and its light fill. */
export const CHART_COLOR = '#e34562';
export const CHART_FILL_OPACITY = 0.05;
const CHART_MAX_Y_TICKS = 4;
export const CHART_MAX_X_TICKS = 15;

const HOUR_MS = 3_600_000;
/** A lone hour is shown this far either side (it would otherwise have no axis to sit on). */
const LONE_POINT_SPAN_MS = 6 * HOUR_MS;
/** Room each x label needs, so neighbours never overlap. */
const X_LABEL_MIN_PX = 64;
/** Hours between x ticks, tried in order until the ticks fit. */
const X_STEPS_HOURS = [1, 2, 3, 6, 12, 24, 48, 72, 168, 336, 720, 1440, 2880, 8760];
const Y_LABEL_CHAR_PX = 7;
const PAD = { top: 8, right: 16, bottom: 22, left: 10 };
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

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

const pad2 = (n: number) => String(n).padStart(2, '0');

/** The tooltip's day plus hour, local time, 24-hour: '2024-01-03 09:00'. */
export function tooltipDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:00`;
}

/** The first tick at or after `from` on a local boundary of `stepHours`, and the tick after `d`. */
function firstTick(from: number, stepHours: number): Date {
  const d = new Date(from);
  if (stepHours < 24) {
    d.setMinutes(0, 0, 0);
    if (d.getTime() < from) d.setHours(d.getHours() + 1);
    while (d.getHours() % stepHours) d.setHours(d.getHours() + 1);
  } else {
    d.setHours(0, 0, 0, 0);
    if (d.getTime() < from) d.setDate(d.getDate() + 1);
    const days = stepHours / 24;
    while (Math.round(d.getTime() / 86_400_000) % days) d.setDate(d.getDate() + 1);
  }
  return d;
}

function nextTick(d: Date, stepHours: number): Date {
  const next = new Date(d);
  if (stepHours < 24) next.setHours(next.getHours() + stepHours);
  else next.setDate(next.getDate() + stepHours / 24);
  return next;
}

function tickLabel(d: Date, stepHours: number): string {
  const day = `${pad2(d.getDate())} ${MONTHS[d.getMonth()]}`;
  return stepHours >= 24 || (d.getHours() === 0 && d.getMinutes() === 0) ? day : `${pad2(d.getHours())}:00`;
}

/** Local-time ticks over [min, max], whole hours, at most `maxTicks`: the smallest step that fits. */
export function xAxisTicks(min: number, max: number, maxTicks: number): { ms: number; label: string }[] {
  for (const step of X_STEPS_HOURS) {
    const ticks: { ms: number; label: string }[] = [];
    for (let d = firstTick(min, step); d.getTime() <= max && ticks.length <= maxTicks; d = nextTick(d, step)) {
      ticks.push({ ms: d.getTime(), label: tickLabel(d, step) });
    }
    if (ticks.length <= maxTicks) return ticks;
  }
  return [];
}

export interface ChartGeometry {
  /** the plot area inside the axes' labels */
  plot: { left: number; top: number; right: number; bottom: number };
  /** each point's position, in the points' order */
  positions: { x: number; y: number }[];
  line: string;
  area: string;
  xTicks: { x: number; label: string }[];
  yTicks: { y: number; label: string }[];
}

const fixed = (n: number) => Math.round(n * 10) / 10;

/** Where everything goes for `points` (sorted by time) in a `width` × `height` box. */
export function chartGeometry(points: readonly ChartPoint[], width: number, height: number): ChartGeometry {
  const y = yAxisScale(points.reduce((m, p) => Math.max(m, p.y), 0));
  const yValues = Array.from({ length: y.tickAmount + 1 }, (_, i) => (y.max / y.tickAmount) * i);
  const left = PAD.left + Math.max(...yValues.map((v) => String(v).length)) * Y_LABEL_CHAR_PX;
  const plot = { left, top: PAD.top, right: Math.max(left + 1, width - PAD.right), bottom: height - PAD.bottom };
  const first = points[0]?.x ?? 0;
  const last = points[points.length - 1]?.x ?? 0;
  const [min, max] = points.length === 1 ? [first - LONE_POINT_SPAN_MS, first + LONE_POINT_SPAN_MS] : [first, last];
  const xOf = (ms: number) => fixed(max > min ? plot.left + ((ms - min) / (max - min)) * (plot.right - plot.left) : plot.left);
  const yOf = (v: number) => fixed(plot.bottom - (v / y.max) * (plot.bottom - plot.top));
  const positions = points.map((p) => ({ x: xOf(p.x), y: yOf(p.y) }));
  const line = positions.map((p, i) => `${i ? 'L' : 'M'}${p.x} ${p.y}`).join('');
  const area = positions.length ? `${line}L${positions[positions.length - 1].x} ${plot.bottom}L${positions[0].x} ${plot.bottom}Z` : '';
  const maxXTicks = Math.min(CHART_MAX_X_TICKS, Math.max(2, Math.floor((plot.right - plot.left) / X_LABEL_MIN_PX) + 1));
  return {
    plot,
    positions,
    line,
    area,
    xTicks: points.length ? xAxisTicks(min, max, maxXTicks).map((t) => ({ x: xOf(t.ms), label: t.label })) : [],
    yTicks: yValues.map((v) => ({ y: yOf(v), label: String(v) })),
  };
}

/** The index of the position nearest to `x` (positions sorted by x), or -1 when there is none. */
export function nearestIndex(positions: readonly { x: number }[], x: number): number {
  let best = -1;
  for (let i = 0; i < positions.length; i++) {
    if (best < 0 || Math.abs(positions[i].x - x) < Math.abs(positions[best].x - x)) best = i;
  }
  return best;
}
