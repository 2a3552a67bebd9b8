// The built server (scripts/build-server.mjs, as `npm run build` makes it) on a project folder
// made from the PocketBase 0.22.12 fixture: pb_data/ next to pb_migrations/, which holds one file
// the first start applies. For the tests of the migrations a backup's restore would run
// (tests/server/ and tests/e2e/backups-pending-migrations.test.ts).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_DIR, ROOT, http, tempDir } from './server';
import { spawnServer, type ServerProcess } from './server-process';

/** Applied at the first start, so every backup has it in `_migrations`: never pending. */
export const SEED_MIGRATION = '1700000000_seed.js';

export interface BuiltProject {
  dir: string;
  dataDir: string;
  migrationsDir: string;
  /** The current server process (set by start()). */
  server: ServerProcess | undefined;
  url: string;
  /** `serve --dir=pb_data` from the project folder (automigrate on, as the CLI's default). */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** An admin request to the current server (the fixture's admin token). */
  api(method: string, p: string, body?: unknown): ReturnType<typeof http>;
  close(): Promise<void>;
}

/** Bundles the current sources into tests/.tmp/<name> (each test file its own, so runs never race). */
export function buildServer(name: string): string {
  const outdir = path.join(ROOT, 'tests', '.tmp', name);
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-server.mjs'), outdir], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`the server build failed: ${built.stderr}`);
  return path.join(outdir, 'main.mjs');
}

export function builtProject(main: string): BuiltProject {
  const dir = tempDir('outpost-pending-');
  const dataDir = path.join(dir, 'pb_data');
  const migrationsDir = path.join(dir, 'pb_migrations');
  fs.cpSync(FIXTURE_DIR, dataDir, { recursive: true });
  fs.mkdirSync(migrationsDir);
  fs.writeFileSync(path.join(migrationsDir, SEED_MIGRATION), 'migrate((db) => {}, (db) => {})\n');
  const project: BuiltProject = {
    dir,
    dataDir,
    migrationsDir,
    server: undefined,
    url: '',
    async start() {
      project.server = await spawnServer(process.execPath, [main, 'serve', '--dir=pb_data'], dir);
      project.url = project.server.url;
    },
    async stop() {
      await project.server?.stop();
      project.server = undefined;
    },
    api: (method, p, body) => http(project.url, method, p, { token: FIXTURE_ADMIN_TOKEN, body }),
    async close() {
      await project.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return project;
}

/** Creates a base collection through the API; returns the migration file automigrate wrote. */
export async function createCollection(project: BuiltProject, name: string): Promise<string> {
  const res = await project.api('POST', '/api/collections', { name, type: 'base', schema: [{ name: 'title', type: 'text' }] });
  if (res.status !== 200) throw new Error(`creating ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  const file = res.headers.get('x-outpost-migration');
  if (!file) throw new Error(`creating ${name} wrote no migration file`);
  return file;
}

export const pendingOf = (project: BuiltProject, key: string) => project.api('GET', `/api/outpost/backups/${encodeURIComponent(key)}/migrations`);
