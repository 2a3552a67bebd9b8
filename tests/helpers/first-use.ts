// The checks of the modules the server loads on first use, for a start that must prove them
// (tests/server/built-server.test.ts, npm-start.test.ts).
import sharp from 'sharp';
import { expect } from 'vitest';
import { http } from './server';
import type { TestSmtp } from './smtp';

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
