// Realtime fairness: 4 guests each try to hold 1,000 topics with distinct deep filters (the cap
// lets each keep 100) and keep writing records; an unrelated subscriber (one plain topic) times
// its own writes from the create to its event. Budget: p99 under 200 ms. In-process server, the
// clients over loopback. Run alone: `npx tsx bench/realtime-fairness.ts`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createApp } from '../server/app';
import { apiCall, apiRequest, benchAdmin } from './api-client';
import { MAX_OPTION_GROUPS_PER_CLIENT } from '../server/realtime/broker';
import { connectSse, type SseClient } from '../tests/helpers/sse';

export interface RealtimeFairnessResult {
  p50Ms: number;
  p99Ms: number;
  events: number;
  hostileWrites: number;
}

const SECONDS = 10;
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

export async function benchRealtimeFairness(log: (line: string) => void = (l) => console.log(l)): Promise<RealtimeFairnessResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-rtfair-'));
  const app = await createApp({ dataDir: path.join(dir, 'pb_data'), dashboardDir: null });
  const clients: SseClient[] = [];
  try {
    const url = await app.listen('127.0.0.1', 0);
    const call = apiRequest(url);
    const { token } = await benchAdmin(apiCall(url), 'bench@example.com');
    // a self-relation six deep: every hostile topic's filter walks it
    const posts = (await call('POST', '/api/collections', { name: 'posts', type: 'base', listRule: '', viewRule: '', createRule: '', schema: [{ name: 'score', type: 'number' }] }, token)).body;
    await call('PATCH', `/api/collections/${posts.id}`, { schema: [...posts.schema, { name: 'parent', type: 'relation', options: { collectionId: posts.id, maxSelect: 1 } }] }, token);
    await call('POST', '/api/collections', { name: 'notes', type: 'base', listRule: '', viewRule: '', createRule: '', schema: [{ name: 'text', type: 'text' }] }, token);

    const deep = (i: number) => `parent.parent.parent.parent.parent.parent.score != ${i} && score != ${i}`;
    let refused = 0;
    for (let g = 0; g < 4; g++) {
      const c = await connectSse(url);
      clients.push(c);
      const topics = (n: number) => Array.from({ length: n }, (_, i) => `posts/*?options=${encodeURIComponent(JSON.stringify({ query: { filter: deep(g * 1000 + i) } }))}`);
      const all = await call('POST', '/api/realtime', { clientId: c.clientId, subscriptions: topics(1000) });
      if (all.status === 400) refused++;
      const capped = await call('POST', '/api/realtime', { clientId: c.clientId, subscriptions: topics(Math.min(1000, MAX_OPTION_GROUPS_PER_CLIENT)) });
      if (capped.status !== 204) throw new Error(`subscribe answered ${capped.status}`);
    }
    const watcher = await connectSse(url);
    clients.push(watcher);
    await call('POST', '/api/realtime', { clientId: watcher.clientId, subscriptions: ['notes/*'] });

    let writing = true;
    let hostileWrites = 0;
    const writers = Array.from({ length: 4 }, async () => {
      while (writing) {
        await call('POST', '/api/collections/posts/records', { score: hostileWrites++ });
      }
    });
    const latencies: number[] = [];
    const creates: number[] = [];
    const until = performance.now() + SECONDS * 1000;
    while (performance.now() < until) {
      const t0 = performance.now();
      const from = watcher.frames.length;
      const made = await call('POST', '/api/collections/notes/records', { text: 'hello' });
      creates.push(performance.now() - t0);
      await watcher.next((f) => f.event === 'notes/*' && f.data.record.id === made.body.id, 10_000, from);
      latencies.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 50));
    }
    writing = false;
    await Promise.all(writers);
    const result = { p50Ms: quantile(latencies, 0.5), p99Ms: quantile(latencies, 0.99), events: latencies.length, hostileWrites };
    log(
      `realtime fairness: an unrelated subscriber's own write → its event while 4 guests hold ${MAX_OPTION_GROUPS_PER_CLIENT} deep-filter topics each ` +
        `(${refused} of 4 asked for 1,000 and got a 400) and write (${hostileWrites} writes): p50 ${result.p50Ms.toFixed(1)} ms, ` +
        `p99 ${result.p99Ms.toFixed(1)} ms over ${result.events} events (the create's own answer: p50 ${quantile(creates, 0.5).toFixed(1)} ms) — budget p99 200 ms`,
    );
    return result;
  } finally {
    for (const c of clients) c.close();
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  void benchRealtimeFairness();
}
