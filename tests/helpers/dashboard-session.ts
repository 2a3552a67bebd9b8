// One browser test file's set-up: the real server serving the built dashboard (DASHBOARD_DIR, or
// OUTPOST_DASHBOARD_DIR for another build), an admin, the SDK signed in as that admin, the file's
// own data, and Chromium with one context and page. dashboardSession registers beforeAll/afterAll
// and returns an object whose fields beforeAll fills (read them inside hooks and tests only).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type PocketBase from 'pocketbase';
import { launchBrowser, signIn } from './browser';
import { DASHBOARD_DIR, startServer, type TestServer } from './server';
import type { AppOptions } from '../../server/context';

interface Admin {
  email: string;
  password: string;
}

interface SessionOptions<T> {
  admin: Admin;
  /** Default 1280x800. */
  viewport?: { width: number; height: number };
  /** What prefers-color-scheme answers (Playwright's default: light). */
  colorScheme?: 'light' | 'dark';
  /** The browser's time zone (an IANA name; Playwright sets it through CDP's Emulation.setTimezoneOverride). */
  timezoneId?: string;
  /** A phone: isMobile and hasTouch. */
  mobile?: boolean;
  /** Granted to the server's origin, e.g. clipboard-read and clipboard-write. */
  permissions?: string[];
  /** Runs in every page of the context before the page's own scripts (Playwright's addInitScript). */
  initScript?: () => void;
  /** Signs the page in through the sign-in page before the first test (default true). */
  signIn?: boolean;
  /** The server's options (e.g. a migrationsDir it applies as it starts). */
  serverOptions?: Partial<AppOptions>;
  /** Creates the file's data through the admin's SDK; what it returns is `seeded`. */
  seed?: (api: PocketBase, server: TestServer) => Promise<T>;
}

interface DashboardSession<T> {
  server: TestServer;
  url: string;
  /** The SDK, signed in as the admin. */
  api: PocketBase;
  admin: Admin;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  seeded: T;
}

export function dashboardSession<T = undefined>(opts: SessionOptions<T>): DashboardSession<T> {
  const session = { admin: opts.admin } as DashboardSession<T>;

  beforeAll(async () => {
    if (!fs.existsSync(path.join(DASHBOARD_DIR, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
    const { admin } = opts;
    // each part is kept as soon as it runs, so afterAll stops it when a later step fails
    session.server = await startServer({ dashboard: true, options: opts.serverOptions });
    session.url = session.server.url;
    session.api = session.server.client();
    await session.api.admins.create({ email: admin.email, password: admin.password, passwordConfirm: admin.password });
    await session.api.admins.authWithPassword(admin.email, admin.password);
    session.seeded = opts.seed ? await opts.seed(session.api, session.server) : (undefined as T);

    session.browser = await launchBrowser();
    session.context = await session.browser.newContext({
      viewport: opts.viewport ?? { width: 1280, height: 800 },
      colorScheme: opts.colorScheme,
      timezoneId: opts.timezoneId,
      ...(opts.mobile ? { isMobile: true, hasTouch: true } : {}),
    });
    if (opts.permissions) await session.context.grantPermissions(opts.permissions, { origin: session.url });
    if (opts.initScript) await session.context.addInitScript(opts.initScript);
    session.page = await session.context.newPage();
    session.page.on('pageerror', (err) => console.error('[pageerror]', err));
    if (opts.signIn ?? true) await signIn(session.page, session.url, admin);
  });

  afterAll(async () => {
    await session.browser?.close();
    await session.server?.close();
  });

  return session;
}
