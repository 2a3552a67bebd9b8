// Backups benchmark: a data dir with 100,000 records and 200 MB of files
// (incompressible, 2,000 files of 100 KB attached to records), served by a real server process;
// one backup through POST /api/backups while a client keeps reading and writing records.
// Prints the backup time, the archive size, the server's peak memory (VmHWM, before and after:
// the archive is streamed, so the peak must not grow with it), and p50/p99/max of record reads
// and writes during the backup next to the same figures without a backup running (5 s before
// and 5 s after it). Files whose first 64 KB do not deflate (the random ones here) are stored.
// Run alone: `npx tsx bench/backups.ts` (BENCH_BACKUP_MB and BENCH_BACKUP_RECORDS scale it).
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createApp } from '../server/app';
import { freePort } from './free-port';

const ROOT = path.resolve(import.meta.dirname, '..');

export interface BackupsBenchResult {
  records: number;
  fileBytes: number;
  backupMs: number;
  archiveBytes: number;
  peakRssBeforeMb: number;
  peakRssAfterMb: number;
  idle: LatencyStats;
  during: LatencyStats;
}

interface LatencyStats {
  reads: number;
  writes: number;
  readP50: number;
  readP99: number;
  readMax: number;
  writeP50: number;
  writeP99: number;
  writeMax: number;
}

const pct = (xs: number[], p: number) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};


/** Peak resident memory of a process, in MB (Linux /proc). */
function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmHWM:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) / 1024 : NaN;
}

