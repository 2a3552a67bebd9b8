// `serve --dev`: what 0.22 prints in dev mode. Every SQL statement of the main data.db connection
// (reads a request sends to the read pool run in its child processes and are not printed) and one
// line per request as it is logged. Grey and plain as 0.22's terminal output; colour only on a TTY.
import type { FastifyInstance } from 'fastify';

const grey = (text: string) => (process.stdout.isTTY ? `\x1b[90m${text}\x1b[0m` : text);

export function printStatement(sql: unknown): void {
  console.log(grey(`[sql] ${String(sql)}`));
}

export function registerDevLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (req, reply) => {
    const level = reply.statusCode >= 500 ? 'ERROR' : reply.statusCode >= 400 ? 'WARN' : 'INFO';
    const ms = reply.elapsedTime.toFixed(2);
    console.log(`${new Date().toISOString().replace('T', ' ').slice(0, 23)} ${level} ${req.method} ${req.url} ${reply.statusCode} ${ms}ms`);
  });
}
