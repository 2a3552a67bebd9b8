// `npm start`: build the dashboard and the server when their outputs are missing or older than the
// sources, then run the built server (dist-server/main.mjs) in this process.
// Extra flags pass through to `serve` (e.g. npm start -- --http=0.0.0.0:8090 --dir=/data); a
// command given first runs instead (npm start -- admin create a@example.com 1234567890).
// scripts/outpost.mjs (the package's `outpost` bin) runs any command line through runBuilt.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dashboard = path.join(root, 'dist', 'index.html');
const server = path.join(root, 'dist-server', 'main.mjs');

function newestMtime(p) {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const name of fs.readdirSync(p)) max = Math.max(max, newestMtime(path.join(p, name)));
  return max;
}

/** Whether `output` is missing or older than any of `inputs` (paths relative to the root). */
function stale(output, inputs) {
  if (!fs.existsSync(output)) return true;
  const sources = inputs.map((p) => path.join(root, p)).filter((p) => fs.existsSync(p));
  return Math.max(...sources.map(newestMtime)) > fs.statSync(output).mtimeMs;
}

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

/** Builds what is stale, then runs the built CLI with `args` (its command line) in this process. */
export async function runBuilt(args) {
  if (stale(dashboard, ['src', 'screens', 'schemas', 'index.html', 'vite.config.ts', 'public', 'scripts/vite-plugin-precompress.ts'])) {
    console.log('Building the dashboard...');
    run('npx', ['vite', 'build', '--logLevel', 'warn']);
  }
  if (stale(server, ['server', 'src', 'scripts/build-server.mjs', 'scripts/server-launcher.mjs', 'package-lock.json'])) {
    console.log('Building the server...');
    run(process.execPath, [path.join(root, 'scripts', 'build-server.mjs')]);
  }
  // the bundle reads its command line from process.argv.slice(2)
  process.argv = [process.argv[0], server, ...args];
  await import(pathToFileURL(server).href);
}

if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  const args = process.argv.slice(2);
  // `npm start` alone, or with flags only, serves
  if (!args.length || args[0].startsWith('-')) args.unshift('serve');
  await runBuilt(args);
}
