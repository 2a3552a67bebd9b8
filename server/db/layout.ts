// data.db as PocketBase 0.22.12 leaves it after its first start: the system tables (same DDL as
// a real 0.22 pb_data, so PocketBase itself can open a directory we created), its 13 app
// migrations marked as applied, and the default `users` auth collection. An existing data.db is
// never touched.
import type { DB } from './database';
import { transaction } from './database';

/** PocketBase's stored timestamp format: `2006-01-02 15:04:05.000Z` (UTC, always milliseconds). */
export function toDateTime(date: Date): string {
  return date.toISOString().replace('T', ' ');
}

export const nowDateTime = (): string => toDateTime(new Date());

/** The Go app migrations of v0.22.12, in order; PocketBase skips those listed in _migrations. */
const APP_MIGRATIONS = [
  '1640988000_init.go',
  '1673167670_multi_match_migrate.go',
  '1677152688_rename_authentik_to_oidc.go',
  '1679943780_normalize_single_multiple_values.go',
  '1679943781_add_indexes_column.go',
  '1685164450_check_fk.go',
  '1689579878_renormalize_single_multiple_values.go',
  '1690319366_reset_null_values.go',
  '1690454337_transform_relations_to_views.go',
  '1691747913_resave_views.go',
  '1692609521_copy_display_fields.go',
  '1701496825_allow_single_oauth2_provider_in_multiple_auth_collections.go',
  '1702134272_set_default_json_max_size.go',
] as const;

/** The system tables' DDL, byte for byte as sqlite_master holds it in a 0.22 data.db. */
const SYSTEM_DDL = [
  'CREATE TABLE `_migrations` (file VARCHAR(255) PRIMARY KEY NOT NULL, applied INTEGER NOT NULL)',
  "CREATE TABLE `_admins` (\n\t\t\t\t`id`              TEXT PRIMARY KEY,\n\t\t\t\t`avatar`          INTEGER DEFAULT 0 NOT NULL,\n\t\t\t\t`email`           TEXT UNIQUE NOT NULL,\n\t\t\t\t`tokenKey`        TEXT UNIQUE NOT NULL,\n\t\t\t\t`passwordHash`    TEXT NOT NULL,\n\t\t\t\t`lastResetSentAt` TEXT DEFAULT \"\" NOT NULL,\n\t\t\t\t`created`         TEXT DEFAULT \"\" NOT NULL,\n\t\t\t\t`updated`         TEXT DEFAULT \"\" NOT NULL\n\t\t\t)",
  "CREATE TABLE `_collections` (\n\t\t\t\t`id`         TEXT PRIMARY KEY,\n\t\t\t\t`system`     BOOLEAN DEFAULT FALSE NOT NULL,\n\t\t\t\t`type`       TEXT DEFAULT \"base\" NOT NULL,\n\t\t\t\t`name`       TEXT UNIQUE NOT NULL,\n\t\t\t\t`schema`     JSON DEFAULT \"[]\" NOT NULL,\n\t\t\t\t`listRule`   TEXT DEFAULT NULL,\n\t\t\t\t`viewRule`   TEXT DEFAULT NULL,\n\t\t\t\t`createRule` TEXT DEFAULT NULL,\n\t\t\t\t`updateRule` TEXT DEFAULT NULL,\n\t\t\t\t`deleteRule` TEXT DEFAULT NULL,\n\t\t\t\t`options`    JSON DEFAULT \"{}\" NOT NULL,\n\t\t\t\t`created`    TEXT DEFAULT \"\" NOT NULL,\n\t\t\t\t`updated`    TEXT DEFAULT \"\" NOT NULL\n\t\t\t, `indexes` JSON DEFAULT \"[]\" NOT NULL)",
  "CREATE TABLE `_params` (\n\t\t\t\t`id`      TEXT PRIMARY KEY,\n\t\t\t\t`key`     TEXT UNIQUE NOT NULL,\n\t\t\t\t`value`   JSON DEFAULT NULL,\n\t\t\t\t`created` TEXT DEFAULT \"\" NOT NULL,\n\t\t\t\t`updated` TEXT DEFAULT \"\" NOT NULL\n\t\t\t)",
  "CREATE TABLE `_externalAuths` (\n\t\t\t\t`id`           TEXT PRIMARY KEY,\n\t\t\t\t`collectionId` TEXT NOT NULL,\n\t\t\t\t`recordId`     TEXT NOT NULL,\n\t\t\t\t`provider`     TEXT NOT NULL,\n\t\t\t\t`providerId`   TEXT NOT NULL,\n\t\t\t\t`created`      TEXT DEFAULT \"\" NOT NULL,\n\t\t\t\t`updated`      TEXT DEFAULT \"\" NOT NULL,\n\t\t\t\t---\n\t\t\t\tFOREIGN KEY (`collectionId`) REFERENCES `_collections` (`id`) ON UPDATE CASCADE ON DELETE CASCADE\n\t\t\t)",
  'CREATE UNIQUE INDEX _externalAuths_record_provider_idx on `_externalAuths` (`collectionId`, `recordId`, `provider`)',
  'CREATE UNIQUE INDEX _externalAuths_collection_provider_idx on `_externalAuths` (`collectionId`, `provider`, `providerId`)',
];

