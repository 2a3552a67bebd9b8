// One real server on a copy of the PocketBase 0.22.12 fixture per test file: `srv` is a live
// binding, set before the file's tests by withFixtureServer() (each test file has its own copy
// of this module, so files never share a server).
import { afterAll, beforeAll } from 'vitest';
import { startServer, type TestServer } from './server';

export let srv: TestServer;

/**
 * Starts `srv` before the file's tests and stops it after them. `settleMs`: a pause before
 * closing, for files whose streamed responses can reach the in-process client before the server
 * saw their 'finish' (close() would wait out the keep-alive socket).
 */
export function withFixtureServer(opts: { settleMs?: number } = {}) {
  beforeAll(async () => {
    srv = await startServer({ fixture: true });
  });
  afterAll(async () => {
    if (opts.settleMs) await new Promise((r) => setTimeout(r, opts.settleMs));
    await srv?.close();
  });
}
