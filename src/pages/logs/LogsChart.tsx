// The logs stats as an SVG area chart, drawn in the same render as the stats arrive (no chart
// library: apexcharts cost a 570 KB chunk and half a second of main thread before the chart showed).
// The width follows the wrapper CHART_RESIZE_DELAY_MS after it changes; hovering shows the hour's total.
import { useLayoutEffect, useMemo, useRef, useState, type PointerEvent } from 'react';
import { CHART_COLOR, CHART_FILL_OPACITY, CHART_HEIGHT, CHART_RESIZE_DELAY_MS, CHART_SERIES_NAME, chartGeometry, nearestIndex, tooltipDate, type ChartPoint } from './chart-scale';

const TOOLTIP_WIDTH_PX = 170;

export function LogsChart({ points }: { points: readonly ChartPoint[] }) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  const [hover, setHover] = useState(-1);

  // measured before the first paint, so the chart is drawn in the frame the stats arrive in
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

  const geo = useMemo(() => (width === null ? null : chartGeometry(points, width, CHART_HEIGHT)), [points, width]);
  const shown = geo && hover >= 0 && hover < points.length ? { point: points[hover], at: geo.positions[hover] } : null;

  const onPointerMove = (e: PointerEvent<SVGSVGElement>) => {
    if (!geo) return;
    setHover(nearestIndex(geo.positions, e.clientX - e.currentTarget.getBoundingClientRect().left));
  };

  return (
    <div ref={box} className="logs-chart-canvas" data-drawn={geo ? true : undefined}>
      {geo && width !== null && (
        <svg width={width} height={CHART_HEIGHT} role="img" aria-label={`${CHART_SERIES_NAME} per hour`} onPointerMove={onPointerMove} onPointerLeave={() => setHover(-1)}>
          {geo.yTicks.map((t) => (
            <g key={t.label}>
              <line className="logs-chart-grid" x1={geo.plot.left} x2={geo.plot.right} y1={t.y} y2={t.y} />
              <text className="logs-chart-ylabel" x={geo.plot.left - 6} y={t.y} textAnchor="end" dominantBaseline="middle">
                {t.label}
              </text>
            </g>
          ))}
          {geo.xTicks.map((t) => (
            <text key={t.x} className="logs-chart-xlabel" x={t.x} y={geo.plot.bottom + 15} textAnchor="middle">
              {t.label}
            </text>
          ))}
          {geo.area && (
            <g className="logs-chart-series">
              <path className="logs-chart-area" d={geo.area} fill={CHART_COLOR} fillOpacity={CHART_FILL_OPACITY} />
              <path d={geo.line} fill="none" stroke={CHART_COLOR} strokeWidth={2} strokeLinejoin="round" />
            </g>
          )}
          {points.length === 1 && <circle cx={geo.positions[0].x} cy={geo.positions[0].y} r={3} fill={CHART_COLOR} />}
          {shown && (
            <g aria-hidden="true">
              <line className="logs-chart-crosshair" x1={shown.at.x} x2={shown.at.x} y1={geo.plot.top} y2={geo.plot.bottom} />
              <circle cx={shown.at.x} cy={shown.at.y} r={4} fill={CHART_COLOR} />
            </g>
          )}
        </svg>
      )}
      {shown && width !== null && (
        <div className="logs-chart-tooltip" aria-hidden="true" style={{ left: Math.min(shown.at.x + 10, width - TOOLTIP_WIDTH_PX), width: TOOLTIP_WIDTH_PX }}>
          <div className="logs-chart-tooltip-date">{tooltipDate(shown.point.x)}</div>
          <div>
            <span className="logs-chart-tooltip-dot" style={{ background: CHART_COLOR }} />
            {CHART_SERIES_NAME}: <b>{shown.point.y}</b>
          </div>
        </div>
      )}
    </div>
  );
}
