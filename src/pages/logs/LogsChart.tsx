// The apexcharts line of the logs stats (loaded lazily: only the Logs page pays for apexcharts).
// apexcharts' own resize handling is off; the width follows the wrapper after CHART_RESIZE_DELAY_MS.
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import * as reactApexCharts from 'react-apexcharts';
import { CHART_HEIGHT, CHART_RESIZE_DELAY_MS, chartOptions, type ChartPoint } from './chart-options';
import { useDateZone } from '../../ui/date-zone';
import { t, useLanguage } from '../../ui/i18n';

type ChartComponent = typeof import('react-apexcharts').default;
// react-apexcharts is CommonJS with an __esModule default: depending on the bundler's interop,
// `default` is the component or the module object holding it
const imported = (reactApexCharts as unknown as { default: ChartComponent | { default: ChartComponent } }).default;
const Chart: ChartComponent = typeof imported === 'function' ? imported : imported.default;

export default function LogsChart({ points }: { points: readonly ChartPoint[] }) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  const [drawn, setDrawn] = useState(false);
  const zone = useDateZone();
  const lang = useLanguage();

  // measured before the first paint: the chart is drawn in the same frame, not one later
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    setWidth(el.clientWidth);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ro = new ResizeObserver(() => {
      clearTimeout(timer);
      timer = setTimeout(() => setWidth(el.clientWidth), CHART_RESIZE_DELAY_MS);
    });
    ro.observe(el);
    return () => {
      clearTimeout(timer);
      ro.disconnect();
    };
  }, []);

  const options = useMemo(() => {
    const base = chartOptions(points, zone, lang);
    // a marker for tests and the bench: the SVG for these points is in the page
    base.chart!.events = { mounted: () => setDrawn(true), updated: () => setDrawn(true) };
    return base;
  }, [points, zone, lang]);
  // the series' name shows in the tooltip
  const name = t('logs.chartTitle');
  const series = useMemo(() => [{ name, data: points.map((p) => [p.x, p.y] as [number, number]) }], [points, name]);

  return (
    <div ref={box} className="logs-chart-canvas" data-drawn={drawn || undefined}>
      {width !== null && <Chart type="area" height={CHART_HEIGHT} width={width} options={options} series={series} />}
    </div>
  );
}
