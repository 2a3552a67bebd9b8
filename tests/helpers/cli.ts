// The `outpost` CLI in a child process, as a user runs it: a command that ends (admin, --help, a
// refused flag) with its exit code and output, or `serve` started on a free port
// (server-process.ts). From the sources (server/main.ts through tsx), or the built server when the
// 'server-built' project runs the file (OUTPOST_TEST_BUILT_MAIN).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './server';
import { spawnServer, type ServerProcess } from './server-process';

const MAIN = path.join(ROOT, 'server', 'main.ts');
// tsx's loader by its path: the CLI runs in foreign folders, where 'tsx' does not resolve
const TSX = ['--import', pathToFileURL(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href];
const BUILT_MAIN = process.env.OUTPOST_TEST_BUILT_MAIN;
/** What follows `node` to run the CLI: the built server, or the sources through tsx. */
export const ENTRY = BUILT_MAIN ? [BUILT_MAIN] : [...TSX, MAIN];

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `outpost <args>` in `cwd` until it exits (env: extra variables). */
export function runCli(args: string[], cwd: string, env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...ENTRY, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** `outpost serve <args> --http=<free port>` in `cwd`, once /api/health answers. */
export function startCliServer(args: string[], cwd: string): Promise<ServerProcess> {
  return spawnServer(process.execPath, [...ENTRY, 'serve', ...args], cwd);
}

/** `outpost <args>` in `cwd`, left running in its own process group (the caller waits for it and stops it). */
export function spawnCli(args: string[], cwd: string, env: Record<string, string | undefined> = {}): ChildProcess {
  return spawn(process.execPath, [...ENTRY, ...args], { cwd, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
}
