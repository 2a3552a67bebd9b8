// The built server with `serve --workers N` (or several instances joined through NATS) for the
// cluster tests and the bench: started on a free port, waited for until every worker listens, and
// one keep-alive connection per member, so a test can send a request to the member it means.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { requestJson, type JsonReply } from './json-request';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_DIR, ROOT, tempDir } from './server';
import { spawnServer, type ServerProcess } from './server-process';

const BUILT_MAIN = path.join(ROOT, 'dist-server', 'main.mjs');

/** A pb_data (the fixture's copy) in a fresh folder; returns the folder. */
export function fixtureWork(prefix: string): string {
  const work = tempDir(prefix);
  fs.cpSync(FIXTURE_DIR, path.join(work, 'pb_data'), { recursive: true });
  return work;
}

/** `serve --workers=N` on `work`/pb_data; resolves once all N listen (the primary prints "Workers:"). */
export async function startWorkers(work: string, workers: number, extra: string[] = []): Promise<ServerProcess> {
  if (!fs.existsSync(BUILT_MAIN)) throw new Error('dist-server/main.mjs is missing: run `npm run build` first');
  const proc = await spawnServer(process.execPath, [BUILT_MAIN, 'serve', '--dir=pb_data', `--workers=${workers}`, ...extra], work);
  for (let i = 0; workers > 1 && !proc.output().includes('Workers:'); i++) {
    if (i > 1200) throw new Error(`the workers did not all start: ${proc.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return proc;
}

/** One request over `agent` (a member's connection), JSON in and out. */
export function call(agent: http.Agent | false, base: string, method: string, p: string, opts: { body?: unknown; token?: string } = {}): Promise<JsonReply> {
  return requestJson(`${base}${p}`, { method, agent, ...opts });
}

export interface Member {
  id: string;
  pid: number;
  leader: boolean;
  /** A keep-alive connection that this member holds. */
  agent: http.Agent;
  call(method: string, p: string, opts?: { body?: unknown; token?: string }): Promise<JsonReply>;
}

/**
 * One connection per member: new connections are dealt round the workers (node:cluster's
 * round-robin), and each one is asked who holds it (an admin's /api/health names the member).
 */
export async function members(base: string, count: number): Promise<Member[]> {
  const found = new Map<string, Member>();
  for (let i = 0; found.size < count; i++) {
    if (i > 200) throw new Error(`only ${found.size} of ${count} members answered`);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const r = await call(agent, base, 'GET', '/api/health', { token: FIXTURE_ADMIN_TOKEN });
    const m = r.body?.data?.member as { id: string; pid: number; leader: boolean } | undefined;
    if (!m) throw new Error(`no member in /api/health: ${JSON.stringify(r.body)}`);
    if (found.has(m.id)) {
      agent.destroy();
      continue;
    }
    found.set(m.id, { ...m, agent, call: (method, p, opts) => call(agent, base, method, p, opts) });
  }
  return [...found.values()];
}
