// A load generator for bench/hooks.ts, in its own process: `node bench/hooks-load.mjs URL
// CONCURRENCY SECONDS [METHOD] [JSON_BODY]` keeps CONCURRENCY requests in flight for SECONDS (each
// client on its own keep-alive connection) and prints {"rps", "p50", "p99", "errors"} (ms) as one
// JSON line. A request answered with another status than 200 counts as an error.
import http from 'node:http';

const [url, concurrency = '10', seconds = '5', method = 'GET', body = ''] = process.argv.slice(2);
const target = new URL(url);
const latencies = [];
let errors = 0;
const end = Date.now() + Number(seconds) * 1000;
const headers = body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {};

function once(agent) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: target.hostname, port: target.port, path: target.pathname + target.search, method, agent, headers }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve(res.statusCode));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body || undefined);
  });
}

async function client() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  while (Date.now() < end) {
    const t0 = performance.now();
    const status = await once(agent);
    if (status !== 200) errors++;
    latencies.push(performance.now() - t0);
  }
  agent.destroy();
}

await Promise.all(Array.from({ length: Number(concurrency) }, client));
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
console.log(JSON.stringify({ rps: Math.round(latencies.length / Number(seconds)), p50: at(0.5), p99: at(0.99), errors }));
