// Stall benchmark: while a guest's list of an endless view runs until its query budget
// stops it, /api/health is probed every 20 ms. Reports the health p50/max (budget: 50 ms p50) and
// when the stopped list answered. Run alone: `npx tsx bench/stall.ts`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createApp } from '../server/app';

export interface StallBenchResult {
  healthP50Ms: number;
  healthMaxMs: number;
  probes: number;
  stoppedAfterMs: number;
  status: number;
}

const BUDGET_MS = 2000;

export async function benchStall(log: (line: string) => void = (l) => console.log(l)): Promise<StallBenchResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-stall-'));
  const app = await createApp({ dataDir: path.join(dir, 'pb_data'), dashboardDir: null, queryTimeoutMs: BUDGET_MS });
  try {
    const url = await app.listen('127.0.0.1', 0);
    const call = async (method: string, p: string, body?: unknown, token?: string) => {
      const res = await fetch(url + p, {
        method,
        headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: token } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const creds = { email: 'bench@example.com', password: '1234567890' };
    await call('POST', '/api/admins', { ...creds, passwordConfirm: creds.password });
    const token = (await call('POST', '/api/admins/auth-with-password', { identity: creds.email, password: creds.password })).body.token;
    const query = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x AS id FROM c';
    await call('POST', '/api/collections', { name: 'endless', type: 'view', listRule: '', options: { query } }, token);
    await call('GET', '/api/collections?perPage=1', undefined, token); // start the pool's first child

    const t0 = performance.now();
    let done = false;
    const slow = call('GET', '/api/collections/endless/records').finally(() => (done = true));
    const probes: number[] = [];
    while (!done) {
      const t = performance.now();
      await call('GET', '/api/health');
      probes.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
    const { status } = await slow;
    const stoppedAfterMs = performance.now() - t0;
    probes.sort((a, b) => a - b);
    const result = {
      healthP50Ms: probes[Math.floor(probes.length / 2)],
      healthMaxMs: probes[probes.length - 1],
      probes: probes.length,
      stoppedAfterMs,
      status,
    };
    log(
      `stall: /api/health during an endless view list: p50 ${result.healthP50Ms.toFixed(1)} ms, max ${result.healthMaxMs.toFixed(1)} ms ` +
        `(${result.probes} probes; budget 50 ms p50); the list was stopped with ${status} after ${stoppedAfterMs.toFixed(0)} ms (query budget ${BUDGET_MS} ms)`,
    );
    return result;
  } finally {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  void benchStall();
}
