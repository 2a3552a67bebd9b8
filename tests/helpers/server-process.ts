// The server as a separate process, as users run it (the built bundle, `npm start`): started on a
// free port, waited for until /api/health answers, stopped with SIGTERM; and the checks of the
// modules it loads on first use, for a start that must prove them.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import sharp from 'sharp';
import { expect } from 'vitest';
import { http } from './server';
import type { TestSmtp } from './smtp';

function freePort(): Promise<number> {
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
  /** SIGTERM to the process group (npm and what it started), resolved when it exited. */
  stop(): Promise<void>;
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
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid!, 'SIGTERM');
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

/**
 * file-type and sharp, loaded on first use: a PNG uploaded as text passes an image/png rule only
 * through a real sniff of its bytes, and a new file's thumb is made by this process (the fixture's
 * own images already have their 100x100 thumbs on disk). Creates the `shots` collection if missing.
 */
export async function checkSniffAndThumb(url: string, token: string, tag: string): Promise<void> {
  if ((await http(url, 'GET', '/api/collections/shots', { token })).status === 404) {
    const made = await http(url, 'POST', '/api/collections', {
      token,
      body: {
        name: 'shots',
        type: 'base',
        schema: [{ name: 'image', type: 'file', options: { maxSelect: 1, maxSize: 1_000_000, mimeTypes: ['image/png'], thumbs: ['40x30'] } }],
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
  }
  const png = await sharp({ create: { width: 200, height: 150, channels: 3, background: { r: 200, g: 30, b: 90 } } }).png().toBuffer();
  const form = new FormData();
  form.append('image', new Blob([png], { type: 'text/plain' }), `${tag}.txt`);
  const res = await fetch(`${url}/api/collections/shots/records`, { method: 'POST', headers: { Authorization: token }, body: form });
  const record = (await res.json()) as { id: string; image: string };
  expect(res.status, JSON.stringify(record)).toBe(200);
  const thumb = await fetch(`${url}/api/files/shots/${record.id}/${record.image}?thumb=40x30`);
  expect(thumb.status).toBe(200);
  const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
  expect([meta.format, meta.width, meta.height]).toEqual(['png', 40, 30]);
}

/** nodemailer, loaded on first use: the test mail reaches the real SMTP server `smtp`. */
export async function checkMail(url: string, token: string, smtp: TestSmtp, tag: string): Promise<void> {
  const on = await http(url, 'PATCH', '/api/settings', {
    token,
    body: { smtp: { enabled: true, host: '127.0.0.1', port: smtp.port, tls: false, password: '', authMethod: 'PLAIN' } },
  });
  expect(on.status, JSON.stringify(on.body)).toBe(200);
  const to = `${tag}@example.com`;
  const sent = await http(url, 'POST', '/api/settings/test/email', { token, body: { email: to, template: 'verification' } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(204);
  const mail = await smtp.waitFor((m) => m.to.includes(to));
  expect(mail.subject).toContain('Verify');
}
