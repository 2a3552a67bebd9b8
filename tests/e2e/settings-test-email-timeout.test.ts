// The 'Send test email' popup against a stalled SMTP peer (a loopback TCP server that accepts
// connections and never writes a byte, so no greeting ever comes): while the request runs the
// popup cannot be closed (Esc, backdrop click, close buttons), after the 30 s client limit it shows
// 'Test email send timeout.', and the server's own mailer gives up too (nodemailer's greeting
// timeout closes its connection to the peer).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot, label, signIn } from '../helpers/browser';
import { DASHBOARD_DIR, http, startServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
let page: Page;
let stalled: net.Server;
let stalledPort: number;
const sockets = new Set<net.Socket>();
/** When each connection to the stalled peer was accepted, and when the client closed it. */
const connections: Array<{ opened: number; closed?: number }> = [];

const ADMIN = { email: 'mail-timeout@example.com', password: 'mail-timeout-pass-1' };
const toast = (text: string) => page.getByTestId('toast').filter({ hasText: text });

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD_DIR, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');

  // A stalled SMTP server: accepts, reads and discards, never answers.
  stalled = net.createServer((socket) => {
    const entry: { opened: number; closed?: number } = { opened: Date.now() };
    connections.push(entry);
    sockets.add(socket);
    socket.on('data', () => {});
    socket.on('error', () => {});
    socket.on('close', () => {
      entry.closed = Date.now();
      sockets.delete(socket);
    });
  });
  await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', () => resolve()));
  const addr = stalled.address();
  stalledPort = typeof addr === 'object' && addr ? addr.port : 0;
  expect(stalledPort).toBeGreaterThan(0);

  server = await startServer({ dashboard: true });
  await http(server.url, 'POST', '/api/admins', { body: { ...ADMIN, passwordConfirm: ADMIN.password } });
  const auth = await http(server.url, 'POST', '/api/admins/auth-with-password', { body: { identity: ADMIN.email, password: ADMIN.password } });
  expect(auth.status).toBe(200);
  const set = await http(server.url, 'PATCH', '/api/settings', {
    token: auth.body.token,
    body: { smtp: { enabled: true, host: '127.0.0.1', port: stalledPort, tls: false } },
  });
  expect(set.status).toBe(200);
  expect(set.body.smtp).toMatchObject({ enabled: true, host: '127.0.0.1', port: stalledPort, tls: false });

  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err));
  await signIn(page, server.url, ADMIN);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => (stalled ? stalled.close(() => resolve()) : resolve()));
});

describe('Send test email popup against a stalled SMTP server', () => {
  it('cannot be closed while sending and reports the 30 s timeout', { timeout: 60_000 }, async () => {
    await page.goto(`${server.url}/_/#/settings/mail`);
    await page.getByLabel(label('Sender name')).waitFor();
    const dialog = page.getByRole('dialog', { name: 'Send test email' });
    const xButton = dialog.locator('.overlay-close');
    const footerClose = dialog.locator('.overlay-panel-footer').getByRole('button', { name: 'Close' });
    // the footer's primary button; while busy its label is hidden under a spinner (no accessible name)
    const send = dialog.locator('.overlay-panel-footer .btn-primary');

    // Sanity: while idle, Esc and a backdrop click do close the popup, and the × is there (so the
    // checks below are not vacuous).
    await page.getByRole('button', { name: 'Send test email' }).click();
    await dialog.waitFor();
    expect(await xButton.count()).toBe(1);
    await dialog.focus();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Send test email' }).click();
    await dialog.waitFor();
    await dialog.focus();
    await page.mouse.click(5, 5);
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Send test email' }).click();
    await dialog.waitFor();
    await dialog.getByLabel('Password reset').check();
    await dialog.getByLabel(label('To email address')).fill('nobody@example.com');
    const started = Date.now();
    expect(await send.textContent()).toBe('Send');
    await send.click();

    // Sending: the request reached the stalled peer, the Send button is busy.
    await expect.poll(() => connections.length, { timeout: 5_000 }).toBe(1);
    await expect.poll(() => send.isDisabled()).toBe(true);
    expect(await send.getAttribute('class')).toContain('btn-loading');
    await screenshot(page, 'settings-mail-test-email-sending');

    // The × is gone and the footer Close is disabled; clicking it anyway does nothing.
    expect(await xButton.count()).toBe(0);
    expect(await footerClose.isDisabled()).toBe(true);
    await footerClose.click({ force: true });
    // Esc, with the focus outside any input (so only the busy state can veto it).
    await dialog.focus();
    await page.keyboard.press('Escape');
    // A click on the backdrop, away from the popup.
    const box = await dialog.boundingBox();
    expect(box).not.toBeNull();
    await page.mouse.click(5, 5);
    expect(box!.x).toBeGreaterThan(5);
    expect(box!.y).toBeGreaterThan(5);
    await page.waitForTimeout(500);
    expect(await dialog.count()).toBe(1);
    expect(await dialog.isVisible()).toBe(true);
    expect(await send.isDisabled()).toBe(true);
    expect(await toast('Test email send timeout.').count()).toBe(0);
    expect(Date.now() - started).toBeLessThan(29_000);

    // After 30 s the client gives up with its message and the popup can be closed again.
    await toast('Test email send timeout.').waitFor({ timeout: 40_000 });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(29_500);
    expect(elapsed).toBeLessThan(40_000);
    expect(await toast('Successfully sent test email.').count()).toBe(0);
    await screenshot(page, 'settings-mail-test-email-timeout');
    await expect.poll(() => send.isDisabled()).toBe(false);
    expect(await dialog.isVisible()).toBe(true);
    await xButton.waitFor();

    // The server gives up as well: nodemailer's greeting timeout closes its connection.
    await expect.poll(() => connections[0].closed, { timeout: 10_000 }).toBeDefined();
    expect(connections[0].closed! - connections[0].opened).toBeLessThan(40_000);
    expect(connections).toHaveLength(1);

    await footerClose.click();
    await dialog.waitFor({ state: 'detached' });
  });
});
