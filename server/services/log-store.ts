// The `_logs` table of logs.db as the app uses it (built once per app: server/stores.ts): the
// writer's batches and prunes, one entry by id, and the hourly stats (logs-read.ts, whose kept
// counts a prune resets).
import type { DB, Statement } from '../db/database';
import { findLog, invalidateLogsStats, logsStats, type LogModel, type LogsStatsItem } from './logs-read';

/** A row as the writer inserts it. */
export interface LogRow {
  id: string;
  level: number;
  message: string;
  data: string;
  created: string;
}

export interface LogStore {
  find(id: string): LogModel | null;
  /** Hourly totals of the entries matching `filter` (logsStats). */
  stats(filter: string): Promise<LogsStatsItem[]>;
  /** Inserts `rows` in one transaction. */
  insertBatch(rows: LogRow[]): void;
  /** Deletes entries created at or before `before` or below `minLevel`; returns how many. */
  prune(before: string, minLevel: number): number;
  /** Forgets the stats' kept hourly counts (entries landed in an hour they counted as closed). */
  invalidateStats(): void;
}

export function createLogStore(db: DB): LogStore {
  let insertBatch: ((rows: LogRow[]) => void) | undefined;
  const batchWriter = () => {
    const insert: Statement = db.prepare(
      'INSERT INTO `_logs` (id, level, message, data, created, updated) VALUES (@id, @level, @message, @data, @created, @created)',
    );
    return db.transaction((rows: LogRow[]) => {
      for (const row of rows) insert.run(row);
    });
  };
  return {
    find: (id) => findLog(db, id),
    stats: (filter) => logsStats(db, filter),
    insertBatch(rows) {
      (insertBatch ??= batchWriter())(rows);
    },
    prune(before, minLevel) {
      const deleted = db.prepare('DELETE FROM `_logs` WHERE created <= ? OR level < ?').run(before, minLevel).changes;
      if (deleted > 0) invalidateLogsStats(db);
      return deleted;
    },
    invalidateStats: () => invalidateLogsStats(db),
  };
}
