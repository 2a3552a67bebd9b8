// The Auth providers screen in Chromium against the real server: a card per provider file (enabled
// first), the provider popup drawn from the provider file (required fields only when enabled, url
// checks, Clear all fields, the success toast), Apple's client secret generator filling the secret,
// and a user signed in through a real OIDC provider on loopback then unlinked from the record
// editor's 'Authorized providers' tab.
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import { createServer, request, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, label, screenshot, signIn } from '../helpers/browser';
import { startOidc, type TestOidc } from '../helpers/oidc';
import { DASHBOARD_DIR, http, startServer, type TestServer } from '../helpers/server';

const ADMIN = { email: 'providers@example.com', password: 'providers-password-1' };
const REDIRECT = 'http://127.0.0.1:9/redirect';

let server: TestServer;
let oidc: TestOidc;
let browser: Browser;
let page: Page;
let adminToken = '';
let app: HttpServer;
let appUrl = '';

/**
 * A web app in front of the server (it proxies /api/ and /_/ to it, as a same-origin deployment
 * would): a page that loads the pocketbase SDK and signs in with its all-in-one popup flow
 * (authWithOAuth2), writing the outcome into the page.
 */
async function startTestApp() {
  const sdk = fs.readFileSync(path.resolve('node_modules/pocketbase/dist/pocketbase.iife.js'));
  const script = `
    const pb = new PocketBase(location.origin);
    document.getElementById('go').addEventListener('click', async () => {
      const out = document.getElementById('out');
      try {
        const auth = await pb.collection('users').authWithOAuth2({ provider: 'oidc' });
        out.textContent = JSON.stringify({ id: auth.record.id, email: auth.record.email, isNew: auth.meta.isNew, valid: pb.authStore.isValid });
      } catch (err) {
        out.textContent = JSON.stringify({ error: String(err && err.message || err) });
      }
    });`;
  const srv = createServer((req, res) => {
    if (req.url === '/sdk.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(sdk);
    if (req.url === '/app.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    if (req.url?.startsWith('/api/') || req.url?.startsWith('/_/')) {
      const target = new URL(server.url);
      const upstream = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      return void req.pipe(upstream);
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>App</title><button id="go">Sign in</button><pre id="out"></pre><script src="/sdk.js"></script><script src="/app.js"></script>');
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  appUrl = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/`;
  return srv;
}

const toast = (text: string) => page.getByTestId('toast').filter({ hasText: text });
const popup = () => page.locator('.screen-panel').last();
const stored = () => JSON.parse((server.app.db.prepare("SELECT value FROM _params WHERE key = 'settings'").get() as { value: string }).value);
const cardTitles = () => page.locator('.provider-card .provider-title').allTextContents();

async function openProviders() {
  await page.goto(`${server.url}/_/#/settings/auth-providers`);
  await page.locator('.provider-card').first().waitFor();
}

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD_DIR, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  server = await startServer({ dashboard: true });
  app = await startTestApp();
  oidc = await startOidc([REDIRECT, `${appUrl}api/oauth2-redirect`]);
  await http(server.url, 'POST', '/api/admins', { body: { ...ADMIN, passwordConfirm: ADMIN.password } });
  adminToken = (await http(server.url, 'POST', '/api/admins/auth-with-password', { body: { identity: ADMIN.email, password: ADMIN.password } })).body.token;
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err));
  await signIn(page, server.url, ADMIN);
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => app?.close(resolve));
  await browser?.close();
  await server?.close();
  await oidc?.close();
});

describe('Auth providers screen', () => {
  it('shows one card per provider file, each with its logo and a settings button', async () => {
    await openProviders();
    const providerFiles = fs.readdirSync(path.resolve('schemas/providers')).filter((f) => f.endsWith('.schema.json'));
    await expect.poll(() => page.locator('.provider-card').count()).toBe(providerFiles.length);
    expect(providerFiles.length).toBeGreaterThan(0);
    // every logo loads (the images arrive after the cards)
    const loaded = () => page.locator('.provider-card img.provider-logo').evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0).length);
    await expect.poll(loaded, { timeout: 10_000 }).toBe(providerFiles.length);
    await expect(page.getByRole('button', { name: 'GitLab settings' }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'auth-providers');
  });

  it('edits a provider in its popup: required only when enabled, url checks, saved, then listed first', async () => {
    await page.getByRole('button', { name: 'GitLab settings' }).click();
    const panel = popup();
    await panel.getByLabel(label('Custom Auth URL')).waitFor();
    await panel.getByLabel(label('Custom Auth URL')).fill('not a url');
    await panel.getByText('Enable', { exact: true }).click();
    await screenshot(page, 'auth-providers-gitlab');
    const save = panel.getByRole('button', { name: 'Save changes' });
    await expect.poll(() => save.isDisabled()).toBe(true); // clientId/secret missing, url invalid
    await panel.getByLabel(label('Client ID')).fill('gitlab-client');
    await panel.getByLabel(label('Client secret')).fill('gitlab-secret');
    await panel.getByLabel(label('Custom Auth URL')).fill('https://git.example.com/oauth/authorize');
    await expect.poll(() => save.isEnabled()).toBe(true);
    await save.click();
    await toast('Successfully updated provider settings.').waitFor();
    expect(stored().gitlabAuth).toMatchObject({ enabled: true, clientId: 'gitlab-client', clientSecret: 'gitlab-secret', authUrl: 'https://git.example.com/oauth/authorize' });
    await expect.poll(async () => (await cardTitles())[0]).toBe('GitLab');
    await expect(page.locator('.provider-card').first().getByText('Enabled').isVisible()).resolves.toBe(true);

    // Clear all fields, then save: disabled and blank again
    await page.getByRole('button', { name: 'GitLab settings' }).click();
    await popup().getByRole('button', { name: 'Clear all fields' }).click();
    await popup().getByRole('button', { name: 'Save changes' }).click();
    await toast('Successfully updated provider settings.').waitFor();
    await expect.poll(() => stored().gitlabAuth.enabled).toBe(false);
    expect(stored().gitlabAuth.clientId).toBe('');
  });

  it("generates Apple's client secret into the Apple form", async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    await page.getByRole('button', { name: 'Apple settings' }).click();
    const apple = popup();
    await apple.getByLabel(label('Client ID')).fill('com.example.web');
    await apple.getByRole('button', { name: 'Generate secret' }).click();
    const gen = page.locator('.screen-panel-settings-apple-secret');
    await gen.getByLabel(label('Team ID')).waitFor();
    expect(await gen.getByLabel(label('Client ID')).inputValue()).toBe('com.example.web');
    await gen.getByLabel(label('Team ID')).fill('TEAM123456');
    await gen.getByLabel(label('Key ID')).fill('KEY1234567');
    await gen.getByLabel(label('Private key')).fill(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    await screenshot(page, 'auth-providers-apple-secret');
    await gen.getByRole('button', { name: 'Generate and set secret' }).click();
    await toast('Successfully generated client secret.').waitFor();
    await gen.waitFor({ state: 'detached' });
    await apple.getByText('Enable', { exact: true }).click();
    await apple.getByRole('button', { name: 'Save changes' }).click();
    await toast('Successfully updated provider settings.').waitFor();
    const secret = stored().appleAuth.clientSecret as string;
    expect(decodeJwt(secret)).toMatchObject({ iss: 'TEAM123456', sub: 'com.example.web', aud: 'https://appleid.apple.com' });
  });
});

