// Load from wrk (Debian's `wrk` package) when it is installed: it drives the same keep-alive
// clients as bench/hooks-load.mjs for a fraction of the CPU (C and an event loop, no per-request
// objects), so on this 2-core machine a bench measures the server rather than its load generator.
// Without wrk the Node generator is used and the bench says so.
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Load {
  rps: number;
  /** ms */
  p50: number;
  p99: number;
  errors: number;
}

export const hasWrk = (): boolean => spawnSync('wrk', ['--version']).error === undefined;

// wrk's `done` hook prints the figures as one JSON line (latencies in µs); a body makes it a POST
const script = (method: string, body: string) => `
wrk.method = ${JSON.stringify(method)}
${body ? `wrk.body = ${JSON.stringify(body)}\nwrk.headers["Content-Type"] = "application/json"` : ''}
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"us":%d,"p50":%d,"p99":%d,"errors":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.status + e.timeout))
end
`;

/** `concurrency` keep-alive connections for `seconds` against `url` (one wrk thread: the server gets the rest). */
export async function wrkLoad(url: string, concurrency: number, seconds: number, method = 'GET', body = ''): Promise<Load> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-wrk-'));
  try {
    const lua = path.join(dir, 'load.lua');
    fs.writeFileSync(lua, script(method, body));
    const { stdout } = await run('wrk', ['-t1', `-c${concurrency}`, `-d${seconds}s`, '--timeout', '10s', '-s', lua, url]);
    const line = stdout.split('\n').find((l) => l.startsWith('{"requests"'));
    if (!line) throw new Error(`wrk printed no figures: ${stdout}`);
    const r = JSON.parse(line) as { requests: number; us: number; p50: number; p99: number; errors: number };
    return { rps: Math.round(r.requests / (r.us / 1e6)), p50: r.p50 / 1000, p99: r.p99 / 1000, errors: r.errors };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
