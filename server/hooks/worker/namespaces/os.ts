// `$os` as 0.22 binds Go's os and os/exec: files and folders (errors in Go's words), the
// environment, and `cmd(name, ...args)` (`exec`, deprecated) returning Go's exec.Cmd with
// run(), output() and combinedOutput(), run synchronously (spawnSync: only this executor waits).
// Bytes come back as an array of byte values, as 0.22's docs use them
// (`String.fromCharCode(...cmd.output())`). `$os.exit()` is refused: a hook must not stop the
// server. `dirFS` (for $template) stays unsupported.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { namespace, unsupported } from '../../../migrations/js-unsupported';
import { goCall, pathError, readDirEntries } from './fs-info';

/** Bytes from text, a byte array or a list of byte values (a Go []byte from JS). */
function bytesOf(data: unknown): Buffer {
  if (data instanceof Uint8Array) return Buffer.from(data);
  if (Array.isArray(data)) return Buffer.from(data.map(Number));
  return Buffer.from(data === undefined || data === null ? '' : String(data));
}

const byteList = (buf: Buffer): number[] => Array.from(buf);
const MAX_OUTPUT = 256 * 1024 * 1024;
const SIGNALS: Record<string, string> = { SIGKILL: 'killed', SIGTERM: 'terminated', SIGINT: 'interrupt', SIGSEGV: 'segmentation fault', SIGABRT: 'aborted', SIGHUP: 'hangup', SIGPIPE: 'broken pipe' };

/** Go's exec.LookPath: a name without a slash is searched in $PATH. */
function lookPath(name: string): { file: string; error: string } {
  if (name.includes('/')) return { file: name, error: '' };
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const file = path.join(dir || '.', name);
    try {
      if (fs.statSync(file).isFile()) {
        fs.accessSync(file, fs.constants.X_OK);
        return { file, error: '' };
      }
    } catch {
      /* not here */
    }
  }
  return { file: name, error: `exec: ${JSON.stringify(name)}: executable file not found in $PATH` };
}

/** Go's exec.Cmd: set `dir`, `env` (["K=V", ...]) or `stdin` (text or bytes) before running it once. */
class Cmd {
  path: string;
  args: string[];
  env: string[] | null = null;
  dir = '';
  stdin: unknown = null;
  #lookError: string;
  #started = false;

  constructor(name: unknown, args: unknown[]) {
    const found = lookPath(String(name ?? ''));
    this.path = found.file;
    this.#lookError = found.error;
    this.args = [String(name ?? ''), ...args.map(String)];
  }

  #exec(mode: 'discard' | 'stdout' | 'combined'): Buffer {
    if (this.#started) throw new Error('exec: already started');
    this.#started = true;
    if (this.#lookError) throw new Error(this.#lookError);
    const env = Array.isArray(this.env) ? Object.fromEntries(this.env.map(String).map((kv) => (kv.includes('=') ? [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)] : [kv, '']))) : process.env;
    const input = this.stdin === null || this.stdin === undefined ? undefined : bytesOf(this.stdin);
    const combined = mode === 'combined' ? path.join(os.tmpdir(), `outpost-cmd-${crypto.randomBytes(8).toString('hex')}`) : '';
    const fd = combined ? fs.openSync(combined, 'w+', 0o600) : -1;
    try {
      const out = mode === 'stdout' ? 'pipe' : mode === 'combined' ? fd : 'ignore';
      const r = spawnSync(this.path, this.args.slice(1), {
        argv0: this.args[0],
        cwd: this.dir || undefined,
        env,
        input,
        stdio: [input ? 'pipe' : 'ignore', out, mode === 'combined' ? fd : 'ignore'],
        maxBuffer: MAX_OUTPUT,
        windowsHide: true,
      });
      if (r.error) {
        const code = (r.error as NodeJS.ErrnoException).code;
        throw code === 'ENOENT' || code === 'EACCES' ? pathError('fork/exec', this.path, r.error) : r.error;
      }
      const output = combined ? fs.readFileSync(combined) : mode === 'stdout' ? r.stdout : Buffer.alloc(0);
      if (r.signal) throw new Error(`signal: ${SIGNALS[r.signal] ?? r.signal}`);
      if (r.status !== 0) throw Object.assign(new Error(`exit status ${r.status}`), { exitCode: r.status, output: byteList(output) });
      return output;
    } finally {
      if (fd >= 0) {
        fs.closeSync(fd);
        fs.rmSync(combined, { force: true });
      }
    }
  }

