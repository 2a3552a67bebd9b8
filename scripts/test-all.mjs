// `npm test`: every check the project has, in order, with one closing summary line.
// lockfile → typecheck → lint → import cycles → dead code (knip) → build (dashboard, server) → vitest (unit, contract, server,
// server-built, e2e).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const only = process.argv.slice(2); // optional vitest project names
const report = path.join(root, 'tests', '.tmp', 'vitest-report.json');
fs.mkdirSync(path.dirname(report), { recursive: true });

function step(name, cmd, args) {
  console.log(`\n▶ ${name}`);
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, env: process.env });
  console.log(`  ${name}: ${r.status === 0 ? 'ok' : 'FAILED'} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  return r.status === 0;
}

let checksFailed = 0;
if (!only.length) {
  if (!step('lockfile', process.execPath, [path.join(root, 'scripts', 'check-lockfile.mjs')])) checksFailed++;
  if (!step('typecheck', 'npm', ['run', '--silent', 'typecheck'])) checksFailed++;
  if (!step('lint', 'npx', ['eslint', '.', '--max-warnings=0'])) checksFailed++;
  if (!step('import cycles', process.execPath, [path.join(root, 'scripts', 'check-cycles.mjs')])) checksFailed++;
  if (!step('dead code', 'npx', ['knip', '--no-progress'])) checksFailed++;
  if (!step('build', 'npx', ['vite', 'build', '--logLevel', 'warn'])) checksFailed++;
  if (!step('build server', process.execPath, [path.join(root, 'scripts', 'build-server.mjs')])) checksFailed++;
}
const projects = only.length ? only : ['unit', 'contract', 'server', 'server-built', 'e2e'];
const vitestOk = step('vitest', 'npx', [
  'vitest', 'run', ...projects.flatMap((p) => ['--project', p]),
  '--reporter=default', '--reporter=json', `--outputFile.json=${report}`,
]);

let passed = 0, failed = 0, skipped = 0;
try {
  const r = JSON.parse(fs.readFileSync(report, 'utf8'));
  passed = r.numPassedTests; failed = r.numFailedTests; skipped = r.numPendingTests + (r.numTodoTests ?? 0);
  // A file that failed to load counts as a failure even when it reported no test.
  failed += r.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
  // Browser tests get one retry (vitest.config.ts); a test that needed it is named here, not hidden.
  for (const file of r.testResults) {
    for (const t of file.assertionResults) {
      if (t.status === 'passed' && t.failureMessages?.length) {
        console.log(`passed on retry: ${path.relative(root, file.name)} > ${t.fullName}\n  first try: ${t.failureMessages[0].split('\n')[0]}`);
      }
    }
  }
} catch {
  failed += 1;
}
if (!vitestOk && failed === 0) failed = 1;
failed += checksFailed;
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
