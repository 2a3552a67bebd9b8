// Global set-up of the 'server-built' vitest project: bundles the server as `npm run build` does
// into tests/.tmp/built-suite and starts it once (writing its code cache) and stops it, so every
// test file then runs against a warm start, as every `npm start` after the first one is.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, tempDir } from './server';
import { spawnServer } from './server-process';

export default async function setup(): Promise<void> {
  // where vitest.config.ts points the project's OUTPOST_TEST_BUILT_MAIN (the set-up runs before it applies)
  const main = path.join(ROOT, 'tests', '.tmp', 'built-suite', 'main.mjs');
  if (!fs.existsSync(path.join(ROOT, 'dist', 'index.html'))) {
    if (spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' }).status !== 0) throw new Error('the dashboard build failed');
  }
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-server.mjs'), path.dirname(main)], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`the server build failed: ${built.stderr}`);
  const dir = tempDir('outpost-built-suite-');
  try {
    const first = await spawnServer(process.execPath, [main, 'serve', `--dir=${path.join(dir, 'pb_data')}`], dir);
    await first.stop();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
