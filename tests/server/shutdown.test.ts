// SIGTERM stops `serve` gracefully (issue 35; the built server in the 'server-built' project):
// during a stream of creates from several clients, with a slow request and a realtime stream open,
// the server stops taking requests, lets the ones under way end, ends the stream with SSE's retry
// hint and closes the databases (no WAL left behind). After a restart every acknowledged create is
// there, and nothing that was not acknowledged.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_DIR, http, tempDir } from '../helpers/server';
import { startCliServer } from '../helpers/cli';

const token = FIXTURE_ADMIN_TOKEN;
const WRITERS = 6;
const work = tempDir('outpost-shutdown-');

afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

/** The code of a failed fetch (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET, …). */
function failureCode(err: unknown): string {
  const cause = (err as { cause?: { code?: string } }).cause;
  return cause?.code ?? String(err);
}

describe('SIGTERM', () => {
  it('finishes the requests under way and ends realtime with a retry hint; every acknowledged create survives the restart', async () => {
    const dataDir = path.join(work, 'pb_data');
    fs.cpSync(FIXTURE_DIR, dataDir, { recursive: true });
    fs.mkdirSync(path.join(work, 'pb_hooks'));
    fs.writeFileSync(path.join(work, 'pb_hooks', 'slow.pb.js'), 'routerAdd("GET", "/slow", (c) => { sleep(1500); return c.json(200, { slept: true }); });\n');
    const args = [`--dir=${dataDir}`, '--automigrate=false'];
    const first = await startCliServer(args, work);
    const created = await http(first.url, 'POST', '/api/collections', {
      token,
      body: { name: 'shutdown_notes', type: 'base', schema: [{ name: 'n', type: 'text' }], createRule: '' },
    });
    expect(created.status).toBe(200);

    // a realtime client: its stream must end with a retry hint, not be cut
    const realtime = await fetch(`${first.url}/api/realtime`);
    const streamText = (async () => {
      let text = '';
      const decoder = new TextDecoder();
      for await (const chunk of realtime.body!) text += decoder.decode(chunk as Uint8Array, { stream: true });
      return text;
    })();

    const acked: string[] = [];
    const refusals: string[] = [];
    const writer = async (w: number) => {
      for (let i = 0; ; i++) {
        try {
          const res = await fetch(`${first.url}/api/collections/shutdown_notes/records`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ n: `${w}-${i}` }),
          });
          const body = (await res.json()) as { id?: string; code?: number };
          if (res.status !== 200) {
            // a request that reached a stopping server: refused in PocketBase's envelope
            expect(body.code).toBe(res.status);
            refusals.push(res.status === 503 ? '503' : `${res.status} ${JSON.stringify(body)}`);
            return;
          }
          acked.push(body.id!);
        } catch (err) {
          refusals.push(failureCode(err));
          return;
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
    await new Promise((r) => setTimeout(r, 600));
    const slow = fetch(`${first.url}/slow`).then(async (res) => ({ status: res.status, body: await res.json() }));
    await new Promise((r) => setTimeout(r, 300));
    const ackedBeforeStop = acked.length;
    const t0 = Date.now();
    await first.stop();
    const stoppedIn = Date.now() - t0;
    await Promise.all(writers);

    // the slow request under way at the signal was answered, not cut (and the stop waited for it)
    expect(await slow).toEqual({ status: 200, body: { slept: true } });
    expect(stoppedIn).toBeGreaterThan(700);
    expect(stoppedIn).toBeLessThan(10_000);
    const text = await streamText;
    expect(text).toContain('event:PB_CONNECT');
    expect(text).toMatch(/\nretry: \d{4}\n\n$/);
    expect(first.output()).toMatch(/SIGTERM: stopping/);
    expect(first.output()).toMatch(/Stopped: \d+ request\(s\) were under way, 1 realtime connection\(s\) ended with a retry hint, the databases closed\./);
    // every writer ended on a refusal: 503 on a connection opened before, or no connection at all
    expect(refusals).toHaveLength(WRITERS);
    for (const r of refusals) expect(['503', 'ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET']).toContain(r);
    expect(ackedBeforeStop).toBeGreaterThan(10);
    // the databases were closed cleanly: SQLite folded the WAL back and removed it
    expect(fs.existsSync(path.join(dataDir, 'data.db-wal'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'logs.db-wal'))).toBe(false);

    const second = await startCliServer(args, work);
    try {
      // every page (creates got fast enough for more than one page of 500)
      const ids = new Set<string>();
      let totalItems = -1;
      for (let page = 1; ; page++) {
        const list = await http(second.url, 'GET', `/api/collections/shutdown_notes/records?perPage=500&page=${page}&fields=id`, { token });
        expect(list.status).toBe(200);
        for (const r of list.body.items as Array<{ id: string }>) ids.add(r.id);
        totalItems = list.body.totalItems;
        if (page >= list.body.totalPages) break;
      }
      expect(acked.filter((id) => !ids.has(id))).toEqual([]);
      // and no create happened without its answer
      expect(totalItems).toBe(acked.length);
    } finally {
      await second.stop();
    }
  });
});
