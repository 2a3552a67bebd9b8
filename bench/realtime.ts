// Realtime benchmark: a server in its own process, 1,000 SSE clients (guests)
// subscribed to one collection, and an admin writing records one after another. Prints:
//  - latency from the start of a write to the LAST client receiving its event (p50/p99);
//  - the writer's throughput (sequential creates per second) with no subscriber and with 1,000;
//  - the server's resident memory: idle, with the clients connected, after the writes.
// The clients run in a child process (bench/realtime-clients.ts); it shares the machine's cores
// with the server, so the latency is an upper bound. Run alone: `npx tsx bench/realtime.ts`
// (BENCH_CLIENTS to change the number of clients).
import { fork, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort } from './free-port';

const ROOT = path.resolve(import.meta.dirname, '..');

export interface RealtimeBenchResult {
  clients: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  writesPerSecIdle: number;
  writesPerSecSubscribed: number;
  rssIdleMb: number;
  rssConnectedMb: number;
  rssAfterMb: number;
  /** Server CPU time per write (user + system), without and with the subscribers. */
  cpuPerWriteIdleMs: number;
  cpuPerWriteSubscribedMs: number;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};


function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** The process's CPU time so far (user + system) in ms. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (100/s)
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
function call(url: string, method: string, p: string, body?: unknown, token?: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      `${url}${p}`,
      { method, agent, headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: token } : {}) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

export async function benchRealtime(opts: { clients?: number; log?: (line: string) => void } = {}): Promise<RealtimeBenchResult> {
  const total = opts.clients ?? Number(process.env.BENCH_CLIENTS ?? 1000);
  const log = opts.log ?? ((line: string) => console.log(line));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-realtime-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', 'serve', `--http=127.0.0.1:${port}`, `--dir=${path.join(dir, 'pb_data')}`], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  let clientsProc: ChildProcess | null = null;
  const now = () => performance.timeOrigin + performance.now();
  try {
    for (const t0 = Date.now(); ; ) {
      try {
        if ((await call(url, 'GET', '/api/health')).status === 200) break;
      } catch {
        /* not up yet */
      }
      if (Date.now() - t0 > 30_000) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 20));
    }
    const admin = { email: 'bench@example.com', password: '1234567890' };
    await call(url, 'POST', '/api/admins', { ...admin, passwordConfirm: admin.password });
    const token = (await call(url, 'POST', '/api/admins/auth-with-password', { identity: admin.email, password: admin.password })).body.token as string;
    const created = await call(url, 'POST', '/api/collections', { name: 'bench', type: 'base', listRule: '', viewRule: '', schema: [{ name: 'title', type: 'text' }] }, token);
    if (created.status !== 200) throw new Error(`collection: ${JSON.stringify(created.body)}`);

    const writes = async (n: number, tag: string, onStart?: (id: string, t: number) => void) => {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) {
        const id = `${tag}${String(i).padStart(15 - tag.length, '0')}`;
        onStart?.(id, performance.now());
        const res = await call(url, 'POST', '/api/collections/bench/records', { id, title: `${tag} ${i}` }, token);
        if (res.status !== 200) throw new Error(`write: ${JSON.stringify(res.body)}`);
      }
      return n / ((performance.now() - t0) / 1000);
    };

    const rssIdleMb = rssMb(child.pid!);
    let cpu0 = cpuMs(child.pid!);
    const writesPerSecIdle = await writes(200, 'idle');
    const cpuPerWriteIdleMs = (cpuMs(child.pid!) - cpu0) / 200;

    // connect and subscribe the clients (in their own process)
    const proc = fork(path.join(ROOT, 'bench', 'realtime-clients.ts'), [], { cwd: ROOT, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    clientsProc = proc;
    const next = <T>(pred: (m: any) => boolean) =>
      new Promise<T>((resolve) => {
        const on = (m: any) => {
          if (!pred(m)) return;
          proc.off('message', on);
          resolve(m as T);
        };
        proc.on('message', on);
      });
    const ready = next<{ ready: number }>((m) => 'ready' in m);
    proc.send({ connect: url, clients: total, topic: 'bench/*' });
    const connected = (await ready).ready;
    const rssConnectedMb = rssMb(child.pid!);

    // latency: each write waits until every client has its event before the next one
    const latencies: number[] = [];
    const N = 60;
    for (let i = 0; i < N; i++) {
      const id = `lat${String(i).padStart(12, '0')}`;
      const watching = next((m) => m.watching === id);
      const seen = next<{ last: number }>((m) => m.seen === id);
      proc.send({ watch: id });
      await watching;
      const t0 = now();
      const res = await call(url, 'POST', '/api/collections/bench/records', { id, title: `latency ${i}` }, token);
      if (res.status !== 200) throw new Error(`write: ${JSON.stringify(res.body)}`);
      latencies.push((await seen).last - t0);
    }

    // throughput with the subscribers (events are delivered while the writer goes on)
    cpu0 = cpuMs(child.pid!);
    const writesPerSecSubscribed = await writes(200, 'subs');
    const cpuPerWriteSubscribedMs = (cpuMs(child.pid!) - cpu0) / 200;
    await new Promise((r) => setTimeout(r, 500));
    const rssAfterMb = rssMb(child.pid!);

    const result: RealtimeBenchResult = {
      clients: connected,
      latencyP50Ms: quantile(latencies, 0.5),
      latencyP99Ms: quantile(latencies, 0.99),
      writesPerSecIdle,
      writesPerSecSubscribed,
      rssIdleMb,
      rssConnectedMb,
      rssAfterMb,
      cpuPerWriteIdleMs,
      cpuPerWriteSubscribedMs,
    };
    log(`realtime: ${result.clients} SSE clients subscribed to one collection (guests, list rule "")`);
    log(`  write → last client received: p50 ${result.latencyP50Ms.toFixed(1)} ms, p99 ${result.latencyP99Ms.toFixed(1)} ms (${N} writes)`);
    log(
      `  writer throughput (sequential creates): ${result.writesPerSecIdle.toFixed(0)}/s without subscribers, ` +
        `${result.writesPerSecSubscribed.toFixed(0)}/s with ${result.clients} (ratio ${(result.writesPerSecSubscribed / result.writesPerSecIdle).toFixed(2)})`,
    );
    log(
      `  server CPU per write: ${result.cpuPerWriteIdleMs.toFixed(1)} ms without subscribers, ${result.cpuPerWriteSubscribedMs.toFixed(1)} ms with ${result.clients} ` +
        '(the rest of a write\'s time with subscribers is the clients parsing 1,000 streams on the same cores)',
    );
    log(`  server memory (RSS): ${result.rssIdleMb.toFixed(0)} MB idle, ${result.rssConnectedMb.toFixed(0)} MB with the clients, ${result.rssAfterMb.toFixed(0)} MB after the writes`);
    return result;
  } finally {
    clientsProc?.send({ close: true });
    agent.destroy();
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  benchRealtime().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
