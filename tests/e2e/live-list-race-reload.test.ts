// The live records list when its realtime events race its requests, in Chromium against the real
// server (in process): another client's create and delete through the API while a reload
// (Refresh) is in flight, read before or after the change, with the event before or after the
// reload's answer, and with no reload at all. After each, 'Total found' equals the server's count
// for the list's filter at once and stays so through the recount, the rows agree with it, and the
// new-records notice shows only for a create the list does not hold.
import { describe, it } from 'vitest';
import { api, expectSettled, holdNext, isCount, isPage, notice, openList, page, poll, row, sse, withRacePage } from '../helpers/live-list-race';

withRacePage();

describe('another client’s create and delete while the list reloads', () => {
  /** Clicks Refresh with its page and count requests held (read now, or when released). */
  async function reloadHeld(readLater: boolean) {
    const listPage = await holdNext(isPage, { readLater });
    const count = await holdNext(isCount, { readLater });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await Promise.all([listPage.taken, count.taken]);
    if (!readLater) await Promise.all([listPage.answer, count.answer]);
    return {
      /** The page's answer first (drawn), then the count's. */
      async release(drawn: () => Promise<unknown>) {
        listPage.release();
        await drawn();
        const counted = page.waitForResponse((r) => isCount(r.request()));
        count.release();
        await counted;
        await listPage.done();
        await count.done();
      },
    };
  }

  it('create, event before the reload’s answer, read after the create: the page holds it, no notice', async () => {
    const tag = 'other-create-read-after';
    await openList(tag, 2);
    const reload = await reloadHeld(true);
    const created = await api.collection('notes').create({ title: `${tag} theirs` });
    await sse.wait('seen', 'create', created.id);
    await reload.release(() => row(created.id).waitFor());
    await expectSettled(tag, 0);
  });

  it('create, event before the reload’s answer, read before the create: announced, counted, Show adds it', async () => {
    const tag = 'other-create-read-before';
    await openList(tag, 2);
    const reload = await reloadHeld(false);
    const created = await api.collection('notes').create({ title: `${tag} theirs` });
    await sse.wait('seen', 'create', created.id);
    await reload.release(() => page.locator('table.records-table[aria-busy]').waitFor({ state: 'detached' }));
    await expectSettled(tag, 1);
    await notice().getByRole('button', { name: 'Show' }).click();
    await row(created.id).waitFor();
    await expectSettled(tag, 0);
  });

  it('create, event after the reload’s answer that holds it: no notice, counted once', async () => {
    const tag = 'other-create-event-after';
    await openList(tag, 2);
    await sse.hold();
    const created = await api.collection('notes').create({ title: `${tag} theirs` });
    await sse.wait('arrived', 'create', created.id);
    const counted = page.waitForResponse((r) => isCount(r.request()));
    await page.getByRole('button', { name: 'Refresh' }).click();
    await row(created.id).waitFor();
    await counted;
    await sse.release();
    await sse.wait('seen', 'create', created.id);
    await expectSettled(tag, 0);
  });

  it('delete, event before the reload’s answer, read before the delete: the row is greyed, counted once', async () => {
    const tag = 'other-delete-read-before';
    const [, id] = await openList(tag, 3);
    const reload = await reloadHeld(false);
    await api.collection('notes').delete(id);
    await sse.wait('seen', 'delete', id);
    await reload.release(() => page.locator('table.records-table[aria-busy]').waitFor({ state: 'detached' }));
    await page.locator(`tr.row-deleted[data-id="${id}"]`).waitFor();
    await expectSettled(tag, 0);
  });

  it('delete, event before the reload’s answer, read after the delete: the row goes, counted once', async () => {
    const tag = 'other-delete-read-after';
    const [, id] = await openList(tag, 3);
    const reload = await reloadHeld(true);
    await api.collection('notes').delete(id);
    await sse.wait('seen', 'delete', id);
    await reload.release(() => poll(() => row(id).count()).toBe(0));
    await expectSettled(tag, 0);
  });

  it('delete, event after the reload’s answer that went without it: counted once', async () => {
    const tag = 'other-delete-event-after';
    const [, id] = await openList(tag, 3);
    await sse.hold();
    await api.collection('notes').delete(id);
    await sse.wait('arrived', 'delete', id);
    const counted = page.waitForResponse((r) => isCount(r.request()));
    await page.getByRole('button', { name: 'Refresh' }).click();
    await poll(() => row(id).count()).toBe(0);
    await counted;
    await sse.release();
    await sse.wait('seen', 'delete', id);
    await expectSettled(tag, 0);
  });

  it('a create elsewhere with no reload is announced and counted; a delete elsewhere greys its row', async () => {
    const tag = 'other-live';
    const [id] = await openList(tag, 2);
    const created = await api.collection('notes').create({ title: `${tag} theirs` });
    await sse.wait('seen', 'create', created.id);
    await expectSettled(tag, 1);
    await api.collection('notes').delete(id);
    await page.locator(`tr.row-deleted[data-id="${id}"]`).waitFor();
    await expectSettled(tag, 1);
  });
});