  /** Runs the command; its output is discarded; throws "exit status N" on failure. */
  run(): void {
    this.#exec('discard');
  }
  /** Its standard output (bytes). */
  output(): number[] {
    return byteList(this.#exec('stdout'));
  }
  /** Its standard output and error, interleaved as written (bytes). */
  combinedOutput(): number[] {
    return byteList(this.#exec('combined'));
  }
  string(): string {
    return [this.path, ...this.args.slice(1)].join(' ');
  }
  start(): never {
    return unsupported('$os.cmd(...).start() (a process running beside the handler; use run(), output() or combinedOutput())');
  }
  wait(): never {
    return unsupported('$os.cmd(...).wait()');
  }
}

const perm = (value: unknown, fallback: number) => (value === undefined || value === null ? fallback : Number(value) & 0o7777);

function mkdirAll(dir: string, mode: number): void {
  let st: fs.Stats | null = null;
  try {
    st = fs.statSync(dir);
  } catch {
    /* made below */
  }
  if (st) {
    if (st.isDirectory()) return;
    throw pathError('mkdir', dir, Object.assign(new Error(), { code: 'ENOTDIR' }));
  }
  goCall('mkdir', dir, () => fs.mkdirSync(dir, { recursive: true, mode }));
}

function remove(name: string): void {
  try {
    fs.unlinkSync(name);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM') throw pathError('remove', name, err);
    goCall('remove', name, () => fs.rmdirSync(name));
  }
}

export function osNamespace(): object {
  const cmd = (name: unknown, ...args: unknown[]) => new Cmd(name, args);
  return namespace('$os', {
    args: process.argv.slice(1),
    exec: cmd,
    cmd,
    exit: () => {
      throw new Error("$os.exit() is refused by Outpost's pb_hooks: a hook must not stop the server (throw an error to fail the request instead)");
    },
    getenv: (name: unknown) => process.env[String(name)] ?? '',
    getwd: () => process.cwd(),
    readFile: (file: unknown) => byteList(goCall('open', String(file), () => fs.readFileSync(String(file)))),
    writeFile: (file: unknown, data: unknown, mode: unknown) => goCall('open', String(file), () => fs.writeFileSync(String(file), bytesOf(data), { mode: perm(mode, 0o666) })),
    readDir: (dir: unknown) => readDirEntries(String(dir)),
    tempDir: () => process.env.TMPDIR || '/tmp',
    truncate: (file: unknown, size: unknown) => goCall('truncate', String(file), () => fs.truncateSync(String(file), Number(size) || 0)),
    mkdir: (dir: unknown, mode: unknown) => goCall('mkdir', String(dir), () => fs.mkdirSync(String(dir), { mode: perm(mode, 0o777) })),
    mkdirAll: (dir: unknown, mode: unknown) => mkdirAll(String(dir), perm(mode, 0o777)),
    rename: (from: unknown, to: unknown) => {
      try {
        fs.renameSync(String(from), String(to));
      } catch (err) {
        throw pathError(`rename ${String(from)}`, String(to), err);
      }
    },
    remove: (name: unknown) => remove(String(name)),
    removeAll: (target: unknown) => {
      const p = String(target ?? '');
      if (!p) return;
      if (p === '.' || p.endsWith('/.')) throw new Error(`RemoveAll ${p}: invalid argument`);
      goCall('unlinkat', p, () => fs.rmSync(p, { recursive: true, force: true }));
    },
  });
}
