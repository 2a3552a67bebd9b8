// Reading logs.db: which index SQLite picks for the filters the Logs page sends, and the hourly
// stats computed in slices (same totals as one GROUP BY, odd dates kept).
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { initLogsLayout } from '../../server/db/logs-layout';
import { FilterError } from '../../server/query/filter-ast';
import { compileFilter } from '../../server/query/filter-compiler';
import { createLogsResolver, invalidateLogsStats, logsStats } from '../../server/services/logs-read';

function logsDb(rows: Array<{ level: number; auth: string; created: string; message?: string }> = []) {
  const db = openDatabase(':memory:');
  initLogsLayout(db);
  const insert = db.prepare('INSERT INTO _logs (id, level, message, data, created, updated) VALUES (?, ?, ?, ?, ?, ?)');
  rows.forEach((r, i) => insert.run(`log${String(i).padStart(12, '0')}`, r.level, r.message ?? 'GET /x', JSON.stringify({ auth: r.auth }), r.created, r.created));
  return db;
}

function plan(db: ReturnType<typeof logsDb>, sql: string, params: unknown[]): string {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail).join(' | ');
}

describe('logs filters use the indexes', () => {
  const db = logsDb();
  const listPlan = (filter: string) => {
    const where = compileFilter(filter, createLogsResolver());
    return plan(db, `SELECT * FROM \`_logs\` WHERE ${where.sql} ORDER BY rowid DESC LIMIT 50`, where.params);
  };

  it('level, message and data.auth comparisons search their index', () => {
    expect(listPlan('level = 8')).toContain('_logs_level_idx');
    expect(listPlan('message = "GET /api/x"')).toContain('_logs_message_idx');
    expect(listPlan('data.auth = "guest"')).toContain('_logs_data_auth_idx');
  });

  it('the stats of the default admin preset read the stats index only', () => {
    const where = compileFilter('data.auth != "admin" && level > 0', createLogsResolver());
    const sql = `SELECT count(*), strftime('%Y-%m-%d %H:00:00', \`created\`) AS date FROM \`_logs\` WHERE strftime('%Y-%m-%d %H:00:00', \`created\`) >= ? AND strftime('%Y-%m-%d %H:00:00', \`created\`) < ? AND (${where.sql}) GROUP BY date`;
    expect(plan(db, sql, ['2024-01-01 00:00:00', '2024-01-02 00:00:00', ...where.params])).toMatch(/COVERING INDEX _logs_stats_idx|USING INDEX _logs_stats_idx/);
  });

  it('deeper data paths still work through bound json paths; unknown fields are FilterErrors', () => {
    const where = compileFilter('data.a.b = 1 && data.auth = "x"', createLogsResolver());
    expect(where.params).toContain('$."a"."b"');
    expect(where.sql).toContain("json_extract(`_logs`.data, '$.auth')");
    expect(() => compileFilter("data.x' = 1", createLogsResolver())).toThrow(FilterError);
    expect(() => compileFilter('nope = 1', createLogsResolver())).toThrow(FilterError);
  });
});

describe('logsStats', () => {
  it('counts per hour over many slices, oldest first, with the filter applied', async () => {
    const rows: Array<{ level: number; auth: string; created: string }> = [];
    const start = Date.parse('2024-03-01T00:00:00Z');
    for (let i = 0; i < 24 * 40; i++) {
      const created = new Date(start + i * 45 * 60_000).toISOString().replace('T', ' ');
      rows.push({ level: i % 3 === 0 ? 8 : 0, auth: i % 4 === 0 ? 'admin' : 'guest', created });
    }
    rows.push({ level: 0, auth: 'guest', created: 'not a date' });
    const db = logsDb(rows);
    const direct = db
      .prepare(`SELECT count(*) AS total, strftime('%Y-%m-%d %H:00:00', created) AS date FROM _logs WHERE json_extract(data, '$.auth') IS NOT 'admin' GROUP BY date ORDER BY date`)
      .all() as Array<{ total: number; date: string | null }>;
    const stats = await logsStats(db, '(data.auth!="admin")');
    expect(stats).toEqual(direct.map((r) => ({ total: r.total, date: r.date ? `${r.date}.000Z` : '' })));
    expect(stats[0]).toEqual({ total: 1, date: '' });
    expect(stats.slice(1).every((s) => /^\d{4}-\d\d-\d\d \d\d:00:00\.000Z$/.test(s.date))).toBe(true);
    const all = await logsStats(db, '');
    expect(all.reduce((n, s) => n + s.total, 0)).toBe(rows.length);
  });

  it('answers [] on an empty table and rejects a bad filter before querying', async () => {
    expect(await logsStats(logsDb(), '')).toEqual([]);
    await expect(logsStats(logsDb(), 'level >')).rejects.toBeInstanceOf(FilterError);
  });

  it('keeps closed hours per filter and counts only newer hours again, until invalidated', async () => {
    const now = Date.parse('2024-05-10T12:30:00Z');
    const at = (iso: string) => new Date(iso).toISOString().replace('T', ' ');
    const db = logsDb([
      { level: 0, auth: 'guest', created: at('2024-05-10T09:10:00Z') },
      { level: 0, auth: 'guest', created: at('2024-05-10T12:05:00Z') },
    ]);
    const insert = (id: string, created: string) =>
      db.prepare("INSERT INTO _logs (id, level, message, data, created, updated) VALUES (?, 0, 'x', '{}', ?, ?)").run(id, created, created);
    expect(await logsStats(db, 'level = 0', now)).toEqual([
      { total: 1, date: '2024-05-10 09:00:00.000Z' },
      { total: 1, date: '2024-05-10 12:00:00.000Z' },
    ]);
    insert('late1', at('2024-05-10T09:20:00Z')); // behind the server's back, in a closed hour
    insert('cur01', at('2024-05-10T12:20:00Z')); // in the open hour
    const again = await logsStats(db, 'level = 0', now);
    expect(again).toEqual([
      { total: 1, date: '2024-05-10 09:00:00.000Z' }, // kept
      { total: 2, date: '2024-05-10 12:00:00.000Z' }, // counted again
    ]);
    expect(await logsStats(db, '', now)).toEqual(again.map((i, n) => (n === 0 ? { ...i, total: 2 } : i))); // another filter: its own count
    invalidateLogsStats(db);
    expect((await logsStats(db, 'level = 0', now))[0]).toEqual({ total: 2, date: '2024-05-10 09:00:00.000Z' });
  });
});
