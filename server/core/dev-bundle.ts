// The worker bundles a server run from its TypeScript sources builds on first use (the hooks
// executor, the read worker) into node_modules/.cache/outpost: a bundle is fresh while it is newer
// than every source it was built from. It is written with the time its build started, so a source
// saved while the build ran (by an editor, or another process's edit) makes the next start build
// it again rather than keep a bundle of the older text. The built server never takes this path.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Where the bundle `name` of the checkout at `root` goes: named for the checkout too, as two
 * checkouts (git worktrees) may share one node_modules, and one's bundle must never pass for the
 * other's (it would be "fresh" by date while built from other sources).
 */
export function bundlePath(root: string, name: string): string {
  const checkout = createHash('sha256').update(path.resolve(root)).digest('hex').slice(0, 10);
  return path.join(root, 'node_modules', '.cache', 'outpost', `${name}-${checkout}.mjs`);
}

/** Whether `out` exists and is newer than every one of `sourceMtimes` (ms). */
export function bundleIsFresh(out: string, sourceMtimes: number[]): boolean {
  return fs.existsSync(out) && fs.statSync(out).mtimeMs > Math.max(...sourceMtimes);
}

/** Writes `contents` to `out` (atomically), dated `buildStartedMs` less a margin for coarse file times. */
export function writeBundle(out: string, contents: Uint8Array, buildStartedMs: number): void {
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const tmp = `${out}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, contents);
  const stamp = (buildStartedMs - 2000) / 1000;
  fs.utimesSync(tmp, stamp, stamp);
  fs.renameSync(tmp, out);
}
