// A load generator for bench/pool-price.ts, in its own process: `node bench/list-load.mjs URL
// CONCURRENCY SECONDS` keeps CONCURRENCY requests in flight for SECONDS and prints
// {"rps", "p50", "p99"} (ms) as one JSON line.
const [url, concurrency = '10', seconds = '5'] = process.argv.slice(2);
const latencies = [];
const end = Date.now() + Number(seconds) * 1000;
async function worker() {
  while (Date.now() < end) {
    const t0 = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`status ${res.status}`);
    latencies.push(performance.now() - t0);
  }
}
await Promise.all(Array.from({ length: Number(concurrency) }, worker));
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
console.log(JSON.stringify({ rps: Math.round(latencies.length / Number(seconds)), p50: at(0.5), p99: at(0.99) }));
