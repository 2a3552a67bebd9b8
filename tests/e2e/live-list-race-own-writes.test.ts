// The live records list when its realtime events race its requests, in Chromium against the real
// server (in process): the admin's own create and delete through the editor, the answer held
// (page.route) until the page has handed the record's SSE event to the app, or the SSE events
// held in the page until the answer has been drawn (event before the answer, after it, and between
// the create's answer and the refetch of its row). After each, 'Total found' equals the server's
// count for the list's filter at once and stays so through the recount, the rows agree with it,
// and no new-records notice shows.
import { describe, expect, it } from 'vitest';
import { createInEditor, deleteInEditor, expectSettled, footer, holdNext, isCreate, isDelete, isGetOne, notice, openList, page, poll, row, sse, toast, withRacePage } from '../helpers/live-list-race';

withRacePage();

describe('the admin’s own create and delete (the editor)', () => {
  it('create, event before the answer: counted once, never announced', async () => {
    const tag = 'own-create-before';
    await openList(tag, 2);
    const post = await holdNext(isCreate);
    await createInEditor(`${tag} mine`);
    const { id } = (await post.answer) as { id: string };
    await sse.wait('seen', 'create', id);
    // the answer is still held: the event alone counts the record, and does not announce it
    await poll(() => footer().textContent()).toBe('Total found: 3');
    await page.waitForTimeout(400);
    expect(await notice().count()).toBe(0);
    post.release();
    await toast('Successfully created record.').waitFor();
    await row(id).waitFor();
    await post.done();
    await expectSettled(tag, 0);
  });

  it('create, event after the answer and the refetched row', async () => {
    const tag = 'own-create-after';
    await openList(tag, 2);
    await sse.hold();
    const answered = page.waitForResponse((r) => isCreate(r.request()));
    await createInEditor(`${tag} mine`);
    const { id } = (await (await answered).json()) as { id: string };
    await row(id).waitFor();
    await sse.wait('arrived', 'create', id);
    await poll(() => footer().textContent()).toBe('Total found: 3');
    await sse.release();
    await sse.wait('seen', 'create', id);
    await expectSettled(tag, 0);
  });

  it('create, event between the answer and the refetch of its row', async () => {
    const tag = 'own-create-between';
    await openList(tag, 2);
    const refetch = await holdNext(isGetOne, { readLater: true });
    const answered = page.waitForResponse((r) => isCreate(r.request()));
    await createInEditor(`${tag} mine`);
    const { id } = (await (await answered).json()) as { id: string };
    await refetch.taken;
    await sse.wait('seen', 'create', id);
    await page.waitForTimeout(400);
    expect(await notice().count()).toBe(0);
    expect(await footer().textContent()).toBe('Total found: 3');
    refetch.release();
    await row(id).waitFor();
    await refetch.done();
    await expectSettled(tag, 0);
  });

  it('delete, event before the answer: the row goes, counted once', async () => {
    const tag = 'own-delete-before';
    const [, id] = await openList(tag, 3);
    const del = await holdNext(isDelete);
    await deleteInEditor(id);
    await del.answer;
    await sse.wait('seen', 'delete', id);
    await poll(() => footer().textContent()).toBe('Total found: 2');
    await poll(() => row(id).count()).toBe(0); // gone, not greyed as deleted elsewhere
    del.release();
    await toast('Successfully deleted record.').waitFor();
    await del.done();
    await expectSettled(tag, 0);
  });

  it('delete of the last record, event after the answer: no records, total 0', async () => {
    const tag = 'own-delete-after';
    const [id] = await openList(tag, 1);
    await sse.hold();
    await deleteInEditor(id);
    await toast('Successfully deleted record.').waitFor();
    await sse.wait('arrived', 'delete', id);
    await sse.release();
    await sse.wait('seen', 'delete', id);
    await page.getByText('No records found.').waitFor();
    await expectSettled(tag, 0);
    expect(await footer().textContent()).toBe('Total found: 0');
  });
});
