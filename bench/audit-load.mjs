// A load generator for bench/audit.ts, in its own process: `node bench/audit-load.mjs BASE
// COLLECTION IDS SECONDS [TOKEN]` runs one client per record id (comma-separated), each on its own
// keep-alive connection, PATCHing its record with a new title and score every time (so every
// update changes two fields) for SECONDS, and prints {"rps", "p50", "p99", "errors"} (ms) as one
// JSON line. A request answered with another status than 200 counts as an error.
import http from 'node:http';

const [base, collection, ids, seconds, token = ''] = process.argv.slice(2);
const target = new URL(base);
const latencies = [];
let errors = 0;
let counter = 0;
const end = Date.now() + Number(seconds) * 1000;

function once(agent, id) {
  const n = ++counter;
  const body = JSON.stringify({ title: `title ${n}`, score: n });
  const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(token ? { authorization: token } : {}) };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: target.hostname, port: target.port, path: `/api/collections/${collection}/records/${id}`, method: 'PATCH', agent, headers }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve(res.statusCode));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function client(id) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  while (Date.now() < end) {
    const t0 = performance.now();
    const status = await once(agent, id);
    if (status !== 200) errors++;
    latencies.push(performance.now() - t0);
  }
  agent.destroy();
}

await Promise.all(ids.split(',').map(client));
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
console.log(JSON.stringify({ rps: Math.round(latencies.length / Number(seconds)), p50: at(0.5), p99: at(0.99), errors }));
