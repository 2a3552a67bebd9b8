// `npm start`: build the dashboard when dist/ is missing or older than the sources, then serve.
// Extra flags pass through to `serve` (e.g. npm start -- --http=0.0.0.0:8090 --dir=/data).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const built = path.join(root, 'dist', 'index.html');

function newestMtime(p) {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const name of fs.readdirSync(p)) max = Math.max(max, newestMtime(path.join(p, name)));
  return max;
}

const sources = ['src', 'screens', 'schemas', 'index.html', 'vite.config.ts', 'public']
  .map((p) => path.join(root, p))
  .filter((p) => fs.existsSync(p));
const stale = !fs.existsSync(built) || Math.max(...sources.map(newestMtime)) > fs.statSync(built).mtimeMs;

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

if (stale) {
  console.log('Building the dashboard...');
  run('npx', ['vite', 'build', '--logLevel', 'warn']);
}
run('npx', ['tsx', 'server/main.ts', 'serve', ...process.argv.slice(2)]);
