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

export interface WrkRequests {
  method?: string;
  /** JSON body (sent as application/json) */
  body?: string;
  headers?: Record<string, string>;
  /** Lua defining wrk's `request()` (each request built anew, e.g. a new body each time): replaces method and body. */
  request?: string;
}

const lua = (v: string) => JSON.stringify(v);

// wrk's `done` hook prints the figures as one JSON line (latencies in µs)
const script = ({ method = 'GET', body = '', headers = {}, request = '' }: WrkRequests) => `
wrk.method = ${lua(method)}
${body ? `wrk.body = ${lua(body)}\nwrk.headers["Content-Type"] = "application/json"` : ''}
${Object.entries(headers).map(([k, v]) => `wrk.headers[${lua(k)}] = ${lua(v)}`).join('\n')}
${request}
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"us":%d,"p50":%d,"p99":%d,"errors":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.status + e.timeout))
end
`;

/** `concurrency` keep-alive connections for `seconds` against `url` (one wrk thread: the server gets the rest). */
export async function wrkLoad(url: string, concurrency: number, seconds: number, requests: WrkRequests = {}): Promise<Load> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-wrk-'));
  try {
    const file = path.join(dir, 'load.lua');
    fs.writeFileSync(file, script(requests));
    const { stdout } = await run('wrk', ['-t1', `-c${concurrency}`, `-d${seconds}s`, '--timeout', '10s', '-s', file, url]);
    const line = stdout.split('\n').find((l) => l.startsWith('{"requests"'));
    if (!line) throw new Error(`wrk printed no figures: ${stdout}`);
    const r = JSON.parse(line) as { requests: number; us: number; p50: number; p99: number; errors: number };
    return { rps: Math.round(r.requests / (r.us / 1e6)), p50: r.p50 / 1000, p99: r.p99 / 1000, errors: r.errors };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