async function buildDataDir(dataDir: string, records: number, fileMb: number, log: (l: string) => void): Promise<{ collection: string; fileBytes: number }> {
  const t0 = Date.now();
  const app = await createApp({ dataDir, dashboardDir: null });
  try {
    const url = await app.listen('127.0.0.1', 0);
    const call = async (method: string, p: string, body?: unknown, token?: string) => {
      const res = await fetch(url + p, { method, headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: token } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
      return (await res.json()) as any;
    };
    const creds = { email: 'bench@example.com', password: '1234567890' };
    await call('POST', '/api/admins', { ...creds, passwordConfirm: creds.password });
    const token = (await call('POST', '/api/admins/auth-with-password', { identity: creds.email, password: creds.password })).token as string;
    const col = await call(
      'POST',
      '/api/collections',
      {
        name: 'docs',
        listRule: '',
        viewRule: '',
        updateRule: '',
        schema: [
          { name: 'title', type: 'text' },
          { name: 'score', type: 'number' },
          { name: 'file', type: 'file', options: { maxSelect: 1, maxSize: 5 << 20 } },
        ],
      },
      token,
    );
    if (!col.id) throw new Error(`failed to create the collection: ${JSON.stringify(col)}`);
    const fileSize = 100 * 1024;
    const files = Math.round((fileMb * 1024 * 1024) / fileSize);
    const db = app.db;
    const now = '2024-01-01 00:00:00.000Z';
    db.transaction(() => {
      const ins = db.prepare('INSERT INTO docs (id, created, updated, title, score, file) VALUES (?, ?, ?, ?, ?, ?)');
      for (let i = 0; i < records; i++) {
        ins.run(`r${String(i).padStart(14, '0')}`, now, now, `title ${i} ${'x'.repeat(100)}`, i, i < files ? `f${i}.bin` : '');
      }
    })();
    for (let i = 0; i < files; i++) {
      const dir = path.join(dataDir, 'storage', col.id, `r${String(i).padStart(14, '0')}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `f${i}.bin`), crypto.randomBytes(fileSize));
    }
    log(`backups: built ${records.toLocaleString('en-US')} records and ${files} files (${((files * fileSize) / 1024 / 1024).toFixed(0)} MB) in ${Date.now() - t0} ms`);
    return { collection: 'docs', fileBytes: files * fileSize };
  } finally {
    await app.close();
  }
}

/** Alternating record reads and writes until `until` resolves (or for `ms`); latencies in ms. */
async function traffic(url: string, token: string, records: number, stop: () => boolean): Promise<{ reads: number[]; writes: number[] }> {
  const reads: number[] = [];
  const writes: number[] = [];
  let i = 0;
  while (!stop()) {
    const id = `r${String((i * 7919) % records).padStart(14, '0')}`;
    let t = performance.now();
    const r = await fetch(`${url}/api/collections/docs/records/${id}`, { headers: { Authorization: token } });
    await r.arrayBuffer();
    reads.push(performance.now() - t);
    t = performance.now();
    const w = await fetch(`${url}/api/collections/docs/records/${id}`, {
      method: 'PATCH',
      headers: { Authorization: token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ score: i }),
    });
    await w.arrayBuffer();
    if (!w.ok) throw new Error(`write failed: ${w.status}`);
    writes.push(performance.now() - t);
    i++;
  }
  return { reads, writes };
}

const stats = (t: { reads: number[]; writes: number[] }): LatencyStats => ({
  reads: t.reads.length,
  writes: t.writes.length,
  readP50: pct(t.reads, 50),
  readP99: pct(t.reads, 99),
  readMax: Math.max(0, ...t.reads),
  writeP50: pct(t.writes, 50),
  writeP99: pct(t.writes, 99),
  writeMax: Math.max(0, ...t.writes),
});

export async function benchBackups(opts: { log?: (line: string) => void } = {}): Promise<BackupsBenchResult> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const records = Number(process.env.BENCH_BACKUP_RECORDS ?? 100_000);
  const fileMb = Number(process.env.BENCH_BACKUP_MB ?? 200);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-backups-'));
  const dataDir = path.join(tmp, 'pb_data');
  const { fileBytes } = await buildDataDir(dataDir, records, fileMb, log);

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', 'serve', `--http=127.0.0.1:${port}`, `--dir=${dataDir}`], { cwd: ROOT, stdio: 'ignore' });
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${url}/api/health`)).ok) break;
      } catch {
        /* not up yet */
      }
      if (i > 600) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
    const auth = await fetch(`${url}/api/admins/auth-with-password`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ identity: 'bench@example.com', password: '1234567890' }),
    });
    const token = ((await auth.json()) as { token: string }).token;

    // warm up, then the same traffic with no backup running (before and after the backup)
    const warm = Date.now();
    await traffic(url, token, records, () => Date.now() - warm > 3000);
    const idleStart = Date.now();
    const idleBefore = await traffic(url, token, records, () => Date.now() - idleStart > 5000);
    const peakRssBeforeMb = peakRssMb(child.pid!);

    let done = false;
    const t0 = performance.now();
    const backup = fetch(`${url}/api/backups`, {
      method: 'POST',
      headers: { Authorization: token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'bench.zip' }),
    }).then(async (res) => {
      const ms = performance.now() - t0;
      done = true;
      if (res.status !== 204) throw new Error(`backup failed: ${res.status} ${await res.text()}`);
      return ms;
    });
    const [backupMs, during] = await Promise.all([backup, traffic(url, token, records, () => done)]);
    const peakRssAfterMb = peakRssMb(child.pid!);
    const idleAfterStart = Date.now();
    const idleAfter = await traffic(url, token, records, () => Date.now() - idleAfterStart > 5000);
    const idle = stats({ reads: [...idleBefore.reads, ...idleAfter.reads], writes: [...idleBefore.writes, ...idleAfter.writes] });
    const archiveBytes = fs.statSync(path.join(dataDir, 'backups', 'bench.zip')).size;

    const result: BackupsBenchResult = { records, fileBytes, backupMs, archiveBytes, peakRssBeforeMb, peakRssAfterMb, idle, during: stats(during) };
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    const f = (n: number) => n.toFixed(1);
    log(`backups: backup of ${records.toLocaleString('en-US')} records + ${mb(fileBytes)} of files: ${(backupMs / 1000).toFixed(2)} s, archive ${mb(archiveBytes)}`);
    log(`backups: server peak memory (VmHWM) ${f(peakRssBeforeMb)} MB before the backup, ${f(peakRssAfterMb)} MB after (+${f(peakRssAfterMb - peakRssBeforeMb)} MB; the archive is streamed, not buffered)`);
    const line = (label: string, s: LatencyStats) =>
      `backups: ${label}: reads ${s.reads} p50 ${f(s.readP50)} ms p99 ${f(s.readP99)} ms max ${f(s.readMax)} ms; writes ${s.writes} p50 ${f(s.writeP50)} ms p99 ${f(s.writeP99)} ms max ${f(s.writeMax)} ms`;
    log(line('no backup (5 s before + 5 s after)', idle));
    log(line('during the backup               ', result.during));
    log(`backups: p99 ratio during/idle: reads ${(result.during.readP99 / idle.readP99).toFixed(2)}x, writes ${(result.during.writeP99 / idle.writeP99).toFixed(2)}x`);
    return result;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  benchBackups().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
