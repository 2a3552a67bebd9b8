// The trail's entry is written in the same transaction as its change, also across a crash: the
// built server takes a stream of record updates from an admin, is killed with SIGKILL mid-stream
// and started again on the same data. Every acknowledged update has its entry; every entry is of
// an update that was sent; the record holds the value of the newest entry (a committed change
// without its entry would show there).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { http, ROOT, tempDir } from '../helpers/server';
import { freePort } from '../helpers/server-process';

const work = tempDir('outpost-audit-kill-');
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** The built server: the 'server-built' project's bundle, else one built here. */
function builtMain(): string {
  if (process.env.OUTPOST_TEST_BUILT_MAIN) return process.env.OUTPOST_TEST_BUILT_MAIN;
  // (the bundle finds schemas/ above itself: it must live in the project)
  const out = path.join(ROOT, 'tests', '.tmp', 'audit-kill');
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-server.mjs'), out], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`the server build failed: ${built.stderr}`);
  return path.join(out, 'main.mjs');
}

async function start(main: string, dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [main, 'serve', `--dir=${dataDir}`, `--http=127.0.0.1:${port}`], { cwd: work, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, child };
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not start');
}

it('keeps an entry for every acknowledged update across kill -9', { timeout: 120_000 }, async () => {
  const main = builtMain();
  const dataDir = path.join(work, 'pb_data');
  let { url, child } = await start(main, dataDir);
  const admin = { email: 'kill@example.com', password: 'kill-password-1' };
  await http(url, 'POST', '/api/admins', { body: { ...admin, passwordConfirm: admin.password } });
  const signIn = async () => (await http(url, 'POST', '/api/admins/auth-with-password', { body: { identity: admin.email, password: admin.password } })).body.token as string;
  let token = await signIn();
  expect((await http(url, 'POST', '/api/collections', { token, body: { name: 'counter', type: 'base', schema: [{ name: 'n', type: 'number' }] } })).status).toBe(200);
  const id = (await http(url, 'POST', '/api/collections/counter/records', { token, body: { n: 0 } })).body.id as string;

  const sent = new Set<number>();
  const acked = new Set<number>();
  let next = 1;
  let stop = false;
  const failures: string[] = [];
  const worker = async () => {
    while (!stop) {
      const n = next++;
      sent.add(n);
      try {
        const res = await http(url, 'PATCH', `/api/collections/counter/records/${id}`, { token, body: { n } });
        if (res.status === 200) acked.add(n);
      } catch (err) {
        failures.push(`${n}: ${String(err)}`);
        return; // the server is gone
      }
    }
  };
  const workers = Array.from({ length: 6 }, worker);
  const exited = new Promise((r) => child.once('exit', r));
  await new Promise((r) => setTimeout(r, 2000));
  child.kill('SIGKILL');
  stop = true;
  await exited;
  await Promise.all(workers);
  expect(acked.size).toBeGreaterThan(10);

  ({ url, child } = await start(main, dataDir));
  try {
    token = await signIn();
    const res = await fetch(`${url}/api/outpost/audit/export?format=json&area=record&action=update&target=${id}`, { headers: { Authorization: token } });
    const entries = (await res.json()) as Array<{ changes: { n: { new: number } } }>;
    const logged = entries.map((e) => e.changes.n.new);
    expect(new Set(logged).size).toBe(logged.length);
    for (const n of acked) expect(logged).toContain(n);
    for (const n of logged) expect(sent.has(n)).toBe(true);
    const record = (await http(url, 'GET', `/api/collections/counter/records/${id}`, { token })).body as { n: number };
    expect(record.n).toBe(logged[0]);
    console.log(`[audit-kill] sent ${sent.size}, acknowledged ${acked.size}, cut off by the kill ${failures.length}, entries ${logged.length}`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
});
