// A bare server-sent-events reader over node:http for tests and the bench: it keeps every frame
// (id, event, parsed data), waits for the ones a test expects, and can pause reading to play a
// client that stopped consuming its stream.
import http from 'node:http';
import { http as apiCall } from './server';

export interface SseFrame {
  id: string;
  event: string;
  data: any;
  raw: string;
}

export interface SseClient {
  clientId: string;
  frames: SseFrame[];
  headers: http.IncomingHttpHeaders;
  /** Resolves with the first frame (after `from`) matching `pred`; rejects after `timeoutMs`. */
  next(pred?: (f: SseFrame) => boolean, timeoutMs?: number, from?: number): Promise<SseFrame>;
  /** Resolves when the server ends the stream. */
  closed: Promise<void>;
  isClosed(): boolean;
  /** Stops reading from the socket (the server's writes pile up). */
  pause(): void;
  close(): void;
  /** Called for every frame as it arrives (the bench measures arrival times). */
  onFrame?: (f: SseFrame) => void;
}

export function connectSse(baseUrl: string, opts: { agent?: http.Agent } = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${baseUrl}/api/realtime`, { agent: opts.agent ?? false, headers: { Accept: 'text/event-stream' } }, (res) => {
      res.setEncoding('utf8');
      let buffer = '';
      let closed = false;
      let closeResolve!: () => void;
      const waiters: Array<() => void> = [];
      const client: SseClient = {
        clientId: '',
        frames: [],
        headers: res.headers,
        closed: new Promise((r) => (closeResolve = r)),
        isClosed: () => closed,
        next(pred = () => true, timeoutMs = 10_000, from = 0) {
          return new Promise((ok, fail) => {
            const check = () => {
              const found = client.frames.slice(from).find(pred);
              if (found) {
                clearTimeout(timer);
                ok(found);
                return true;
              }
              return false;
            };
            const timer = setTimeout(() => fail(new Error(`no matching SSE frame within ${timeoutMs} ms`)), timeoutMs);
            if (check()) return;
            const waiter = () => {
              if (!check()) waiters.push(waiter);
            };
            waiters.push(waiter);
          });
        },
        pause: () => res.pause(),
        close: () => {
          req.destroy();
        },
      };
      const finish = () => {
        if (closed) return;
        closed = true;
        closeResolve();
      };
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const raw = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const frame: SseFrame = { id: '', event: 'message', data: undefined, raw };
          const data: string[] = [];
          for (const line of raw.split('\n')) {
            const colon = line.indexOf(':');
            const key = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (key === 'id') frame.id = value;
            else if (key === 'event') frame.event = value;
            else if (key === 'data') data.push(value);
          }
          try {
            frame.data = JSON.parse(data.join('\n'));
          } catch {
            frame.data = data.join('\n');
          }
          client.frames.push(frame);
          client.onFrame?.(frame);
          if (frame.event === 'PB_CONNECT' && !client.clientId) {
            client.clientId = frame.data.clientId;
            resolve(client);
          }
          for (const w of waiters.splice(0)) w();
        }
      });
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
    });
    req.on('error', reject);
  });
}

/**
 * A realtime test file's helpers against the server `baseUrl()` names (a getter: the server starts
 * in beforeAll): JSON calls, SSE clients kept for `closeAll`, and POST /api/realtime.
 */
export function realtimeKit(baseUrl: () => string) {
  const open: SseClient[] = [];
  const api = (method: string, p: string, body?: unknown, token?: string) => apiCall(baseUrl(), method, p, { body, token });
  return {
    api,
    async sse(): Promise<SseClient> {
      const c = await connectSse(baseUrl());
      open.push(c);
      return c;
    },
    subscribe: (c: SseClient, subscriptions: string[], token?: string) => api('POST', '/api/realtime', { clientId: c.clientId, subscriptions }, token),
    closeAll() {
      for (const c of open) c.close();
    },
  };
}
