// A restore killed half-way (the server process really dies: SIGKILL from inside the swap, at
// two points) leaves the old data dir after the next start, never a mix of old and new.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { FIXTURE_ADMIN_TOKEN as ADMIN, FIXTURE_DIR, http, ROOT, tempDir } from '../helpers/server';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function waitUp(url: string) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start');
}

/** The data dir's files (outside backups/ and the temp folder) and their sizes. */
function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (!rel && ['backups', '.pb_temp_to_delete'].includes(e.name)) continue;
      if (e.isDirectory()) walk(r);
      else if (!/-(wal|shm)$/.test(r)) out.push(r);
    }
  };
  walk('');
  return out.sort();
}

for (const renames of [1, 5]) {
  it(`a kill after ${renames} rename(s) of the swap rolls back to the old data`, async () => {
    const root = tempDir('outpost-crash-');
    dirs.push(root);
    const dataDir = path.join(root, 'pb_data');
    fs.cpSync(FIXTURE_DIR, dataDir, { recursive: true });
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/main.ts'), 'serve', `--http=127.0.0.1:${port}`, `--dir=${dataDir}`], {
      cwd: ROOT,
      env: { ...process.env, OUTPOST_TEST_CRASH_AFTER_RENAMES: String(renames) },
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    try {
      await waitUp(url);
      // a backup of the current state, then a different state the restore would bring back
      expect((await http(url, 'POST', '/api/backups', { token: ADMIN, body: { name: 'b.zip' } })).status).toBe(204);
      await http(url, 'POST', '/api/collections', { token: ADMIN, body: { name: 'after_backup', type: 'base', schema: [{ name: 'x', type: 'text' }] } });
      await http(url, 'PATCH', '/api/settings', { token: ADMIN, body: { meta: { appName: 'Old state' } } });
      const res = await http(url, 'POST', '/api/backups/b.zip/restore', { token: ADMIN });
      expect(res.status).toBe(204);
      expect(await exited).toBe('SIGKILL');
    } finally {
      child.kill('SIGKILL');
    }
    const dbBefore = fs.statSync(path.join(dataDir, '.pb_temp_to_delete'));
    expect(dbBefore.isDirectory()).toBe(true);

    // the next start: the old content, complete
    const app = await createApp({ dataDir, dashboardDir: null });
    try {
      const base = await app.listen('127.0.0.1', 0);
      expect((await http(base, 'GET', '/api/settings', { token: ADMIN })).body.meta.appName).toBe('Old state');
      expect((await http(base, 'GET', '/api/collections/after_backup', { token: ADMIN })).status).toBe(200);
      expect(snapshot(dataDir)).toEqual(expect.arrayContaining(['data.db', 'logs.db']));
      expect(snapshot(dataDir).filter((f) => f.startsWith('storage/'))).toHaveLength(54);
      expect(fs.existsSync(path.join(dataDir, '.pb_temp_to_delete'))).toBe(false);
      expect(fs.readdirSync(path.join(dataDir, 'backups'))).toEqual(['b.zip']);
    } finally {
      await app.close();
    }
  }, 60_000);
}

it('a stop after the swap completed (before the temp folder was cleaned) starts on the new data', async () => {
  const { swapDataDir, recoverDataDir } = await import('../../server/services/backups/swap');
  const root = tempDir('outpost-swapped-');
  dirs.push(root);
  const dataDir = path.join(root, 'pb_data');
  fs.mkdirSync(path.join(dataDir, 'backups'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'data.db'), 'old');
  fs.writeFileSync(path.join(dataDir, 'backups', 'keep.zip'), 'kept');
  const incoming = path.join(dataDir, '.pb_temp_to_delete', 'pb_restore_x', 'pb_data');
  fs.mkdirSync(path.join(incoming, 'storage'), { recursive: true });
  fs.writeFileSync(path.join(incoming, 'data.db'), 'new');
  fs.writeFileSync(path.join(incoming, 'storage', 'f.txt'), 'file');
  swapDataDir(dataDir, incoming);
  // the process stops here: no restart, no cleanup
  expect(recoverDataDir(dataDir)).toBe('completed');
  expect(fs.readFileSync(path.join(dataDir, 'data.db'), 'utf8')).toBe('new');
  expect(fs.readFileSync(path.join(dataDir, 'storage', 'f.txt'), 'utf8')).toBe('file');
  expect(fs.readFileSync(path.join(dataDir, 'backups', 'keep.zip'), 'utf8')).toBe('kept');
  expect(fs.existsSync(path.join(dataDir, '.pb_temp_to_delete'))).toBe(false);
});
