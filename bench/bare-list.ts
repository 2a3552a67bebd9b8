// The yardstick of bench/records.ts for the fixed cost of HTTP on this machine: Fastify with the
// app's compression and serialiser and nothing else (no auth, hooks, request log, read pool),
// answering the list-with-totals request by running the same two statements on a read-only
// connection of the same file. Whatever the app does, a Fastify server pays this much for the request.
import Fastify from 'fastify';
import { openReadOnlyDatabase } from '../server/db/database';
import { registerCompression } from '../server/http/compression';
import { stringifyLikeGo } from '../server/core/json';

export async function startBareList(file: string, pageSql: string, countSql: string, params: unknown[], perPage: number): Promise<{ url: string; close(): Promise<void> }> {
  const db = openReadOnlyDatabase(file);
  const page = db.prepare(pageSql);
  const count = db.prepare(countSql).pluck();
  const app = Fastify({ logger: false });
  await registerCompression(app);
  app.setReplySerializer((payload) => stringifyLikeGo(payload));
  app.get('/api/collections/:collection/records', async () => {
    const totalItems = count.get(...params) as number;
    const items = page.all(...params, perPage, 0);
    return { page: 1, perPage, totalItems, totalPages: Math.ceil(totalItems / perPage), items };
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    async close() {
      await app.close();
      db.close();
    },
  };
}
