import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../../server/context';
import { openDatabase } from '../../server/db/database';
import { initLogsLayout } from '../../server/db/logs-layout';
import type { Settings } from '../../server/services/settings';
import { createLogStore } from '../../server/services/log-store';
import { pruneLogs, startRequestLogs } from '../../server/services/request-log';

function fakeCtx(logs: Settings['logs']) {
  const logsDb = openDatabase(':memory:');
  initLogsLayout(logsDb);
  let current = { logs } as Settings;
  const subs = new Set<(s: Settings) => void>();
  const ctx = {
    logs: createLogStore(logsDb),
    onClose: [],
    settings: {
      get: () => current,
      save(next: Settings) {
        current = next;
        subs.forEach((f) => f(next));
      },
      subscribe(fn: (s: Settings) => void) {
        subs.add(fn);
        return () => subs.delete(fn);
      },
    },
  } as unknown as AppContext;
  const count = () => logsDb.prepare('SELECT count(*) FROM _logs').pluck().get() as number;
  return { ctx, count, logsDb };
}

afterEach(() => vi.useRealTimers());

describe('request log writer', () => {
  it('batches: nothing is written before 3 s of quiet, or before 200 entries', async () => {
    vi.useFakeTimers();
    const { ctx, count } = fakeCtx({ maxDays: 5, minLevel: 0, logIp: true });
    const writer = startRequestLogs(ctx);
    writer.add({ level: 0, message: 'a', data: {} });
    vi.advanceTimersByTime(2000);
    writer.add({ level: 0, message: 'b', data: {} });
    vi.advanceTimersByTime(2900);
    expect(count()).toBe(0);
    vi.advanceTimersByTime(200);
    expect(count()).toBe(2);

    for (let i = 0; i < 200; i++) writer.add({ level: 0, message: `m${i}`, data: {} });
    vi.advanceTimersByTime(1);
    expect(count()).toBe(202);
  });

  it('drops entries below minLevel and everything when maxDays is 0; flushes on close', async () => {
    const { ctx, count, logsDb } = fakeCtx({ maxDays: 5, minLevel: 4, logIp: true });
    const writer = startRequestLogs(ctx);
    writer.add({ level: 0, message: 'info', data: {} });
    writer.add({ level: 8, message: 'error', data: { b: 1, a: 2 } });
    expect(writer.pending).toBe(1);
    for (const fn of ctx.onClose) await fn();
    expect(count()).toBe(1);
    expect(logsDb.prepare('SELECT data FROM _logs').pluck().get()).toBe('{"a":2,"b":1}');

    const off = fakeCtx({ maxDays: 0, minLevel: 0, logIp: true });
    const offWriter = startRequestLogs(off.ctx);
    offWriter.add({ level: 8, message: 'x', data: {} });
    offWriter.flush();
    expect(off.count()).toBe(0);
  });

  it('prunes old and below-level rows, and again on every settings change', () => {
    const { ctx, count, logsDb } = fakeCtx({ maxDays: 5, minLevel: 0, logIp: true });
    startRequestLogs(ctx);
    const insert = logsDb.prepare('INSERT INTO _logs (id, level, message, created, updated) VALUES (?, ?, ?, ?, ?)');
    const now = new Date('2024-03-10T12:00:00Z');
    insert.run('old', 0, 'old', '2024-03-01 00:00:00.000Z', '2024-03-01 00:00:00.000Z');
    insert.run('new', 0, 'new', '2024-03-09 00:00:00.000Z', '2024-03-09 00:00:00.000Z');
    insert.run('dbg', -4, 'debug', '2024-03-09 00:00:00.000Z', '2024-03-09 00:00:00.000Z');
    expect(pruneLogs(ctx, now)).toBe(2);
    expect(count()).toBe(1);
    ctx.settings.save({ logs: { maxDays: 5000, minLevel: 0, logIp: true } } as Settings);
    expect(logsDb.prepare('SELECT id FROM _logs').pluck().all()).toEqual(['new']);
    ctx.settings.save({ logs: { maxDays: 0, minLevel: 0, logIp: true } } as Settings);
    expect(count()).toBe(0);
  });
});
