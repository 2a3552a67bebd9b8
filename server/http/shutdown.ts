// What a stopping server (SIGTERM, server/app.ts shutdown) says to its clients: a request that
// still arrives on a connection opened before is refused with 503 and the connection closed (the
// client knows nothing was done and may retry elsewhere or later); an event stream ends with SSE's
// `retry:` field, so EventSource clients reconnect after the restart, spread over a few seconds.
import type http from 'node:http';

/** How long requests under way may take to end once a stop began (then they are cut). */
export const SHUTDOWN_GRACE_MS = 10_000;

export function refuseWhileStopping(res: http.ServerResponse): void {
  const body = JSON.stringify({ code: 503, message: 'The server is shutting down; try again shortly.', data: {} });
  res.shouldKeepAlive = false;
  res.writeHead(503, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'Retry-After': '5' });
  res.end(body);
}

export function endEventStream(res: http.ServerResponse): void {
  if (res.writableEnded) return;
  const retryMs = 2000 + Math.floor(Math.random() * 3000);
  res.end(`retry: ${retryMs}\n\n`);
}
