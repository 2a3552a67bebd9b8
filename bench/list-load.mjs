// A load generator for the list benches, in its own process: `node bench/list-load.mjs URL
// CONCURRENCY SECONDS [ACCEPT_ENCODING]` keeps CONCURRENCY requests in flight for SECONDS and prints
// {"rps", "p50", "p99"} (ms), the body's bytes as sent and its Content-Encoding as one JSON line.
// With ACCEPT_ENCODING (even empty) it sends that header on node:http and reads the body as sent
// (decoding is the client's work); without it, fetch() with its defaults.
import http from 'node:http';

const [url, concurrency = '10', seconds = '5', acceptEncoding] = process.argv.slice(2);
const latencies = [];
const end = Date.now() + Number(seconds) * 1000;
const target = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(concurrency) });
let bytes = 0;
let encoding = 'identity';

function raw() {
  return new Promise((resolve, reject) => {
    const headers = { accept: '*/*', ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) };
    const req = http.request({ host: target.hostname, port: target.port, path: target.pathname + target.search, agent, headers }, (res) => {
      let n = 0;
      res.on('data', (chunk) => (n += chunk.length));
      res.on('end', () => {
        bytes = n;
        encoding = res.headers['content-encoding'] ?? 'identity';
        resolve(res.statusCode);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function viaFetch() {
  const res = await fetch(url);
  bytes = (await res.arrayBuffer()).byteLength;
  return res.status;
}

async function worker() {
  while (Date.now() < end) {
    const t0 = performance.now();
    const status = acceptEncoding === undefined ? await viaFetch() : await raw();
    if (status !== 200) throw new Error(`status ${status}`);
    latencies.push(performance.now() - t0);
  }
}
await Promise.all(Array.from({ length: Number(concurrency) }, worker));
agent.destroy();
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
console.log(JSON.stringify({ rps: Math.round(latencies.length / Number(seconds)), p50: at(0.5), p99: at(0.99), bytes, encoding }));
