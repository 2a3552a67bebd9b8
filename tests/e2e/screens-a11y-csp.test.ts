// Every screen of the route table (src/shell/routes.ts), in Chromium against the real server with the
// dashboard's real headers: axe-core finds no serious or critical violation, and the strict
// Content-Security-Policy reports no violation (securitypolicyviolation events and console
// "Refused to …" messages) while the screens and the cheap overlays (collection editor, record
// editor with every field type, admin editor) are used. New routes are checked as soon as they are
// in the table; a route whose path has parameters gets a dummy value.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ROUTES, type RouteDef } from '../../src/shell/routes';
import { launchBrowser, screenshot, signIn } from '../helpers/browser';
import { DASHBOARD_DIR, http, startServer, type TestServer } from '../helpers/server';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const ADMIN = { email: 'a11y@example.com', password: 'a11y-password-1' };

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

let server: TestServer;
let browser: Browser;
let guest: BrowserContext;
let admin: BrowserContext;
let collectionId = '';
const cspViolations: string[] = [];

/** Collects CSP violations of every page of a context (in-page events and console reports). */
async function watchCsp(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const w = window as unknown as { __csp?: string[] };
      (w.__csp ??= []).push(`${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  context.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) cspViolations.push(`console: ${msg.text()}`);
  });
}

async function collectCsp(page: Page, where: string): Promise<void> {
  const found = (await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp?.splice(0) ?? [])) as string[];
  cspViolations.push(...found.map((v) => `${where}: ${v}`));
}

/** Waits until the screen has rendered its data (no skeletons or busy markers, network settled). */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], .skeleton-line'), undefined, { timeout: 15_000 }).catch(() => undefined);
  await page.waitForTimeout(250);
}

/** axe over the page: serious and critical violations, one readable line each. */
async function axeProblems(page: Page, where: string): Promise<string[]> {
  await page.evaluate(AXE_SOURCE); // through the debugging protocol: the page's CSP does not apply
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: unknown[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  })) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where}: [${v.impact}] ${v.id} (${v.help}) at ${v.nodes.slice(0, 5).map((n) => n.target.join(' ')).join(' | ')}${v.nodes[0]?.failureSummary ? ` — ${v.nodes[0].failureSummary.replace(/\s+/g, ' ').slice(0, 200)}` : ''}`);
}

const concretePath = (route: RouteDef) => route.path.replace(/:(\w+)/g, 'dummy-$1-value');

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD_DIR, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  server = await startServer({ dashboard: true });
  await http(server.url, 'POST', '/api/admins', { body: { ...ADMIN, passwordConfirm: ADMIN.password } });
  const token = (await http(server.url, 'POST', '/api/admins/auth-with-password', { body: { identity: ADMIN.email, password: ADMIN.password } })).body.token;
  // a collection with every field type, and a few records, so lists and editors have content
  const target = await http(server.url, 'POST', '/api/collections', { token, body: { name: 'authors', schema: [{ name: 'name', type: 'text', presentable: true }] } });
  const coll = await http(server.url, 'POST', '/api/collections', {
    token,
    body: {
      name: 'everything',
      listRule: '',
      schema: [
        { name: 'title', type: 'text', required: true },
        { name: 'body', type: 'editor' },
        { name: 'count', type: 'number' },
        { name: 'done', type: 'bool' },
        { name: 'contact', type: 'email' },
        { name: 'site', type: 'url' },
        { name: 'due', type: 'date' },
        { name: 'kind', type: 'select', options: { maxSelect: 2, values: ['a', 'b', 'c'] } },
        { name: 'meta', type: 'json', options: { maxSize: 2000000 } },
        { name: 'attachment', type: 'file', options: { maxSelect: 1, maxSize: 5242880 } },
        { name: 'author', type: 'relation', options: { collectionId: target.body.id, maxSelect: 1 } },
      ],
    },
  });
  expect(coll.status, JSON.stringify(coll.body)).toBe(200);
  collectionId = coll.body.id;
  for (let i = 0; i < 3; i++) {
    await http(server.url, 'POST', '/api/collections/everything/records', {
      token,
      body: { title: `Record ${i}`, body: '<p>Hello <b>world</b></p>', count: i, done: i % 2 === 0, meta: { i }, kind: ['a'] },
    });
  }

  browser = await launchBrowser();
  guest = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  admin = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await watchCsp(guest);
  await watchCsp(admin);
  const page = await admin.newPage();
  await signIn(page, server.url, ADMIN);
  await page.close();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('every route of the route table', () => {
  // '/' only redirects; the installer (the entry with ?installer) is a screen of its own
  const screens: { name: string; hash: string; signedIn: boolean }[] = [
    ...ROUTES.filter((r) => r.path !== '/').map((r) => ({ name: r.page + (r.path.startsWith('/auth/') ? '-auth' : ''), hash: concretePath(r), signedIn: r.condition === 'auth' })),
    { name: 'installer', hash: '/?installer', signedIn: false },
    { name: 'notFound', hash: '/no/such/page', signedIn: true },
  ];

  it.each(screens)('$name ($hash): no serious axe violation, no CSP violation', async ({ name, hash, signedIn }) => {
    const page = await (signedIn ? admin : guest).newPage();
    try {
      await page.goto(`${server.url}/_/#${hash}`);
      await settle(page);
      if (signedIn && ROUTES.find((r) => concretePath(r) === hash)?.condition === 'auth') {
        expect(page.url(), 'an auth route must render for the signed-in admin').toContain(hash.split('?')[0]);
      }
      const problems = await axeProblems(page, name);
      await collectCsp(page, name);
      if (problems.length) await screenshot(page, `a11y-${name}`);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('overlays', () => {
  it('collection editor, record editor (every field type), admin editor', async () => {
    const page = await admin.newPage();
    const problems: string[] = [];
    try {
      await page.goto(`${server.url}/_/#/collections?collectionId=${collectionId}`);
      await settle(page);
      await page.getByRole('button', { name: 'New collection' }).click();
      await page.getByRole('dialog').first().waitFor();
      await settle(page);
      problems.push(...(await axeProblems(page, 'collection editor')));
      await collectCsp(page, 'collection editor');
      await screenshot(page, 'a11y-collection-editor');
      await page.reload();
      await settle(page);

      await page.getByRole('button', { name: 'New record' }).click();
      await page.getByRole('dialog').first().waitFor();
      await settle(page);
      problems.push(...(await axeProblems(page, 'record editor')));
      // the record editor validates with the interpreted validator: typing into a field runs it
      await page.getByRole('dialog').first().getByLabel(/^title/).fill('x');
      await settle(page);
      await screenshot(page, 'a11y-record-editor');
      await collectCsp(page, 'record editor');

      await page.goto(`${server.url}/_/#/settings/admins`);
      await page.reload();
      await settle(page);
      await page.getByRole('button', { name: 'New admin' }).click();
      await page.getByRole('dialog').first().waitFor();
      await settle(page);
      problems.push(...(await axeProblems(page, 'admin editor')));
      await collectCsp(page, 'admin editor');
    } finally {
      await page.close();
    }
    expect(problems).toEqual([]);
  });

  it('reported no CSP violation on any screen or overlay', () => {
    expect(cspViolations).toEqual([]);
  });
});
