// The collections, settings, admins and confirmation screens in German (issue 37), in Chromium
// against the built server: each screen with its panels and popups opened shows no English word
// German words differently and reports no missing key; dates and sizes are written the German way.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { label, screenshot } from '../helpers/browser';
import { dashboardSession } from '../helpers/dashboard-session';
import { englishLeft, missingWords, pageWords } from '../helpers/language-check';

const ADMIN = { email: 'bildschirme@example.com', password: 'bildschirme-pass-1' };

const session = dashboardSession({
  admin: ADMIN,
  seed: async (api) => {
    const members = await api.collections.create({ name: 'mitglieder', type: 'auth', schema: [] });
    const posts = await api.collections.create({
      name: 'beitraege',
      type: 'base',
      schema: [
        { name: 'titel', type: 'text' },
        { name: 'autor', type: 'relation', options: { collectionId: members.id, maxSelect: 1, cascadeDelete: true } },
      ],
      indexes: ['CREATE INDEX idx_titel ON beitraege (titel)'],
    });
    await api.collection('beitraege').create({ titel: 'erster Beitrag' });
    await api.backups.create('sicherung.zip');
    return { postsId: posts.id };
  },
});

let page: Page;
let url: string;
beforeAll(async () => {
  ({ page, url } = session);
  await page.evaluate(() => localStorage.setItem('outpost_language', 'de'));
  await page.reload();
  await page.locator('.app-nav').getByRole('link', { name: 'Einstellungen' }).waitFor();
});

// The parts of the collections page that are this file's: the records list inside it has its own
// test (its words are another area's).
const COLLECTIONS_PARTS = '.collections-sidebar, .page-header, .records-collection-problems, [role=dialog]';

/** No missing key so far, no English word on the page (or the parts `scope` selects) as it is now. */
async function germanOnly(what: string, scope = 'body'): Promise<void> {
  await page.waitForLoadState('networkidle');
  expect(await missingWords(page), what).toEqual([]);
  expect(englishLeft(await pageWords(page, scope)), what).toEqual([]);
}

async function open(route: string, waitFor: string): Promise<void> {
  await page.goto(`${url}/_/#${route}`);
  await page.getByText(waitFor).first().waitFor();
}

