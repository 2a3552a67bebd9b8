// The Logs page's pure rules: levels, the preset and joined filter, detail key order, download
// names, the found counter, row previews and the chart's y scale.
import { describe, expect, it } from 'vitest';
import { chartOptions, dayPattern, tooltipDate, yAxisScale } from '../../src/pages/logs/chart-options';
import {
  bulkDownload,
  detailKeys,
  foundLogsText,
  isEmptyValue,
  levelLabel,
  logFileName,
  previewKeys,
  type LogEntry,
} from '../../src/pages/logs/log-format';
import { logsFilter } from '../../src/pages/logs/logs-filter';

const log = (id: string, created: string, data: Record<string, unknown> = {}): LogEntry => ({ id, created, updated: created, level: 0, message: 'm', data });

describe('log format', () => {
  it('labels the four levels and UNKN for others', () => {
    expect([-4, 0, 4, 8, 2, -100].map(levelLabel)).toEqual(['DEBUG', 'INFO', 'WARN', 'ERROR', 'UNKN', 'UNKN']);
  });

  it('joins the admin preset and the normalised search with &&, omitting empty parts', () => {
    expect(logsFilter('', true)).toBe('');
    expect(logsFilter('', false)).toBe('data.auth!="admin"');
    expect(logsFilter('level > 0', true)).toBe('level > 0');
    expect(logsFilter('boom', false)).toBe(`(data.auth!="admin") && (level~'boom' || message~'boom' || data~'boom')`);
    expect(logsFilter('404', true)).toBe('level~404 || message~404 || data~404');
  });

  it('orders detail keys as the spec says, then the others as they come', () => {
    const data = { zeta: 1, details: 'd', error: 'e', userAgent: 'u', status: 200, execTime: 1, type: 'request', alpha: 2, url: '/x' };
    expect(detailKeys(data)).toEqual(['execTime', 'type', 'status', 'url', 'userAgent', 'error', 'details', 'zeta', 'alpha']);
    expect(detailKeys(null)).toEqual([]);
  });

  it('treats null, empty strings, arrays and objects as empty', () => {
    expect([null, undefined, '', [], {}].every(isEmptyValue)).toBe(true);
    expect([0, false, 'x', [1], { a: 1 }].some(isEmptyValue)).toBe(false);
  });

  it('names downloads after the created dates', () => {
    expect(logFileName({ created: '2024-01-03 09:01:55.630Z' })).toBe('log_20240103090155630Z.json');
    const a = log('a', '2024-01-03 09:00:00.000Z');
    const b = log('b', '2024-01-04 10:00:00.000Z');
    const c = log('c', '2024-01-02 08:00:00.000Z');
    expect(bulkDownload([])).toBeNull();
    expect(bulkDownload([a])).toEqual({ name: 'log_20240103090000000Z.json', value: a });
    expect(bulkDownload([a, b, c])).toEqual({ name: '3_logs_20240102080000000Z_to_20240104100000000Z.json', value: [b, a, c] });
  });

  it("says 'Found 1 log' and 'Found N logs'", () => {
    expect([0, 1, 2].map(foundLogsText)).toEqual(['Found 0 logs', 'Found 1 log', 'Found 2 logs']);
  });

  it('previews request keys, a foreign referer, then error and details', () => {
    const req = log('r', '2024-01-01 00:00:00.000Z', { type: 'request', status: 404, execTime: 2, auth: 'guest', referer: 'http://here:8090/_/', error: 'x', details: 'y', url: '/a' });
    expect(previewKeys(req, 'here:8090').map((k) => k.key)).toEqual(['status', 'execTime', 'auth', 'error', 'details']);
    expect(previewKeys(req, 'elsewhere').map((k) => k.key)).toContain('referer');
    const job = log('j', '2024-01-01 00:00:00.000Z', { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, error: 'x' });
    expect(previewKeys(job, '').map((k) => k.key)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'error']);
  });
});

describe('chart options', () => {
  it('scales y from zero to at most 4 integer ticks', () => {
    for (const max of [0, 1, 2, 3, 4, 7, 10, 68, 99, 101, 1234, 999_999]) {
      const y = yAxisScale(max);
      expect(y.tickAmount).toBeLessThanOrEqual(3); // intervals: ticks = intervals + 1 (zero included)
      expect(y.max).toBeGreaterThanOrEqual(max);
      expect(Number.isInteger(y.max / y.tickAmount)).toBe(true);
    }
    expect(yAxisScale(68)).toEqual({ max: 100, tickAmount: 2 });
  });

  it('has every constant of the spec: no animation, hours, 15 ticks, red-pink light fill, no legend', () => {
    const o = chartOptions([{ x: Date.UTC(2024, 0, 1, 10), y: 5 }, { x: Date.UTC(2024, 0, 1, 11), y: 7 }], 'utc');
    expect(o.chart?.animations?.enabled).toBe(false);
    expect(o.chart?.redrawOnWindowResize).toBe(false);
    expect(o.colors).toEqual(['#e34562']);
    expect(o.fill?.opacity).toBe(0.05);
    expect(o.legend?.show).toBe(false);
    expect(o.xaxis?.type).toBe('datetime');
    expect(o.xaxis?.tickAmount).toBe(14);
    expect((o.yaxis as { min: number }).min).toBe(0);
    expect(o.xaxis?.labels?.datetimeUTC).toBe(true);
    expect(tooltipDate(Date.UTC(2024, 0, 3, 9), 'utc')).toBe('2024-01-03 09:00 UTC');
  });

  it('speaks the dashboard language: month names, day order and numbers (English keeps 0.22)', () => {
    const points = [{ x: Date.UTC(2024, 0, 1, 10), y: 1234 }, { x: Date.UTC(2024, 0, 1, 11), y: 7 }];
    const en = chartOptions(points, 'utc');
    expect(en.chart?.locales).toBeUndefined();
    expect(en.xaxis?.labels?.datetimeFormatter?.day).toBe('dd MMM');
    const y = (o: typeof en) => (o.yaxis as { labels: { formatter: (v: number) => string } }).labels.formatter(1234);
    expect(y(en)).toBe('1234');
    const de = chartOptions(points, 'local', 'de');
    expect(de.chart?.defaultLocale).toBe('de');
    const locale = de.chart?.locales?.[0];
    expect(locale?.options?.months?.[2]).toBe('März');
    expect(locale?.options?.shortDays?.[0]).toMatch(/^So/);
    expect(dayPattern('de')).toBe('dd. MMM');
    expect(de.xaxis?.labels?.datetimeUTC).toBe(false);
    expect(y(de)).toBe('1.234');
    expect((de.tooltip?.y as { formatter: (v: number) => string }).formatter(12345)).toBe('12.345');
  });
});
