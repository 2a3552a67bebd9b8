// What every route module receives: the stores over the open databases (server/stores.ts), the
// read pools and the long-lived services. The raw connections stay with the composition root.
import type { ReadPool } from './db/database';
import type { SettingsStore } from './services/settings-store';
import type { Stores } from './stores';
import type { HookHost } from './hooks/host';
import type { AdminAccess } from '../src/lib/roles';
import type { ClusterChannel } from './cluster/channel';

type AuthKind = 'guest' | 'admin' | 'authRecord';

/** Who made a request, resolved once per request from the Authorization header. */
export interface RequestAuth {
  kind: AuthKind;
  /** The _admins row (public fields) when kind is 'admin'. */
  admin?: Record<string, unknown>;
  /** What the admin may do (its role, read for this request) when kind is 'admin'. */
  access?: AdminAccess;
  /** The auth record when kind is 'authRecord'. */
  record?: Record<string, unknown>;
  /** The auth record's collection id when kind is 'authRecord'. */
  collectionId?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: RequestAuth;
    /** Set by the JSON parser when the body was empty (record writes reject that). */
    emptyJsonBody?: boolean;
    /** The error a failed request ended with, for the request log (level 8, error + details). */
    failure?: { message: string; details?: unknown };
    /** A success is not logged (a pb_hooks route without $apis.activityLogger, as in 0.22). */
    quietOnSuccess?: boolean;
    /** The request log entry's id, given out when the request starts (the audit trail names it). */
    logId?: string;
  }
}

export interface AppOptions {
  /** The pb_data directory: data.db, logs.db, storage/. Created when missing. */
  dataDir: string;
  /** Built dashboard to serve under /_/ (null: do not serve it). */
  dashboardDir?: string | null;
  /** Log each request to the console (the CLI turns it on, tests keep it off). */
  consoleLog?: boolean;
  /** Time allowed for each call to an OAuth2 provider (token, user info); 15 s by default. */
  oauth2TimeoutMs?: number;
  /** Realtime connections without a message for this long are closed (default 5 minutes, as 0.22). */
  realtimeIdleMs?: number;
  /** CORS allowed origins (`serve --origins`); default ["*"]. */
  allowedOrigins?: string[];
  /** Budget of each read query an API request starts, in ms (PocketBase's --queryTimeout; default 30 s). */
  queryTimeoutMs?: number;
  /** JS migrations folder (`--migrationsDir`); unset: 0.22's default, <dataDir>/../pb_migrations. */
  migrationsDir?: string;
  /** Write a JS migration for every collection change (`--automigrate`, default true in the CLI). */
  automigrate?: boolean;
  /** Folder served at / (`--publicDir`); unset or null: nothing is served there. */
  publicDir?: string | null;
  /** A missing path under / answers the public folder's index.html (`--indexFallback`, default true). */
  indexFallback?: boolean;
  /** Name of the environment variable holding the settings encryption key (`--encryptionEnv`). */
  encryptionEnv?: string;
  /** `--dev`: SQL statements and request logs printed to the console. */
  dev?: boolean;
  /** pb_hooks folder (`--hooksDir`); unset or null: no hooks run. */
  hooksDir?: string | null;
  /** At most this many hook executors (`--hooksPool`, default 25). */
  hooksPool?: number;
  /** Reload the hooks when their files change (`--hooksWatch`). */
  hooksWatch?: boolean;
  /** The channel to the other members of a cluster (`serve --workers`, `--natsUrl`); unset: alone. */
  cluster?: ClusterChannel;
}

export interface AppContext extends Stores {
  options: AppOptions;
  dataDir: string;
  /** Read-only connections to data.db under a time budget: every read a request starts goes here. */
  reads: ReadPool;
  /** The same for logs.db. */
  logReads: ReadPool;
  settings: SettingsStore;
  /** Work to run when the app closes (flush log batches, stop timers). */
  onClose: Array<() => void | Promise<void>>;
  /**
   * Restarts the application in-process on the same port (backup restore): new requests wait,
   * this app closes, `plan.apply` changes the data dir, a fresh app opens on it; when that fails,
   * `plan.revert` runs and the previous content opens again. Starts once `after` settles.
   */
  restart?: (plan: RestartPlan, after?: Promise<void>) => Promise<void>;
  /** The pb_hooks runtime (server/hooks/host.ts); null when there are no hook files. */
  hooks: HookHost | null;
}

export interface RestartPlan {
  apply(): Promise<void>;
  revert(): Promise<void>;
  /** Runs once the app is up on the applied content. */
  done?(): Promise<void>;
}