describe('screens in German', () => {
  it('collections: list, editor with its tabs, field options, new field menu, index popup, confirm-changes popup', async () => {
    await open(`/collections?collectionId=${session.seeded.postsId}`, 'Neue Collection');
    await germanOnly('collections page', COLLECTIONS_PARTS);
    await page.getByRole('button', { name: 'Collection bearbeiten' }).click();
    const panel = page.getByRole('dialog', { name: 'Collection bearbeiten' });
    await panel.getByText('Eindeutige Constraints und Indizes (1)').waitFor();
    await panel.getByRole('button', { name: 'Optionen von titel öffnen' }).click();
    await panel.getByRole('button', { name: 'Nach unten' }).waitFor();
    await germanOnly('collection editor, fields tab', COLLECTIONS_PARTS);
    await screenshot(page, 'language-de-collection-editor');
    await panel.getByRole('button', { name: 'Neues Feld' }).click();
    await panel.getByRole('menu', { name: 'Feldtypen' }).getByText('Datum/Zeit').waitFor();
    await germanOnly('new field menu', COLLECTIONS_PARTS);
    await page.keyboard.press('Escape');
    await panel.getByRole('button', { name: 'Neuer Index' }).click();
    const indexPopup = page.getByRole('dialog', { name: 'Index erstellen' });
    await indexPopup.getByRole('button', { name: 'Index übernehmen' }).waitFor();
    await germanOnly('index popup', COLLECTIONS_PARTS);
    await indexPopup.getByRole('button', { name: 'Abbrechen' }).click();
    await panel.getByRole('tab', { name: 'API-Regeln' }).click();
    await panel.getByText(/Filtersyntax/).waitFor();
    await germanOnly('API rules tab', COLLECTIONS_PARTS);
    // a removed field asks for confirmation on save
    await panel.getByRole('tab', { name: 'Felder' }).click();
    await panel.getByRole('button', { name: 'Optionen von titel öffnen' }).click();
    await panel.getByRole('button', { name: 'Entfernen' }).click();
    await panel.getByRole('button', { name: 'Wiederherstellen' }).waitFor();
    await page.getByRole('button', { name: 'Änderungen speichern' }).click();
    const confirmPopup = page.getByRole('dialog', { name: 'Änderungen bestätigen' });
    await confirmPopup.getByText(/endgültig gelöscht/).waitFor();
    await germanOnly('confirm-changes popup', COLLECTIONS_PARTS);
    await screenshot(page, 'language-de-confirm-changes');
    await confirmPopup.getByRole('button', { name: 'Abbrechen' }).click();
    await page.keyboard.press('Escape');
    await page.getByText('Es gibt ungespeicherte Änderungen. Möchten Sie das Fenster wirklich schließen?').waitFor();
    await germanOnly('unsaved changes confirmation', COLLECTIONS_PARTS);
    await page.getByRole('button', { name: 'Ja' }).click();
  });

  it('collections: a new auth collection with its options tab', async () => {
    await page.getByRole('button', { name: 'Neue Collection' }).first().click();
    const panel = page.getByRole('dialog', { name: 'Neue Collection' });
    await panel.getByRole('combobox', { name: 'Typ der Collection' }).selectOption('auth');
    // named first: the name field's blur would show its error and move the tabs from under the click
    await panel.getByLabel(label('Name')).fill('konten');
    await panel.getByRole('tab', { name: 'Optionen' }).click();
    await panel.getByText('Einstellungen der Auth-Anbieter').waitFor();
    await germanOnly('new auth collection, options tab', COLLECTIONS_PARTS);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Ja' }).click();
    await panel.waitFor({ state: 'hidden' });
  });

  it('relation graph with a collection picked', async () => {
    await open('/collections/graph', 'kaskadierendes Löschen ✕');
    await page.getByRole('combobox', { name: 'Collection finden' }).fill('beitr');
    await page.keyboard.press('Enter');
    await page.getByText('beitraege: verbunden mit mitglieder').waitFor();
    await germanOnly('relation graph');
    await screenshot(page, 'language-de-relation-graph');
  });

  it('backups: list with a German size, create and restore popups', async () => {
    await open('/settings/backups', 'Daten sichern und wiederherstellen');
    await page.locator('.backups-item').first().waitFor();
    // the size in brackets has the German decimal mark
    expect(await page.locator('.backups-item-size').first().innerText()).toMatch(/^\(\d+,\d\d [KM]B\)$/);
    await germanOnly('backups list');
    await page.getByRole('button', { name: 'Neues Backup anlegen' }).click();
    await page.getByText(/Wenn Sie für die Datei-Uploads/).waitFor();
    await germanOnly('create backup popup');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'sicherung.zip wiederherstellen' }).click();
    await page.getByText(/Geben Sie zur Bestätigung/).waitFor();
    await page.getByText(/Migrationsdateien/).first().waitFor();
    await germanOnly('restore backup popup');
    await screenshot(page, 'language-de-restore-backup');
    await page.locator('.backup-restore-popup').getByRole('button', { name: 'Abbrechen' }).click();
    await page.locator('.backup-restore-popup').waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'sicherung.zip löschen' }).click();
    await page.getByText('Möchten Sie sicherung.zip wirklich löschen?').waitFor();
    await germanOnly('delete backup confirmation');
    await page.getByRole('button', { name: 'Nein' }).click();
  });

  it('export and import of collections, with the review popup and the deletions confirmation', async () => {
    await open('/settings/export-collections', 'Alle auswählen');
    await germanOnly('export collections');
    const json = await page.getByTestId('export-preview').innerText();
    await open('/settings/import-collections', 'Aus JSON-Datei laden');
    await germanOnly('import collections, empty');
    // the export without the relation field: a changed collection and a field to delete
    const changed = (JSON.parse(json) as Array<{ name: string; schema: Array<{ name: string }> }>).map((c) =>
      c.name === 'beitraege' ? { ...c, schema: c.schema.filter((f) => f.name !== 'autor') } : c,
    );
    await page.locator('textarea').fill(JSON.stringify(changed));
    await page.getByText('Erkannte Änderungen').waitFor();
    await germanOnly('import collections, detected changes');
    await page.getByRole('button', { name: 'Prüfen' }).click();
    await page.getByRole('button', { name: 'Bestätigen und importieren' }).waitFor();
    await germanOnly('import review popup');
    await screenshot(page, 'language-de-import-review');
    await page.getByRole('button', { name: 'Bestätigen und importieren' }).click();
    await page.getByText(/Möchten Sie die folgenden Felder/).waitFor();
    await germanOnly('import deletions confirmation');
    await page.getByRole('button', { name: 'Nein' }).click();
  });

  it('migrations, hooks, auth providers (with a provider popup) and admins', async () => {
    await open('/settings/migrations', 'Migrationen');
    await page.waitForLoadState('networkidle');
    await germanOnly('migrations');
    await open('/settings/hooks', 'Hooks');
    await page.waitForLoadState('networkidle');
    await germanOnly('hooks');
    await open('/settings/auth-providers', 'Auth-Anbieter');
    await page.locator('.provider-card').first().waitFor();
    await germanOnly('auth providers');
    await page.getByRole('button', { name: /^Einstellungen für / }).first().click();
    await page.getByRole('dialog').waitFor();
    await germanOnly('auth provider popup');
    await page.keyboard.press('Escape');
    await open('/settings/admins', 'Neuer Admin');
    await page.getByText('Sie', { exact: true }).waitFor();
    await germanOnly('admins');
    await screenshot(page, 'language-de-admins');
  });

  it('confirmation pages', async () => {
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const token = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ collectionId: 'abc123', newEmail: 'neu@example.com', exp: 4102444800 })}.sig`;
    for (const [route, text] of [
      [`/auth/confirm-email-change/${token}`, 'Neue E-Mail bestätigen'],
      [`/auth/confirm-password-reset/${token}`, 'Neues Passwort festlegen'],
      ['/auth/confirm-verification/kaputt', 'Ungültiges oder abgelaufenes Verifizierungs-Token.'],
      ['/auth/confirm-email-change/kaputt', 'Ungültiger oder abgelaufener Link zur E-Mail-Änderung.'],
      ['/auth/oauth2-redirect-failure', 'Anmeldung fehlgeschlagen. Sie können dieses Fenster schließen und es in der App erneut versuchen.'],
    ] as const) {
      await open(route, text);
      await germanOnly(route);
    }
    await open(`/auth/confirm-email-change/${token}`, 'Neue E-Mail bestätigen');
    await page.getByText('neu@example.com').waitFor();
    await screenshot(page, 'language-de-confirm-email-change');
  });
});
