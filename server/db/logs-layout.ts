// PocketBase 0.22's logs.db: the `_logs` table with its indexes and the `_migrations` rows of the
// four logs migrations, with DDL identical to what PocketBase writes so either server can open
// the other's data dir. An existing logs.db is left as it is, except for one extra index of
// Outpost's (PocketBase ignores it), created once when missing.
import type { DB } from './database';

const MIGRATIONS_DDL = 'CREATE TABLE `_migrations` (file VARCHAR(255) PRIMARY KEY NOT NULL, applied INTEGER NOT NULL)';

// Whitespace (tabs) included: sqlite_master keeps the text verbatim.
const LOGS_DDL = [
  'CREATE TABLE `_logs` (',
  "\t\t\t\t`id`      TEXT PRIMARY KEY DEFAULT ('r'||lower(hex(randomblob(7)))) NOT NULL,",
  '\t\t\t\t`level`   INTEGER DEFAULT 0 NOT NULL,',
  '\t\t\t\t`message` TEXT DEFAULT "" NOT NULL,',
  '\t\t\t\t`data`    JSON DEFAULT "{}" NOT NULL,',
  "\t\t\t\t`created` TEXT DEFAULT (strftime('%Y-%m-%d %H:%M:%fZ')) NOT NULL,",
  "\t\t\t\t`updated` TEXT DEFAULT (strftime('%Y-%m-%d %H:%M:%fZ')) NOT NULL",
  '\t\t\t)',
].join('\n');

const LOGS_INDEXES = [
  'CREATE INDEX _logs_level_idx on `_logs` (`level`)',
  'CREATE INDEX _logs_message_idx on `_logs` (`message`)',
  "CREATE INDEX _logs_data_auth_idx on `_logs` (JSON_EXTRACT(`data`, '$.auth'))",
  "CREATE INDEX _logs_created_hour_idx on `_logs` (strftime('%Y-%m-%d %H:00:00', `created`))",
];

/**
 * Outpost's own index: the hourly stats of the Logs page grouped with the admin filter the page
 * sends by default (`data.auth != "admin"`) and level filters, answered from the index alone
 * (about 4x faster than parsing every row's JSON on a million logs). Creating it on an existing
 * million-row logs.db takes a few seconds, once, at start.
 */
const LOGS_STATS_INDEX =
  "CREATE INDEX IF NOT EXISTS _logs_stats_idx ON `_logs` (strftime('%Y-%m-%d %H:00:00', `created`), JSON_EXTRACT(`data`, '$.auth'), `level`)";

const LOGS_MIGRATIONS = [
  '1640988000_init.go',
  '1660821103_add_user_ip_column.go',
  '1677760279_uppsercase_method.go',
  '1699187560_logs_generalization.go',
];

export function initLogsLayout(db: DB): void {
  const has = (name: string) =>
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
  if (!has('_logs') || !has('_migrations')) createLayout(db, has);
  db.exec(LOGS_STATS_INDEX);
}

function createLayout(db: DB, has: (table: string) => boolean): void {
  db.transaction(() => {
    if (!has('_migrations')) db.exec(MIGRATIONS_DDL);
    if (!has('_logs')) {
      db.exec(LOGS_DDL);
      for (const ddl of LOGS_INDEXES) db.exec(ddl);
      // `applied` is microseconds since the epoch, as PocketBase records it
      const insert = db.prepare('INSERT OR IGNORE INTO `_migrations` (file, applied) VALUES (?, ?)');
      const now = Date.now() * 1000;
      LOGS_MIGRATIONS.forEach((file, i) => insert.run(file, now + i));
    }
  }).immediate();
}
