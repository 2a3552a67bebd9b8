// Blocking network work for a hook executor: 0.22's `$http.send` and `$app.newMailClient().send`
// return when the exchange is over, so the executor hands the exchange to a helper thread of its
// own and blocks on a shared counter (Atomics.wait) until the answer is posted. Only that executor
// waits: the main thread keeps serving, so a handler may even call its own server. The helper is
// started on first use; it runs `helperMain`, passed as source text (an eval worker needs no file
// of its own next to the built bundle), so that function uses nothing but its arguments.
import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';

/** One HTTP exchange (no redirect following: the caller does it). */
interface HttpTask {
  kind: 'http';
  url: string;
  method: string;
  headers: Array<[string, string]>;
  body: Uint8Array | null;
  /** Epoch milliseconds: the exchange fails with "context deadline exceeded" after it. */
  deadline: number;
}

export interface HttpAnswer {
  status: number;
  /** Node's rawHeaders: name, value, name, value, ... as received. */
  rawHeaders: string[];
  body: Uint8Array;
}

/** One mail handed to nodemailer (loaded by its path in the helper). */
interface MailTask {
  kind: 'mail';
  module: string;
  transport: Record<string, unknown>;
  message: Record<string, unknown>;
}

type Task = HttpTask | MailTask;
type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

interface HelperData {
  port: MessagePort;
  signal: Int32Array;
}

/**
 * The helper thread's code. It runs in an eval worker: no imports, only its arguments (the
 * worker's data and `require`), plain JavaScript once the types are stripped.
 */
function helperMain(data: HelperData, req: NodeJS.Require): void {
  const http = req('node:http') as typeof import('node:http');
  const https = req('node:https') as typeof import('node:https');
  const { port, signal } = data;

  const answer = (reply: Reply) => {
    port.postMessage(reply);
    Atomics.add(signal, 0, 1);
    Atomics.notify(signal, 0);
  };

  const exchange = (task: HttpTask): Promise<HttpAnswer> =>
    new Promise((resolve, reject) => {
      const url = new URL(task.url);
      const lib = url.protocol === 'https:' ? https : http;
      const headers: Record<string, string | string[]> = {};
      for (const [k, v] of task.headers) {
        const prev = headers[k];
        headers[k] = prev === undefined ? v : [...(Array.isArray(prev) ? prev : [prev]), v];
      }
      const request = lib.request(url, { method: task.method, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, body: new Uint8Array(Buffer.concat(chunks)) });
        });
        res.on('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
      });
      const timer = setTimeout(() => request.destroy(Object.assign(new Error('context deadline exceeded'), { code: 'DEADLINE' })), Math.max(0, task.deadline - Date.now()));
      request.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      request.end(task.body ? Buffer.from(task.body) : undefined);
    });

  const mail = async (task: MailTask): Promise<unknown> => {
    const nodemailer = req(task.module) as typeof import('nodemailer');
    const transport = nodemailer.createTransport(task.transport);
    try {
      const info = (await transport.sendMail(task.message)) as { messageId?: string };
      return { messageId: info.messageId ?? '' };
    } finally {
      transport.close();
    }
  };

  port.on('message', (msg: { id: number; task: Task }) => {
    const work = msg.task.kind === 'http' ? exchange(msg.task) : mail(msg.task);
    work.then(
      (value) => answer({ id: msg.id, ok: true, value }),
      (err: unknown) => answer({ id: msg.id, ok: false, message: err instanceof Error ? err.message : String(err) }),
    );
  });
}

/** Extra time the executor waits past a task's own deadline before giving up on the helper. */
const GRACE_MS = 5_000;

export interface BlockingIo {
  http(task: HttpTask): HttpAnswer;
  mail(task: Omit<MailTask, 'kind' | 'module'>, timeoutMs: number): { messageId: string };
}

class HelperError extends Error {}

/** The executor's helper thread, started on first use; each call blocks this thread only. */
export function blockingIo(): BlockingIo {
  let port: MessagePort | null = null;
  const signal = new Int32Array(new SharedArrayBuffer(4));
  let nextId = 1;

  const start = (): MessagePort => {
    if (port) return port;
    const channel = new MessageChannel();
    // esbuild may wrap named functions in __name(...) (keepNames): harmless here
    const source = `var __name = (f) => f;\n(${helperMain.toString()})(require('node:worker_threads').workerData, require);`;
    const worker = new Worker(source, { eval: true, workerData: { port: channel.port2, signal } satisfies HelperData, transferList: [channel.port2] });
    worker.unref();
    worker.on('error', () => (port = null));
    worker.on('exit', () => (port = null));
    port = channel.port1;
    return port;
  };

  const run = (task: Task, timeoutMs: number): unknown => {
    const p = start();
    const id = nextId++;
    const end = Date.now() + timeoutMs;
    p.postMessage({ id, task });
    for (;;) {
      const seen = Atomics.load(signal, 0);
      const received = receiveMessageOnPort(p);
      if (received) {
        const reply = received.message as Reply;
        if (reply.id !== id) continue; // the late answer of a call given up on
        if (reply.ok) return reply.value;
        throw new HelperError(reply.message);
      }
      const left = end - Date.now();
      if (left <= 0) throw new HelperError('context deadline exceeded');
      Atomics.wait(signal, 0, seen, left);
    }
  };

  let mailer: string | null = null;
  return {
    http: (task) => run(task, Math.max(0, task.deadline - Date.now()) + GRACE_MS) as HttpAnswer,
    mail(task, timeoutMs) {
      // nodemailer is loaded by the helper alone, from where the server finds its packages
      mailer ??= createRequire(import.meta.url).resolve('nodemailer');
      return run({ kind: 'mail', module: mailer, ...task }, timeoutMs) as { messageId: string };
    },
  };
}
