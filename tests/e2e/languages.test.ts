// The dashboard in another language (issue 37, "Languages"), in Chromium against the built server:
// the language follows the browser, is chosen in the avatar menu and kept across a reload; every
// signed-in screen of the route table is visited in German with no missing word reported
// (src/ui/i18n.ts writes each to window.__outpostMissingWords), and the screens whose words all
// come from the files show no English word that German translates.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { label, screenshot } from '../helpers/browser';
import { dashboardSession } from '../helpers/dashboard-session';
import { ROUTES } from '../../src/shell/routes';
import { englishLeft, missingWords } from '../helpers/language-check';

const ADMIN = { email: 'sprache@example.com', password: 'sprache-pass-123' };
const session = dashboardSession({
  admin: ADMIN,
  signIn: false,
  seed: async (api) => {
    const posts = await api.collections.create({ name: 'posts', type: 'base', schema: [{ name: 'title', type: 'text' }] });
    await api.collection('posts').create({ title: 'erster Beitrag' });
    return { postsId: posts.id };
  },
});

let url: string;
let browser: Browser;
let page: Page;
beforeAll(() => ({ url, browser, page } = session));

describe('languages', () => {
  it('follows the browser: a German Chromium gets the German sign-in page, English words stay unfetched', async () => {
    const context = await browser.newContext({ locale: 'de-DE' });
    const p = await context.newPage();
    const fetched: string[] = [];
    p.on('request', (r) => fetched.push(r.url()));
    await p.goto(`${url}/_/#/login`);
    await p.getByRole('heading', { name: 'Admin-Anmeldung' }).waitFor();
    await p.getByText('Passwort vergessen?').waitFor();
    expect(await p.evaluate(() => document.documentElement.lang)).toBe('de');
    // only the active language's files: German's ui and forms chunks (English is not needed)
    const chunks = fetched.filter((u) => /\/assets\/(ui|forms)-/.test(u));
    expect(chunks.length).toBe(2);
    expect(await missingWords(p)).toEqual([]);
    // a wrong password shows the screen file's words in German
    await p.getByLabel(label('E-Mail')).fill(ADMIN.email);
    await p.getByLabel(label('Passwort')).fill('falsch-falsch-1');
    await p.getByRole('button', { name: 'Anmelden' }).click();
    await p.getByRole('alert').filter({ hasText: 'Ungültige Anmeldedaten.' }).waitFor();
    await screenshot(p, 'language-login-de');
    await context.close();
  });

  it('is chosen in the avatar menu and kept across a reload', async () => {
    await page.goto(`${url}/_/#/login`);
    await page.getByLabel(label('Email')).fill(ADMIN.email);
    await page.getByLabel(label('Password')).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(/#\/collections/);
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitemradio', { name: 'Deutsch' }).click();
    await page.locator('.app-nav').getByRole('link', { name: 'Einstellungen' }).waitFor();
    await page.reload();
    await page.locator('.app-nav').getByRole('link', { name: 'Einstellungen' }).waitFor();
    await page.getByRole('button', { name: /Kontomenü/ }).click();
    expect(await page.getByRole('menuitemradio', { name: 'Deutsch' }).getAttribute('aria-checked')).toBe('true');
    expect(await page.getByRole('menuitem', { name: 'Abmelden' }).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
  });

  it('visits every signed-in screen with no missing word', async () => {
    const screens = ROUTES.filter((r) => r.condition === 'auth' && !r.path.includes(':'));
    expect(screens.length).toBeGreaterThan(10);
    for (const r of screens) {
      await page.goto(`${url}/_/#${r.path}`);
      await page.locator('.route-view').first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(await missingWords(page), r.path).toEqual([]);
    }
  });

  it('shows the settings screens drawn from the files in German', async () => {
    for (const [route, heading] of [['/settings', 'Name der Anwendung'], ['/settings/mail', 'Name des Absenders'], ['/settings/storage', 'S3-Speicher verwenden'], ['/settings/tokens', 'Anmelde-Token für Admins']] as const) {
      await page.goto(`${url}/_/#${route}`);
      // A hash change keeps the previous screen's form up for a moment: wait for this screen's words.
      await page.getByText(heading).first().waitFor();
      await page.waitForLoadState('networkidle');
      const text = await page.locator('body').innerText();
      expect(englishLeft(text), route).toEqual([]);
      for (const english of ['Save changes', 'Show more options', 'Application name', 'Sender name', 'Use S3 storage', 'Admins auth token']) expect(text, route).not.toContain(english);
    }
    await page.goto(`${url}/_/#/settings/mail`);
    await page.locator('.route-view form').first().waitFor();
    await screenshot(page, 'language-mail-settings-de');
  });

  it('words a form error in German', async () => {
    await page.goto(`${url}/_/#/settings`);
    const name = page.getByLabel(label('Name der Anwendung'));
    await name.fill('');
    await name.blur();
    await page.getByText('Darf nicht leer sein.').first().waitFor();
  });

  it("shows the server's 0.22 field error through its code", async () => {
    await page.goto(`${url}/_/#/settings/admins`);
    await page.getByRole('button', { name: /Neuer Admin/ }).first().click();
    const panel = page.getByRole('dialog');
    await panel.getByLabel(label('E-Mail')).fill(ADMIN.email);
    await panel.getByLabel(label('Passwort')).fill('noch-ein-passwort-1');
    await panel.getByLabel(label('Passwort bestätigen')).fill('noch-ein-passwort-1');
    await panel.getByRole('button', { name: 'Erstellen' }).click();
    await panel.getByText('Diese Admin-E-Mail gibt es bereits.').waitFor();
    await page.goto(`${url}/_/#/settings`);
    await page.reload();
  });

  it('goes back to English from the menu', async () => {
    await page.getByRole('button', { name: /Kontomenü/ }).click();
    await page.getByRole('menuitemradio', { name: 'English' }).click();
    await page.locator('.app-nav').getByRole('link', { name: 'Settings' }).waitFor();
    await page.reload();
    await page.locator('.app-nav').getByRole('link', { name: 'Settings' }).waitFor();
  });
});

