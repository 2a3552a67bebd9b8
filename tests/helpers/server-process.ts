// The server as a separate process, as users run it (the built bundle, `npm start`): started on a
// free port, waited for until /api/health answers, stopped with SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

/** A port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface ServerProcess {
  url: string;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves once /api/health answers 200 with canBackup (no backup or restore running). */
  waitHealthy(timeoutMs?: number): Promise<void>;
  /** SIGTERM (or `signal`: SIGKILL for a crash) to the process group (npm and what it started), resolved when it exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Spawns `command args…` with `--http=<free port>` appended, in its own process group. */
export async function spawnServer(command: string, args: string[], cwd: string): Promise<ServerProcess> {
  const url = `http://127.0.0.1:${await freePort()}`;
  let out = '';
  const child: ChildProcess = spawn(command, [...args, `--http=${url.slice('http://'.length)}`], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));

  const proc: ServerProcess = {
    url,
    output: () => out,
    async waitHealthy(timeoutMs = 60_000) {
      const t0 = Date.now();
      for (;;) {
        try {
          const res = await fetch(`${url}/api/health`);
          const body = (await res.json()) as { data?: { canBackup?: boolean } };
          if (res.status === 200 && body.data?.canBackup) return;
        } catch {
          /* not up yet, or restarting */
        }
        if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${out}`);
        if (Date.now() - t0 > timeoutMs) throw new Error(`the server did not answer within ${timeoutMs} ms: ${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid!, signal);
        } catch {
          /* already gone */
        }
      }
      await exited;
      // npm may exit before the server it started has run its exit handlers (the code cache)
      for (let i = 0; i < 200 && groupAlive(child.pid!); i++) await new Promise((r) => setTimeout(r, 25));
    },
  };
  await proc.waitHealthy(180_000);
  return proc;
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}
