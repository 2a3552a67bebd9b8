// The SSE clients of bench/realtime.ts, in their own process so that parsing 1,000 streams does
// not slow the writer being measured. Protocol over IPC: {connect: url, clients, topic} → {ready};
// {watch: recordId} → {seen: recordId, last: epoch ms when the last client got it}; {close}.
import http from 'node:http';
import { connectSse, type SseClient } from '../tests/helpers/sse';

const clients: SseClient[] = [];
const now = () => performance.timeOrigin + performance.now();
const send = (m: unknown) => process.send?.(m);

function post(url: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/api/realtime`, { method: 'POST', agent: false, headers: { 'Content-Type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

process.on('message', async (msg: { connect?: string; clients?: number; topic?: string; watch?: string; close?: boolean }) => {
  if (msg.connect) {
    for (let i = 0; i < (msg.clients ?? 0); i += 50) {
      const batch = await Promise.all(Array.from({ length: Math.min(50, (msg.clients ?? 0) - i) }, () => connectSse(msg.connect!)));
      const statuses = await Promise.all(batch.map((c) => post(msg.connect!, { clientId: c.clientId, subscriptions: [msg.topic] })));
      if (statuses.some((s) => s !== 204)) throw new Error(`subscribe failed: ${statuses.join(',')}`);
      clients.push(...batch);
    }
    send({ ready: clients.length });
  } else if (msg.watch) {
    const id = msg.watch;
    let pending = clients.length;
    for (const c of clients) {
      c.onFrame = (f) => {
        if (f.data?.record?.id !== id) return;
        c.onFrame = undefined;
        if (--pending === 0) send({ seen: id, last: now() });
      };
    }
    send({ watching: id });
  } else if (msg.close) {
    for (const c of clients) c.close();
    process.exit(0);
  }
});
