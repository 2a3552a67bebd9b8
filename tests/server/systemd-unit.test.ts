// deploy/outpost.service, the systemd unit README "Deploying" shows, as far as it can be tested
// without systemd running: `systemd-analyze verify` reads it without a warning (Debian's systemd
// package), its stop settings fit the server's stop (server/http/shutdown.ts), and its ExecStart
// line, run as systemd runs it (the unit's Environment= lines, its WorkingDirectory, KillMode=mixed:
// SIGTERM to the main process), starts the built server, which writes only under ReadWritePaths
// and exits 0 on SIGTERM, its read pool with it. The README's example paths and port are replaced
// by the test's (tests/helpers/deploy-files.ts); main.mjs by the built server ('server-built'
// project) or the sources (tests/helpers/cli.ts).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHUTDOWN_GRACE_MS } from '../../server/http/shutdown';
import { ENTRY } from '../helpers/cli';
import { deployFile } from '../helpers/deploy-files';
import { tempDir } from '../helpers/server';
import { freePort } from '../helpers/server-process';
import { connectSse } from '../helpers/sse';

let work = '';
let appDir = '';
let port = 0;
let unitText = '';

/** A unit file's [Service] section: every key's values in order (systemd keys may repeat). */
function serviceSection(text: string): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      section = header[1];
      continue;
    }
    if (section !== 'Service') continue;
    const eq = line.indexOf('=');
    const key = line.slice(0, eq);
    keys.set(key, [...(keys.get(key) ?? []), line.slice(eq + 1)]);
  }
  return keys;
}

const one = (keys: Map<string, string[]>, key: string): string => {
  const values = keys.get(key) ?? [];
  expect(values, key).toHaveLength(1);
  return values[0];
};

/** systemd's time spans as the unit writes them: "30s", "1min", "90" (seconds). */
function seconds(span: string): number {
  const m = /^(\d+)\s*(s|sec|min|m)?$/.exec(span);
  if (!m) throw new Error(`a time span this test does not read: ${span}`);
  return Number(m[1]) * (m[2] === 'min' || m[2] === 'm' ? 60 : 1);
}

function findSystemdAnalyze(): string {
  const candidates = [process.env.SYSTEMD_ANALYZE_PATH, '/usr/bin/systemd-analyze', spawnSync('sh', ['-c', 'command -v systemd-analyze'], { encoding: 'utf8' }).stdout.trim()];
  const found = candidates.find((p): p is string => Boolean(p) && fs.existsSync(p as string));
  if (!found) throw new Error('systemd-analyze is not installed: `apt-get install -y systemd` (see README, Set-up)');
  return found;
}

beforeAll(async () => {
  work = tempDir('outpost-systemd-');
  appDir = path.join(work, 'srv-app');
  // the folders the README's install step creates (ReadWritePaths must exist)
  fs.mkdirSync(path.join(appDir, 'pb_data'), { recursive: true });
  fs.mkdirSync(path.join(appDir, 'pb_migrations'));
  port = await freePort();
  unitText = deployFile('outpost.service', [
    ['/usr/bin/node', process.execPath],
    // the built server in the 'server-built' project, else the sources through tsx
    ['/opt/outpost/dist-server/main.mjs', ENTRY.join(' ')],
    ['/srv/app', appDir],
    ['127.0.0.1:8090', `127.0.0.1:${port}`],
  ]);
  fs.writeFileSync(path.join(work, 'outpost.service'), unitText);
});

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('deploy/outpost.service', () => {
  it('systemd-analyze verify reads it without a warning', () => {
    const res = spawnSync(findSystemdAnalyze(), ['verify', path.join(work, 'outpost.service')], { encoding: 'utf8' });
    expect(res.status, res.stderr).toBe(0);
    expect(`${res.stdout}${res.stderr}`.trim()).toBe('');
  });

  it("stops as the server stops: SIGTERM, with time for the server's 10 s bound and the close after it; hardened; enough descriptors", () => {
    const service = serviceSection(unitText);
    expect(one(service, 'KillSignal')).toBe('SIGTERM');
    expect(one(service, 'KillMode')).toBe('mixed');
    // the requests under way get SHUTDOWN_GRACE_MS, then realtime streams, hooks' onTerminate and the databases close
    expect(seconds(one(service, 'TimeoutStopSec'))).toBeGreaterThanOrEqual(SHUTDOWN_GRACE_MS / 1000 + 10);
    expect(Number(one(service, 'LimitNOFILE'))).toBeGreaterThanOrEqual(65536);
    expect(one(service, 'NoNewPrivileges')).toBe('true');
    expect(one(service, 'ProtectSystem')).toBe('strict');
    // the data folder --dir names is writable
    const dataDir = /--dir=(\S+)/.exec(one(service, 'ExecStart'))![1];
    expect(one(service, 'ReadWritePaths').split(/\s+/)).toContain(dataDir);
  });

  it('its ExecStart starts the server, which writes only under ReadWritePaths and exits 0 on SIGTERM with its read pool', async () => {
    const service = serviceSection(unitText);
    const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
    for (const assignment of service.get('Environment') ?? []) {
      const eq = assignment.indexOf('=');
      env[assignment.slice(0, eq)] = assignment.slice(eq + 1);
    }
    const execStart = one(service, 'ExecStart');
    // systemd's quoting is not needed by this line, and this split does not read it
    expect(execStart).not.toMatch(/["'\\$%]/);
    const [command, ...args] = execStart.split(/\s+/);
    const before = fs.readdirSync(appDir).sort();
    const child = spawn(command, args, { cwd: one(service, 'WorkingDirectory'), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      const url = `http://127.0.0.1:${port}`;
      for (const t0 = Date.now(); ; ) {
        const ok = await fetch(`${url}/api/health`).then(
          (r) => r.status === 200,
          () => false,
        );
        if (ok) break;
        if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${out}`);
        if (Date.now() - t0 > 60_000) throw new Error(`no answer in 60 s: ${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      // a list read goes through the read pool: its processes exist when the stop comes
      expect((await fetch(`${url}/api/collections/users/records`)).status).toBeLessThan(500);
      const sse = await connectSse(url);
      const pool = spawnSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);

      const t0 = Date.now();
      child.kill('SIGTERM');
      const code = await exited;
      expect(code, out).toBe(0);
      expect(Date.now() - t0).toBeLessThan(seconds(one(service, 'TimeoutStopSec')) * 1000);
      await sse.closed;
      // nothing left for systemd's final SIGKILL: the pool's processes end on their own (a moment after their parent)
      const alive = () =>
        pool.filter((pid) => {
          try {
            process.kill(Number(pid), 0);
            return true;
          } catch {
            return false;
          }
        });
      for (let i = 0; i < 100 && alive().length; i++) await new Promise((r) => setTimeout(r, 50));
      expect(alive(), 'read pool processes left').toEqual([]);
      // ProtectSystem=strict: the app folder outside pb_data and pb_migrations stays as it was
      expect(fs.readdirSync(appDir).sort()).toEqual(before);
      expect(fs.readdirSync(path.join(appDir, 'pb_data'))).toContain('data.db');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 120_000);
});
