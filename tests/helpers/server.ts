// Starts the real server (the app factory) on a free port and a temp data dir for one test file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import PocketBase from 'pocketbase';
import { createApp, type App } from '../../server/app';
import type { AppOptions } from '../../server/context';
import { spawnServer } from './server-process';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURE_DIR = path.resolve(ROOT, '..', 'shared', 'fixtures', 'pocketbase-0.22.12-pb_data');
/** The built dashboard the e2e tests serve; OUTPOST_DASHBOARD_DIR points at another build. */
export const DASHBOARD_DIR = process.env.OUTPOST_DASHBOARD_DIR ?? path.join(ROOT, 'dist');

/** Every admin and auth record in the fixture has this password. */
export const FIXTURE_PASSWORD = '1234567890';

export interface TestServer {
  app: App;
  url: string;
  dataDir: string;
  /** A fresh SDK client (no auth) for this server. */
  client(): PocketBase;
  close(): Promise<void>;
}

export function tempDir(prefix = 'outpost-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * Set by the 'server-built' vitest project (vitest.config.ts): startServer then runs the built
 * server (dist-server's launcher, on its warm start with the code cache) as a child process instead
 * of the app in this process, so the test files that talk HTTP only also cover what users run.
 */
const BUILT_MAIN = process.env.OUTPOST_TEST_BUILT_MAIN;

export async function startServer(
  opts: { fixture?: boolean; dashboard?: boolean; queryTimeoutMs?: number; options?: Partial<AppOptions> } = {},
): Promise<TestServer> {
  const dataDir = path.join(tempDir(), 'pb_data');
  if (opts.fixture) fs.cpSync(FIXTURE_DIR, dataDir, { recursive: true });
  if (BUILT_MAIN) return startBuiltServer(BUILT_MAIN, dataDir, opts);
  const app = await createApp({ ...opts.options, dataDir, dashboardDir: opts.dashboard ? DASHBOARD_DIR : null, queryTimeoutMs: opts.queryTimeoutMs ?? opts.options?.queryTimeoutMs });
  const url = await app.listen('127.0.0.1', 0);
  return {
    app,
    url,
    dataDir,
    client: () => {
      const pb = new PocketBase(url);
      pb.autoCancellation(false);
      return pb;
    },
    async close() {
      await app.close();
      fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
    },
  };
}

/** The built server in a child process, with the serve flags that stand for `opts`. */
async function startBuiltServer(main: string, dataDir: string, opts: Parameters<typeof startServer>[0] = {}): Promise<TestServer> {
  const args = [main, 'serve', `--dir=${dataDir}`];
  const queryTimeoutMs = opts.queryTimeoutMs ?? opts.options?.queryTimeoutMs;
  if (queryTimeoutMs) args.push(`--queryTimeout=${queryTimeoutMs / 1000}`);
  const { queryTimeoutMs: _timeout, ...others } = opts.options ?? {};
  if (Object.keys(others).length) throw new Error(`startServer: no serve flag for ${Object.keys(others).join(', ')}; run this file in the 'server' project only`);
  const proc = await spawnServer(process.execPath, args, path.dirname(dataDir));
  return {
    get app(): App {
      throw new Error("this test reads the app in-process: run it in the 'server' project only");
    },
    url: proc.url,
    dataDir,
    client: () => {
      const pb = new PocketBase(proc.url);
      pb.autoCancellation(false);
      return pb;
    },
    async close() {
      await proc.stop();
      fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
    },
  };
}

/** Plain fetch against the server, returning status and parsed JSON (or text). */
export async function http(
  base: string,
  method: string,
  p: string,
  opts: { body?: unknown; raw?: string; token?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.Authorization = opts.token;
  let body: string | undefined;
  if (opts.raw !== undefined) {
    body = opts.raw;
    headers['Content-Type'] ??= 'application/json';
  } else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(base + p, { method, headers, body });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** The fixture's pre-signed token of admin test@example.com (valid until 2039, per fixtures/README.md). */
export const FIXTURE_ADMIN_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6InN5d2JoZWNuaDQ2cmhtMCIsInR5cGUiOiJhZG1pbiIsImV4cCI6MjIwODk4NTI2MX0.M1m--VOqGyv0d23eeUc0r9xE8ZzHaYVmVFw1VZW6gT8';
