// The command palette in Chromium against the real server: Ctrl+K opens it, a collection is found
// by name and opened with Enter, Esc closes; a 15-character id opens that record in whichever
// collection holds it; admins and settings screens are found and actions run (new record, theme);
// '?' lists the keyboard shortcuts. Dark colour scheme: axe runs on the dark set.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from '../helpers/browser';
import { dashboardSession } from '../helpers/dashboard-session';
import { axeSerious, bodyBg, DARK_BG, LIGHT_BG } from '../helpers/page-checks';

const ADMIN = { email: 'palette@example.com', password: 'palette-pass-123' };

const session = dashboardSession({
  admin: ADMIN,
  colorScheme: 'dark',
  seed: async (api) => {
    const notes = await api.collections.create({
      name: 'notes',
      type: 'base',
      listRule: '',
      schema: [
        { name: 'title', type: 'text' },
        { name: 'done', type: 'bool' },
      ],
    });
    for (let i = 0; i < 3; i++) await api.collection('notes').create({ title: `note ${i}`, done: i % 2 === 0 });
    const tasks = await api.collections.create({ name: 'tasks', type: 'base', schema: [{ name: 'name', type: 'text' }] });
    const task = await api.collection('tasks').create({ name: 'the task' });
    return { notesId: notes.id, tasksId: tasks.id, taskId: task.id };
  },
});

let url: string;
let page: Page;
let notesId: string;
let tasksId: string;
let taskId: string;
beforeAll(async () => {
  ({ url, page } = session);
  ({ notesId, tasksId, taskId } = session.seeded);
  // the palette lists the collections the dashboard holds, which the collections page loads
  await page.goto(`${url}/_/#/collections?collectionId=${notesId}`);
  await page.getByText('note 1').first().waitFor();
});

describe('command palette', () => {
  const palette = () => page.getByRole('dialog', { name: 'Command palette' });
  const search = () => palette().getByRole('combobox');

  it('Ctrl+K opens it; a collection is found by name and opened with Enter; Esc closes', async () => {
    await page.goto(`${url}/_/#/settings`);
    await page.locator('.page-wrapper').first().waitFor();
    await page.keyboard.press('Control+k');
    await search().waitFor();
    await expect.poll(() => search().evaluate((el) => el === document.activeElement)).toBe(true);
    await search().fill('tas');
    await palette().getByRole('option', { name: /tasks/ }).waitFor();
    expect(await axeSerious(page)).toEqual([]);
    await screenshot(page, 'palette-dark');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.hash.includes(`collectionId=${tasksId}`));
    expect(await palette().count()).toBe(0);
    await page.getByText('the task').first().waitFor();

    await page.keyboard.press('Control+k');
    await search().waitFor();
    await page.keyboard.press('Escape');
    await palette().waitFor({ state: 'detached' });
  });

  it('a 15-character id jumps to that record, in whichever collection holds it', async () => {
    await page.goto(`${url}/_/#/collections?collectionId=${notesId}`);
    await page.getByText('note 1').first().waitFor();
    await page.keyboard.press('Control+k');
    await search().fill(taskId);
    const option = palette().getByRole('option', { name: new RegExp(`Open record ${taskId}`) });
    await option.waitFor();
    expect(await option.textContent()).toContain('tasks');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.hash.includes(`collectionId=${tasksId}`) && u.hash.includes(`recordId=${taskId}`));
    await page.getByRole('heading', { name: 'Edit tasks record' }).waitFor();

    // An unknown id says so.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+k');
    await search().fill('zzzzzzzzzzzzzzz');
    await palette().getByRole('option', { name: 'No record with id zzzzzzzzzzzzzzz' }).waitFor();
    await page.keyboard.press('Escape');
  });

  it('finds admins and settings screens, and runs actions (new record here, toggle theme)', async () => {
    await page.goto(`${url}/_/#/collections?collectionId=${notesId}`);
    await page.getByText('note 1').first().waitFor();
    await page.keyboard.press('Control+k');
    await search().fill('palette@');
    await palette().getByRole('option', { name: new RegExp(ADMIN.email) }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.hash.startsWith('#/settings/admins'));
    await page.getByText(ADMIN.email).first().waitFor();

    await page.keyboard.press('Control+k');
    await search().fill('mail set');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.hash === '#/settings/mail');

    await page.goto(`${url}/_/#/collections?collectionId=${notesId}`);
    await page.getByText('note 1').first().waitFor();
    await page.keyboard.press('Control+k');
    await search().fill('new record');
    await palette().getByRole('option', { name: /New record in notes/ }).waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'New notes record' }).waitFor();
    await page.keyboard.press('Escape');

    await page.keyboard.press('Control+k');
    await search().fill('light theme');
    await page.keyboard.press('Enter');
    expect(await bodyBg(page)).toBe(LIGHT_BG);
    await page.keyboard.press('Control+k');
    await search().fill('dark theme');
    await page.keyboard.press('Enter');
    expect(await bodyBg(page)).toBe(DARK_BG);
  });

  it("'?' lists every keyboard shortcut", async () => {
    await page.goto(`${url}/_/#/collections?collectionId=${notesId}`);
    await page.getByText('note 1').first().waitFor();
    await page.locator('body').click({ position: { x: 700, y: 600 } });
    await page.keyboard.press('Shift+?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    for (const text of ['Open the command palette', 'Save the record in the record editor', 'Show this list of keyboard shortcuts']) {
      await help.getByText(text).waitFor();
    }
    await screenshot(page, 'shortcuts-dark');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
  });
});