describe('OAuth2 sign-in and the Authorized providers tab', () => {
  it("signs in through the SDK's all-in-one popup flow (realtime '@oauth2'), then finds the link", async () => {
    await http(server.url, 'PATCH', '/api/settings', {
      token: adminToken,
      body: { oidcAuth: { enabled: true, clientId: oidc.clientId, clientSecret: oidc.clientSecret, ...oidc.urls } },
    });
    const appPage = await browser.newPage();
    appPage.on('pageerror', (err) => console.error('[app pageerror]', err));
    await appPage.goto(appUrl);
    const out = appPage.locator('#out');

    // first sign-in: the provider's login and consent in the popup, a new member
    const [popupPage] = await Promise.all([appPage.waitForEvent('popup'), appPage.click('#go')]);
    await popupPage.locator('input[name=login]').fill('pat').catch(async (err) => {
      throw new Error(`the provider page did not show (${String(err)}); app says: ${await out.textContent()}`);
    });
    await popupPage.locator('input[name=password]').fill('anything');
    await popupPage.locator('button[type=submit]').click();
    await popupPage.locator('button[type=submit]').click(); // consent
    await expect.poll(() => out.textContent(), { timeout: 20_000 }).not.toBe('');
    const first = JSON.parse((await out.textContent()) ?? '{}');
    expect(first).toMatchObject({ email: 'pat@example.test', isNew: true, valid: true });
    await screenshot(appPage, 'oauth2-popup-app');

    // second sign-in: the provider remembers the session, the server finds the link
    await appPage.evaluate(() => (document.getElementById('out')!.textContent = ''));
    await appPage.click('#go');
    await expect.poll(() => out.textContent(), { timeout: 20_000 }).not.toBe('');
    expect(JSON.parse((await out.textContent()) ?? '{}')).toEqual({ ...first, isNew: false });
    await appPage.close();
  });

  it('a user signed in through OIDC is listed and unlinked from the record editor', async () => {
    await http(server.url, 'PATCH', '/api/settings', {
      token: adminToken,
      body: { oidcAuth: { enabled: true, clientId: oidc.clientId, clientSecret: oidc.clientSecret, ...oidc.urls } },
    });
    const users = server.client().collection('users');
    const methods = await users.listAuthMethods();
    const info = methods.authProviders.find((p) => p.name === 'oidc')!;
    const back = await oidc.signIn(info.authUrl + encodeURIComponent(REDIRECT), 'zoe');
    const auth = await users.authWithOAuth2Code('oidc', back.searchParams.get('code')!, info.codeVerifier, REDIRECT);
    expect(auth.meta?.isNew).toBe(true);

    const usersCollection = (await http(server.url, 'GET', '/api/collections/users', { token: adminToken })).body;
    await page.goto('about:blank');
    await page.goto(`${server.url}/_/#/collections?collectionId=${usersCollection.id}&recordId=${auth.record.id}`);
    await page.getByRole('tab', { name: 'Authorized providers' }).click();
    await page.locator('.record-provider').filter({ hasText: 'OpenID Connect' }).waitFor();
    await screenshot(page, 'record-authorized-providers');
    await page.locator('.record-provider').getByRole('button', { name: 'Unlink' }).click();
    await page.getByRole('button', { name: 'Yes' }).click();
    await toast('Successfully unlinked the oidc provider.').waitFor();
    await page.getByText('No linked OAuth2 providers.').waitFor();
    expect(server.app.db.prepare('SELECT COUNT(*) AS n FROM _externalAuths WHERE recordId = ?').get(auth.record.id)).toEqual({ n: 0 });
  });
});