const USERS_COLLECTION_ID = '_pb_users_auth_';

/** The users table: the auth system columns plus the default name and avatar fields. */
const USERS_DDL = [
  "CREATE TABLE `users` (`avatar` TEXT DEFAULT '', `created` TEXT DEFAULT '' NOT NULL, `email` TEXT DEFAULT '' NOT NULL, `emailVisibility` BOOLEAN DEFAULT FALSE NOT NULL, `id` TEXT PRIMARY KEY, `lastResetSentAt` TEXT DEFAULT '' NOT NULL, `lastVerificationSentAt` TEXT DEFAULT '' NOT NULL, `name` TEXT DEFAULT '', `passwordHash` TEXT NOT NULL, `tokenKey` TEXT NOT NULL, `updated` TEXT DEFAULT '' NOT NULL, `username` TEXT NOT NULL, `verified` BOOLEAN DEFAULT FALSE NOT NULL)",
  'CREATE UNIQUE INDEX __pb_users_auth__username_idx ON `users` (`username`)',
  "CREATE UNIQUE INDEX __pb_users_auth__email_idx ON `users` (`email`) WHERE `email` != ''",
  'CREATE UNIQUE INDEX __pb_users_auth__tokenKey_idx ON `users` (`tokenKey`)',
];

/** The `_collections` row 0.22's init migration writes (JSON as Go encodes it). */
const USERS_SCHEMA = [
  {
    system: false,
    id: 'users_name',
    name: 'name',
    type: 'text',
    required: false,
    presentable: false,
    unique: false,
    options: { min: null, max: null, pattern: '' },
  },
  {
    system: false,
    id: 'users_avatar',
    name: 'avatar',
    type: 'file',
    required: false,
    presentable: false,
    unique: false,
    options: {
      mimeTypes: ['image/jpeg', 'image/png', 'image/svg+xml', 'image/gif', 'image/webp'],
      thumbs: null,
      maxSelect: 1,
      maxSize: 5242880,
      protected: false,
    },
  },
];

const USERS_OPTIONS = {
  allowEmailAuth: true,
  allowOAuth2Auth: true,
  allowUsernameAuth: true,
  exceptEmailDomains: null,
  manageRule: null,
  minPasswordLength: 8,
  onlyEmailDomains: null,
  onlyVerified: false,
  requireEmail: false,
};

const SYSTEM_TABLES = ['_migrations', '_admins', '_collections', '_params', '_externalAuths'];

/** Creates the 0.22 layout on a new data.db; does nothing when any system table already exists. */
export function initDataLayout(db: DB): void {
  transaction(db, () => {
    const placeholders = SYSTEM_TABLES.map(() => '?').join(', ');
    const existing = db
      .prepare(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN (${placeholders})`)
      .get(...SYSTEM_TABLES) as { n: number };
    if (existing.n > 0) return;

    for (const sql of SYSTEM_DDL) db.exec(sql);

    // PocketBase records `applied` in microseconds; keep them increasing like a real run.
    const insertMigration = db.prepare('INSERT INTO _migrations (file, applied) VALUES (?, ?)');
    const startMicros = Date.now() * 1000;
    APP_MIGRATIONS.forEach((file, i) => insertMigration.run(file, startMicros + i));

    createUsersCollection(db);
  });
}

function createUsersCollection(db: DB): void {
  const now = nowDateTime();
  const ownerRule = 'id = @request.auth.id';
  db.prepare(
    `INSERT INTO _collections (id, system, type, name, schema, indexes, listRule, viewRule, createRule, updateRule, deleteRule, options, created, updated)
     VALUES (?, 0, 'auth', 'users', ?, '[]', ?, ?, '', ?, ?, ?, ?, ?)`,
  ).run(
    USERS_COLLECTION_ID,
    JSON.stringify(USERS_SCHEMA),
    ownerRule,
    ownerRule,
    ownerRule,
    ownerRule,
    JSON.stringify(USERS_OPTIONS),
    now,
    now,
  );
  for (const sql of USERS_DDL) db.exec(sql);
}
