// The Logs page and the SQL console in German (issue 37, "Languages"), in Chromium against the
// built server: the list, the chart (German numbers and dates), the bulk bar, the 'Request log'
// panel, an invalid filter; the console's run, plan, save popup, lists and delete confirmation.
// No key is missing and no English word German translates is left.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { label, replaceAceText, screenshot } from '../helpers/browser';
import { dashboardSession } from '../helpers/dashboard-session';
import { englishLeft, missingWords } from '../helpers/language-check';

const ADMIN = { email: 'sprache-logs@example.com', password: 'sprache-logs-123' };

const session = dashboardSession({
  admin: ADMIN,
  signIn: false,
  initScript: () => localStorage.setItem('outpost_language', 'de'),
  seed: async (api, server) => {
    // a few guest requests that fail (404, logged at ERROR) give the list and the chart rows
    for (let i = 0; i < 12; i++) await fetch(`${server.url}/api/nirgendwo-${i}`);
    // the request log is written in batches (3 s): the screen opens once they are in
    for (let waited = 0; waited < 15_000; waited += 200) {
      if ((await api.logs.getList(1, 1, { filter: 'data.auth!="admin"' })).items.length) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await api.collections.create({ name: 'posts', type: 'base', schema: [{ name: 'title', type: 'text' }] });
    return undefined;
  },
});

let page: Page;
beforeAll(async () => {
  ({ page } = session);
  // signed in through the German sign-in page
  await page.goto(`${session.url}/_/#/login`);
  await page.getByLabel(label('E-Mail')).fill(ADMIN.email);
  await page.getByLabel(label('Passwort')).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await page.waitForURL(/#\/collections/);
  // the sign-in and the entry route it passes through miss no word either
  await page.waitForLoadState('networkidle');
  expect(await missingWords(page)).toEqual([]);
});

/** The page's text has no English word German translates and no key was reported missing. */
async function allGerman(where: string, scope = page.locator('body')): Promise<string> {
  const text = await scope.innerText();
  expect(englishLeft(text, { inside: true }), where).toEqual([]);
  expect(await missingWords(page), where).toEqual([]);
  return text;
}

describe('the Logs page in German', () => {
  it('shows the list, the chart and its numbers in German', async () => {
    await page.goto(`${session.url}/_/#/logs`);
    await page.locator('.logs-row').first().waitFor({ timeout: 30_000 });
    await page.locator('.logs-chart-canvas[data-drawn]').waitFor();
    await page.getByRole('status').filter({ hasText: /^\d+ Logs? gefunden$/ }).waitFor();
    await page.getByText('Anfragen insgesamt').first().waitFor();
    await page.getByRole('checkbox', { name: 'Anfragen von Admins einbeziehen' }).waitFor();
    expect(await page.getByLabel('Logs durchsuchen').getAttribute('placeholder')).toMatch(/^Suchbegriff oder Filter/);
    // the chart's tooltip: a German date and the series' German name
    const box = await page.locator('.logs-chart-canvas').boundingBox();
    await page.mouse.move(box!.x + box!.width - 20, box!.y + box!.height / 2);
    const tooltip = page.locator('.apexcharts-tooltip');
    await expect.poll(() => tooltip.innerText()).toMatch(/\d\d\.\d\d\.\d{4}, \d\d:\d\d UTC[\s\S]*Anfragen insgesamt/);
    await allGerman('#/logs');
    await screenshot(page, 'language-logs-de');
  });

  it('words the selection and the bulk bar in German', async () => {
    await page.locator('.logs-row').first().getByRole('checkbox').check();
    const bar = page.getByRole('region', { name: 'Aktionen für die Auswahl' });
    await expect.poll(() => bar.innerText()).toMatch(/1 Log ausgewählt/);
    expect(await bar.getByRole('button', { name: 'Als JSON herunterladen' }).isVisible()).toBe(true);
    await allGerman('bulk bar', bar);
    await bar.getByRole('button', { name: 'Zurücksetzen' }).click();
  });

  it("opens the 'Request log' panel in German", async () => {
    await page.locator('.logs-row').first().click();
    const panel = page.getByRole('dialog');
    await panel.getByText('Anfrage-Log').first().waitFor();
    await panel.locator('.log-view-table').waitFor();
    // a request log's execTime with a space before the unit, the German way
    await expect.poll(() => panel.locator('tr[data-key="execTime"] td').innerText()).toMatch(/^\d+(,\d+)? ms$/);
    await allGerman('log panel', panel);
    await screenshot(page, 'language-log-panel-de');
    await panel.getByRole('button', { name: 'Schließen' }).first().click();
    await panel.waitFor({ state: 'hidden' });
  });

  it('says an invalid filter in German, with the server message translated', async () => {
    await page.goto(`${session.url}/_/#/logs?filter=${encodeURIComponent('nope ~~ 1')}`);
    await page.getByText(/^Ungültiger Filter – /).first().waitFor();
    await page.getByText('Keine Logs gefunden.').waitFor();
    await page.getByRole('button', { name: 'Filter zurücksetzen' }).waitFor();
    await allGerman('invalid filter');
  });
});

describe('the SQL console in German', () => {
  const side = () => page.getByRole('complementary', { name: 'Gespeicherte Abfragen und Verlauf' });

  it('shows the console, runs a statement and counts its rows in German', async () => {
    await page.goto(`${session.url}/_/#/sql`);
    await page.locator('.sql-editor .ace_editor').waitFor();
    await page.getByText('Führen Sie eine Anweisung aus, um ihre Zeilen hier zu sehen.').waitFor();
    await page.getByText('Noch keine gespeicherten Abfragen.').waitFor();
    await allGerman('#/sql');
    await page.getByRole('button', { name: 'Ausführen' }).click();
    await page.getByRole('region', { name: /^Ergebnisse: \d+ Zeilen?$/ }).waitFor();
    await expect.poll(() => page.locator('.sql-status').innerText()).toMatch(/^\d+ Zeilen? · [\d,]+ ms$/);
    await expect.poll(() => side().locator('.sql-list-meta').first().innerText()).toMatch(/^\d\d\.\d\d\.\d{4}, \d\d:\d\d:\d\d UTC · \d+ Zeilen?$/);
    await allGerman('#/sql after a run');
  });

  it('draws a plan and a refusal in German', async () => {
    const editor = page.locator('.sql-editor .ace_editor');
    const setSql = async (sql: string) => {
      await editor.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      await page.keyboard.insertText(sql);
      await page.keyboard.press('Escape');
    };
    await setSql('EXPLAIN QUERY PLAN SELECT * FROM posts');
    await page.getByRole('button', { name: 'Ausführen' }).click();
    await page.getByRole('figure', { name: 'Abfrageplan' }).waitFor();
    await expect.poll(() => page.locator('.sql-status').innerText()).toMatch(/^\d+ Planschritte? · /);
    await allGerman('plan');
    await setSql('DELETE FROM posts');
    await page.getByRole('button', { name: 'Ausführen' }).click();
    // the server's refusal through its code (sql_write), in German
    await page.getByRole('alert').filter({ hasText: 'Abgelehnt.' }).waitFor();
    expect(await page.getByRole('alert').innerText()).toMatch(/^Abgelehnt\. Hier können nur lesende Anweisungen laufen \(.+\): DELETE gehört nicht dazu\.$/);
  });

  it("completes in German: the kind of a name, and the editor's name for screen readers", async () => {
    const editor = page.locator('.sql-editor .ace_editor');
    await replaceAceText(page, editor, 'SELECT * FROM pos');
    await page.keyboard.press('Control+Space');
    const popup = page.locator('.ace_autocomplete');
    await popup.waitFor();
    await expect.poll(() => popup.textContent()).toMatch(/posts\s*Tabelle/);
    await page.keyboard.press('Escape');
    expect(await editor.locator('textarea').getAttribute('aria-label')).toMatch(/^SQL-Anweisung/);
  });

  it('saves a query in the German popup, and asks in German before deleting it', async () => {
    await page.getByRole('button', { name: 'Abfrage speichern' }).click();
    const popup = page.locator('.sql-save-popup');
    await popup.getByLabel(label('Name')).fill('Beiträge');
    await allGerman('save popup', popup);
    await screenshot(page, 'language-sql-save-de');
    await popup.getByRole('button', { name: 'Abfrage speichern' }).click();
    await page.getByTestId('toast').filter({ hasText: 'Abfrage gespeichert.' }).first().waitFor();
    await side().getByRole('button', { name: /^Beiträge/ }).waitFor();
    await allGerman('#/sql with a saved query');
    await screenshot(page, 'language-sql-de');
    await side().getByRole('button', { name: 'Gespeicherte Abfrage Beiträge löschen' }).click();
    await page.getByText('Möchten Sie die gespeicherte Abfrage „Beiträge“ wirklich löschen?').waitFor();
    await page.getByRole('button', { name: 'Ja' }).click();
    await side().getByText('Noch keine gespeicherten Abfragen.').waitFor();
    expect(await missingWords(page)).toEqual([]);
  });
});
