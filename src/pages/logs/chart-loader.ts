// The logs chart's module (apexcharts, the page's biggest chunk), imported once. The router's early
// start on #/logs asks for it as soon as the early stats answer, so its download overlaps the page's
// own rendering instead of starting after the list shows; LogsStats mounts it once the list shows
// its first rows.
import type { ComponentType } from 'react';
import type { ChartPoint } from './chart-options';

export type ChartProps = { points: readonly ChartPoint[] };

let chartModule: Promise<ComponentType<ChartProps>> | undefined;

/** The chart component; a failed download is asked for again by the next caller, not cached. */
export function loadChart(): Promise<ComponentType<ChartProps>> {
  chartModule ??= import('./LogsChart').then(
    (m) => m.default,
    (err: unknown) => {
      chartModule = undefined;
      throw err;
    },
  );
  return chartModule;
}
