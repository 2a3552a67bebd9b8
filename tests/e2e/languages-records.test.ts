// The records screens in German (issue 37, "Languages"), in Chromium against the built server: the
// records list with its menus, bulk bar, bulk edit, saved views, import and export popups, the
// record editor with its widgets (select, relation picker, rich editor and its image picker, the
// save menu), an auth record's tabs, a view record's preview and the API docs. Each is opened and
// checked for a missing word (src/ui/i18n.ts reports each to window.__outpostMissingWords) and for
// an English word German words differently in its text, aria-labels, titles and placeholders
// (tests/helpers/language-check.ts), on the records screens' own part of the page.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from '../helpers/browser';
import { dashboardSession } from '../helpers/dashboard-session';
import { englishLeft, missingWords, pageWords } from '../helpers/language-check';

const ADMIN = { email: 'datensaetze@example.com', password: 'datensaetze-pass-123' };

const session = dashboardSession({
  admin: ADMIN,
  seed: async (api) => {
    const members = await api.collections.create({ name: 'members', type: 'auth', schema: [{ name: 'nick', type: 'text', presentable: true }] });
    const posts = await api.collections.create({
      name: 'posts',
      type: 'base',
      schema: [
        { name: 'title', type: 'text', presentable: true },
        { name: 'body', type: 'editor' },
        { name: 'day', type: 'date' },
        { name: 'labels', type: 'select', options: { maxSelect: 2, values: ['l1', 'l2', 'l3', 'l4', 'l5', 'l6', 'l7'] } },
        { name: 'meta', type: 'json', options: { maxSize: 2000000 } },
        { name: 'cover', type: 'file', options: { maxSelect: 1, maxSize: 5242880, mimeTypes: ['image/png'], thumbs: ['50x50'] } },
        { name: 'author', type: 'relation', options: { collectionId: members.id, maxSelect: 1 } },
      ],
    });
    const titles = await api.collections.create({ name: 'post_titles', type: 'view', options: { query: 'SELECT id, title FROM posts' } });
    const member = await api.collection('members').create({ email: 'mitglied@example.com', password: 'mitglied-pass-1', passwordConfirm: 'mitglied-pass-1', nick: 'Mitglied' });
    const post = await api.collection('posts').create({ title: 'erster Beitrag', day: '2026-11-28 12:00:00.000Z', labels: ['l1'], meta: { a: 1 }, author: member.id });
    return { membersId: members.id, postsId: posts.id, titlesId: titles.id, memberId: member.id, postId: post.id };
  },
});

let url: string;
let page: Page;
let ids: { membersId: string; postsId: string; titlesId: string; memberId: string; postId: string };
beforeAll(async () => {
  ({ url, page } = session);
  ids = session.seeded;
  await page.evaluate(() => localStorage.setItem('outpost_language', 'de'));
  await page.reload();
  await page.locator('.app-nav').getByRole('link', { name: 'Einstellungen' }).waitFor();
});

/** No missing word so far, and no English word left in the text, aria-labels, titles and placeholders of `scope` (a selector). */
async function expectGerman(scope: string, name: string): Promise<void> {
  expect(await missingWords(page), name).toEqual([]);
  expect(englishLeft(await pageWords(page, scope)), name).toEqual([]);
}

/** The open panels and popups. */
const DIALOGS = '[role="dialog"]';

const list = () => page.locator('.records-list');
const dialog = (name: string | RegExp) => page.getByRole('dialog', { name });

async function openCollection(id: string, footer: string): Promise<void> {
  await page.goto(`${url}/_/#/collections?collectionId=${id}`);
  await list().getByText(footer).waitFor();
}

