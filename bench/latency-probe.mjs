// A latency probe for bench/records.ts, in its own process as a user's client is: `node
// bench/latency-probe.mjs URL COUNT AUTHORIZATION` sends COUNT requests one after another on one
// keep-alive connection, with the headers a browser's fetch() sends over http (Accept */*,
// Accept-Encoding gzip, deflate, br), and times each from the request to the last byte of the body
// as the server sent it (compressed; decoding and parsing are the client's work, not the server's).
// Prints {"p50", "p90"} (ms), the body's bytes, its Content-Encoding and the status as one JSON line.
import http from 'node:http';

const [url, count = '300', authorization = ''] = process.argv.slice(2);
const target = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const headers = { accept: '*/*', 'accept-encoding': 'gzip, deflate, br', ...(authorization ? { authorization } : {}) };

function once() {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request({ host: target.hostname, port: target.port, path: target.pathname + target.search, agent, headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk) => (bytes += chunk.length));
      res.on('end', () => resolve({ ms: performance.now() - t0, bytes, encoding: res.headers['content-encoding'] ?? 'identity', status: res.statusCode }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const warmup = 30;
const times = [];
let last;
for (let i = 0; i < warmup + Number(count); i++) {
  last = await once();
  if (last.status !== 200) throw new Error(`status ${last.status}`);
  if (i >= warmup) times.push(last.ms);
}
agent.destroy();
times.sort((a, b) => a - b);
const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
console.log(JSON.stringify({ p50: at(0.5), p90: at(0.9), bytes: last.bytes, encoding: last.encoding, status: last.status }));
