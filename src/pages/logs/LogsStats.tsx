// The chart block of the Logs page: fetches the hourly stats for the
// filter, shows 'Found N log(s)' and a spinner while loading, and draws the lazily loaded chart.
// A failed fetch clears the chart, is logged and notified, except a 400 for an invalid filter.
import { useEffect, useState, type ComponentType } from 'react';
import { handleError } from '../../api/client';
import type { ChartPoint } from './chart-options';
import { CHART_HEIGHT } from './chart-options';
import { foundLogsText } from './log-format';
import { logsStats } from './logs-first-load';
import { loadChart, type ChartProps } from './chart-loader';
import { parseApiDate } from '../../lib/date-display';
import { DateZoneLabel } from '../../ui/FormattedDate';
import { t } from '../../ui/i18n';

// apexcharts is the biggest chunk of the page (570 KB): fetched once the stats have arrived (so it
// downloads while the rows render, never ahead of the page's own requests; chart-loader.ts) and
// drawn once the list shows its first rows (`drawChart`). Not React.lazy: React holds a Suspense
// boundary's content back for up to 300 ms after its fallback showed, which would delay every
// first chart.
function isAbort(err: unknown): boolean {
  return !!(err && typeof err === 'object' && (err as { isAbort?: boolean }).isAbort);
}

export function LogsStats({ filter, refreshKey, drawChart }: { filter: string; refreshKey: number; drawChart: boolean }) {
  const [Chart, setChart] = useState<ComponentType<ChartProps> | null>(null);
  const [points, setPoints] = useState<ChartPoint[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    let alive = true;
    setLoading(true);
    logsStats(filter)
      .then((items) => {
        if (!alive) return;
        void loadChart();
        const next: ChartPoint[] = [];
        let sum = 0;
        for (const item of Array.isArray(items) ? items : []) {
          const d = parseApiDate(item.date);
          sum += item.total;
          if (d) next.push({ x: d.getTime(), y: item.total });
        }
        setPoints(next);
        setTotal(sum);
        setLoading(false);
      })
      .catch((err) => {
        if (!alive || isAbort(err)) return;
        setPoints([]);
        setTotal(0);
        setLoading(false);
        console.warn(err);
        handleError(err, { silent400: !!filter });
      });
    return () => {
      alive = false;
    };
  }, [filter, refreshKey]);

  useEffect(() => {
    if (!drawChart) return;
    let alive = true;
    loadChart().then(
      (component) => alive && setChart(() => component),
      (err) => console.warn(err),
    );
    return () => {
      alive = false;
    };
  }, [drawChart]);

  return (
    <section className={`logs-chart${loading ? ' logs-chart-loading' : ''}`} aria-label={t('logs.chartTitle')} aria-busy={loading || undefined}>
      <div className="logs-chart-header">
        <h2 className="logs-chart-title">
          {t('logs.chartTitle')} <DateZoneLabel className="logs-chart-zone" />
        </h2>
        {!loading && (
          <span className="logs-chart-total" role="status">
            {foundLogsText(total)}
          </span>
        )}
      </div>
      <div className="logs-chart-body" style={{ height: CHART_HEIGHT }}>
        {loading && <span className="logs-chart-spinner" role="progressbar" aria-label={t('logs.chartLoading')} />}
        {drawChart && Chart && <Chart points={points} />}
      </div>
    </section>
  );
}