describe('records screens in German', () => {
  it('lists records: columns menu, bulk bar, delete confirmation', async () => {
    await openCollection(ids.postsId, 'Insgesamt gefunden: 1');
    await list().getByRole('button', { name: 'Spalten ein- und ausblenden' }).click();
    await list().getByText('Sichtbare Spalten').waitFor();
    await expectGerman('.records-list', 'columns menu');
    await page.keyboard.press('Escape');
    await list().getByRole('checkbox', { name: `Datensatz ${ids.postId} auswählen` }).check();
    const bulk = page.getByRole('region', { name: 'Massenaktionen' });
    await bulk.getByText('1 Datensatz ausgewählt').waitFor();
    await expectGerman('.records-list', 'bulk bar');
    await screenshot(page, 'language-records-list-de');
    await bulk.getByRole('button', { name: 'Ausgewählte löschen' }).click();
    await page.getByText('Möchten Sie den ausgewählten Datensatz wirklich löschen?').waitFor();
    await page.getByRole('button', { name: 'Nein' }).click();
  });

  it('bulk edit, export and import popups', async () => {
    await page.getByRole('region', { name: 'Massenaktionen' }).getByRole('button', { name: 'Ausgewählte bearbeiten' }).click();
    const bulk = dialog('1 ausgewählten Datensatz bearbeiten');
    await bulk.getByRole('button', { name: 'Auf 1 Datensatz anwenden' }).waitFor();
    await expectGerman(DIALOGS, 'bulk edit');
    await bulk.getByRole('button', { name: 'Abbrechen' }).click();
    await bulk.waitFor({ state: 'hidden' });

    await list().getByRole('button', { name: 'Exportieren (1 ausgewählt)' }).click();
    const exp = dialog('Datensätze aus posts exportieren');
    await exp.getByText('Exportiert die ausgewählten Datensätze oder alle Datensätze, in der aktuellen Sortierung.').waitFor();
    await expectGerman(DIALOGS, 'export');
    await exp.locator('.overlay-panel-footer').getByRole('button', { name: 'Schließen' }).click();
    await exp.waitFor({ state: 'hidden' });

    await list().getByRole('button', { name: 'Importieren', exact: true }).click();
    const imp = dialog('Datensätze in posts importieren');
    await imp.locator('input[type="file"]').setInputFiles({ name: 'posts.csv', mimeType: 'text/csv', buffer: Buffer.from('title,labels,unknown\nzweiter,l2,x\ndritter,zz,y\n') });
    await imp.getByText('Vorschau (2 Zeilen)').waitFor();
    await imp.getByText('1 gültige Zeile, 1 mit Fehlern (nicht importiert).').waitFor();
    await expectGerman(DIALOGS, 'import');
    await screenshot(page, 'language-records-import-de');
    await imp.locator('.overlay-panel-footer').getByRole('button', { name: 'Schließen' }).click();
    await imp.waitFor({ state: 'hidden' });
  });

  it('saved views', async () => {
    await list().getByRole('button', { name: 'Ansichten' }).click();
    const views = dialog('Gespeicherte Ansichten von posts');
    await views.getByText('Noch keine gespeicherten Ansichten.').waitFor();
    await views.getByPlaceholder('Name der Ansicht').fill('meine');
    await views.getByRole('button', { name: 'Ansicht speichern' }).click();
    await page.getByText('Ansicht „meine“ gespeichert.').waitFor();
    await views.getByRole('button', { name: 'meine umbenennen' }).waitFor();
    await expectGerman(DIALOGS, 'saved views');
    await page.keyboard.press('Escape');
    await views.waitFor({ state: 'hidden' });
  });

  it('record editor with its widgets, pickers and menus', async () => {
    await list().getByRole('row', { name: `Datensatz ${ids.postId} öffnen` }).click();
    const editor = dialog('Datensatz in posts bearbeiten');
    await editor.getByText('Gültiges JSON').waitFor();
    await editor.getByRole('button', { name: '+ Neue Datei hochladen' }).waitFor();
    await editor.getByText('Höchstens 2 Einträge auswählen.').waitFor();
    await expectGerman(DIALOGS, 'editor');
    await screenshot(page, 'language-record-editor-de');

    // the select's search and empty list
    await editor.locator('.record-select-button').click();
    await editor.getByRole('searchbox', { name: 'Optionen durchsuchen' }).fill('zzz');
    await editor.getByText('Keine Optionen gefunden').waitFor();
    await page.keyboard.press('Escape');

    // the relation picker
    // (the button is named by its field's label)
    await editor.locator('.record-relation-open', { hasText: 'Auswahl öffnen' }).click();
    const picker = dialog('Datensätze aus members auswählen');
    await picker.getByText('Ausgewählt (1 von MAX. 1)').waitFor();
    await expectGerman(DIALOGS, 'relation picker');
    await picker.getByRole('button', { name: 'Abbrechen' }).click();
    await picker.waitFor({ state: 'hidden' });

    // the rich editor's image picker
    await editor.getByRole('toolbar', { name: 'Formatierung' }).getByRole('button', { name: 'Bild einfügen' }).click();
    const images = dialog('Bild auswählen');
    await images.getByText('Keine Datensätze mit Bildern gefunden.').waitFor();
    await expectGerman(DIALOGS, 'image picker');
    await screenshot(page, 'language-image-picker-de');
    await images.getByRole('button', { name: 'Abbrechen' }).click();
    await images.waitFor({ state: 'hidden' });

    // the record menu and the save menu
    await editor.getByRole('button', { name: 'Weitere Datensatzoptionen' }).click();
    await page.getByRole('menuitem', { name: 'Duplizieren' }).waitFor();
    await expectGerman(DIALOGS, 'record menu');
    await editor.getByRole('button', { name: 'Weitere Datensatzoptionen' }).click();
    await editor.getByRole('textbox', { name: 'title', exact: true }).fill('geändert');
    await editor.getByRole('button', { name: 'Weitere Speicheroptionen' }).click();
    await editor.getByRole('menuitem', { name: /Speichern und weiter/ }).waitFor();
    await expectGerman(DIALOGS, 'save menu');
    await editor.getByRole('button', { name: 'Abbrechen' }).click();
    await page.getByText('Es gibt ungespeicherte Änderungen. Möchten Sie das Fenster wirklich schließen?').waitFor();
    await page.getByRole('button', { name: 'Ja' }).click();
    await editor.waitFor({ state: 'hidden' });
  });

  it('API docs', async () => {
    // the collections page's API Preview button (that page's words)
    await page.locator('.page-header').getByRole('button', { name: /API/ }).click();
    const docs = dialog('API von posts');
    await docs.getByRole('tab', { name: 'Auflisten/Suchen' }).waitFor();
    await docs.getByText('Wer darf aufrufen:').waitFor();
    await expectGerman(DIALOGS, 'api docs list');
    await docs.getByRole('tab', { name: 'Echtzeit' }).click();
    await docs.getByRole('heading', { name: 'Echtzeit (posts)' }).waitFor();
    await expectGerman(DIALOGS, 'api docs realtime');
    await screenshot(page, 'language-api-docs-de');
    await docs.locator('.overlay-panel-footer').getByRole('button', { name: 'Schließen' }).click();
  });

  it("an auth record's tabs, a view record's preview", async () => {
    await openCollection(ids.membersId, 'Insgesamt gefunden: 1');
    await list().getByRole('row', { name: `Datensatz ${ids.memberId} öffnen` }).click();
    const editor = dialog('Datensatz in members bearbeiten');
    await editor.getByRole('tab', { name: 'Konto' }).waitFor();
    await editor.getByRole('button', { name: /Öffentlich: (An|Aus)/ }).waitFor();
    await expectGerman(DIALOGS, 'auth record');
    await editor.getByRole('tab', { name: 'Autorisierte Anbieter' }).click();
    await editor.getByText('Keine verknüpften OAuth2-Anbieter.').waitFor();
    await expectGerman(DIALOGS, 'auth providers');
    await editor.getByRole('button', { name: 'Weitere Datensatzoptionen' }).click();
    await page.getByRole('menuitem', { name: 'Verifizierungs-E-Mail senden' }).waitFor();
    await editor.getByRole('button', { name: 'Weitere Datensatzoptionen' }).click();
    await editor.getByRole('button', { name: 'Abbrechen' }).click();
    await editor.waitFor({ state: 'hidden' });

    await openCollection(ids.titlesId, 'Insgesamt gefunden: 1');
    await list().getByRole('row', { name: `Datensatz ${ids.postId} öffnen` }).click();
    const preview = dialog('Vorschau des Datensatzes aus post_titles');
    await preview.getByText('erster Beitrag').waitFor();
    await expectGerman(DIALOGS, 'view preview');
    await preview.locator('.overlay-panel-footer').getByRole('button', { name: 'Schließen' }).click();
  });
});
