// Debian's nats-server (`apt-get install -y nats-server`), started on a free loopback port for the
// tests that join Outpost instances through NATS, and stopped after them.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { freePort } from './server-process';

export interface TestNats {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

function findNatsServer(): string {
  const candidates = [process.env.NATS_SERVER_PATH, '/usr/sbin/nats-server', '/usr/bin/nats-server', spawnSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' }).stdout.trim()];
  const found = candidates.find((p): p is string => Boolean(p) && fs.existsSync(p as string));
  if (!found) throw new Error('nats-server is not installed: `apt-get install -y nats-server` (see README, Set-up)');
  return found;
}

export async function startNats(): Promise<TestNats> {
  const port = await freePort();
  let out = '';
  const child: ChildProcess = spawn(findNatsServer(), ['-a', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  for (let i = 0; ; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => (s.end(), resolve(true)));
      s.on('error', () => resolve(false));
    });
    if (up) break;
    if (child.exitCode !== null || i > 200) throw new Error(`nats-server did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    output: () => out,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
