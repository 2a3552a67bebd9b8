// The collection editor in Chromium against the real server: a base collection with one field of
// every type (options set), an index and rules; reopened as saved; field and collection renames
// through the confirm dialog (the data survives); remove/restore; a rule typo; duplicate; delete.
// Each case works on the collection the first made.
import { describe, expect, it } from 'vitest';
import { screenshot, label } from '../helpers/browser';
import { addField, api, editor, openCollection, openRow, page, switchOn, toast, typeCode, withCollectionsEditor } from '../helpers/collections-editor';

withCollectionsEditor();

describe('collection editor', () => {
  it('creates a base collection with one field of every type, an index and rules', async () => {
    await page.getByRole('button', { name: 'New collection' }).click();
    await editor().getByText('New collection', { exact: true }).waitFor();
    await editor().getByLabel(label('Name')).fill('My articles');
    expect(await editor().getByLabel(label('Name')).inputValue()).toBe('My_articles');
    await editor().getByLabel(label('Name')).fill('articles');

    let row = await addField('Plain text', 'title');
    await row.getByLabel('Min length').fill('2');
    await row.getByLabel('Max length').fill('100');
    await row.getByLabel('Regex pattern').fill('([a-z');
    await row.getByLabel('Max length').click();
    // the editor words it as the server does, with the Go parser's reason
    await row.getByText('Error parsing regexp: /([a-z/u: Unterminated character class.').waitFor();
    await row.getByLabel('Regex pattern').fill('^[a-zA-Z ]+$');
    await switchOn(row, 'Nonempty');
    await screenshot(page, 'collections/editor-fields-text');

    row = await addField('Rich editor', 'body');
    await switchOn(row, 'Strip urls domain');

    row = await addField('Number', 'count');
    await row.getByLabel('Min', { exact: true }).fill('0');
    await row.getByLabel('Max', { exact: true }).fill('10');
    await switchOn(row, 'No decimals');

    row = await addField('Bool', 'published');
    await switchOn(row, 'Presentable');

    row = await addField('Email', 'contact');
    await row.getByLabel('Only domains').fill('example.com');
    await row.getByLabel('Only domains').blur();
    expect(await row.getByLabel('Except domains').isDisabled()).toBe(true);

    row = await addField('Url', 'website');
    await row.getByLabel('Except domains').fill('bad.com, worse.com');

    row = await addField('DateTime', 'published_at');
    await row.getByLabel('Min date', { exact: true }).fill('2024-01-01T08:30:00');

    row = await addField('Select', 'tags');
    await row.getByLabel(label('Choices')).fill('news, tech, life');
    await row.getByLabel('Values').selectOption({ label: 'Multiple' });
    await row.getByLabel(label('Max select')).fill('2');

    row = await addField('JSON', 'meta');
    await row.getByLabel(label('Max size (bytes)')).fill('1000');

    row = await addField('File', 'images');
    await row.getByLabel('Values').selectOption({ label: 'Multiple' });
    await row.getByLabel(label('Max select')).fill('3');
    await row.getByLabel(label('Max file size (bytes)')).fill('1048576');
    await row.getByRole('button', { name: 'Images', exact: true }).click();
    await row.getByLabel('Thumb sizes').fill('50x50, 0x200');
    await switchOn(row, 'Protected');
    await screenshot(page, 'collections/editor-fields-file');

    row = await addField('Relation', 'author');
    await row.getByLabel(label('Collection')).selectOption({ label: 'users' });
    await switchOn(row, 'Cascade delete');
    // views are not offered as relation targets
    expect(await row.getByLabel(label('Collection')).locator('option').allTextContents()).not.toContain('articles_view');

    // an index on title, unique
    await editor().getByRole('button', { name: 'New index' }).click();
    const popup = page.locator('.index-editor');
    await popup.getByText('Create index').waitFor();
    expect(await popup.getByRole('button', { name: 'Set index' }).isDisabled()).toBe(true);
    await popup.getByRole('button', { name: 'title', exact: true }).click();
    await switchOn(popup, 'Unique');
    await screenshot(page, 'collections/index-editor');
    await popup.getByRole('button', { name: 'Set index' }).click();
    await editor().getByRole('button', { name: /Edit index Unique: title/ }).waitFor();
    await editor().getByText('Unique constraints and indexes (1)').waitFor();
    await screenshot(page, 'collections/editor-fields');

    // rules: list for signed-in users, view for everyone, the rest admins only
    await editor().getByRole('tab', { name: 'API Rules' }).click();
    const rules = editor().locator('.rules-tab');
    await rules.locator('[data-field="collection-rules-form_listRule"]').getByRole('button', { name: 'Unlock and set custom rule' }).click();
    await typeCode(rules, 'List/Search rule', "@request.auth.id != ''");
    await rules.locator('[data-field="collection-rules-form_viewRule"]').getByRole('button', { name: 'Unlock and set custom rule' }).click();
    await editor().getByRole('tab', { name: /API Rules/ }).locator('[aria-label^="Some rules are set"]').waitFor();
    await screenshot(page, 'collections/editor-rules');

    // 'Set Admins only' remembers the rule text in the editor: unlocking after a tab switch restores it
    const listRule = () => editor().locator('.rules-tab [data-field="collection-rules-form_listRule"]');
    await listRule().getByRole('button', { name: 'Set Admins only' }).click();
    await listRule().getByText('Only admins can perform this action.').waitFor();
    await editor().getByRole('tab', { name: /Fields/ }).click();
    await editor().getByRole('tab', { name: /API Rules/ }).click();
    await listRule().getByRole('button', { name: 'Unlock and set custom rule' }).click();
    await listRule().locator('.ace_editor').waitFor();
    await expect
      .poll(async () => ((await listRule().locator('.ace_content').textContent()) ?? '').replace(/\u00a0/g, ' '))
      .toContain("@request.auth.id != ''");

    await editor().getByRole('button', { name: 'Create' }).click();
    await toast('Successfully created collection.');
    await page.getByRole('navigation', { name: 'Collections list' }).getByRole('link', { name: 'articles', exact: true }).waitFor();

    const saved = await api.collections.getOne('articles');
    const byName = Object.fromEntries(saved.schema.map((f) => [f.name, f]));
    expect(saved.schema.map((f) => [f.name, f.type])).toEqual([
      ['title', 'text'], ['body', 'editor'], ['count', 'number'], ['published', 'bool'], ['contact', 'email'], ['website', 'url'],
      ['published_at', 'date'], ['tags', 'select'], ['meta', 'json'], ['images', 'file'], ['author', 'relation'],
    ]);
    expect(byName.title.required).toBe(true);
    expect(byName.title.options).toMatchObject({ min: 2, max: 100, pattern: '^[a-zA-Z ]+$' });
    expect(byName.body.options).toMatchObject({ convertUrls: true });
    expect(byName.count.options).toMatchObject({ min: 0, max: 10, noDecimal: true });
    expect(byName.published.presentable).toBe(true);
    expect(byName.contact.options).toMatchObject({ onlyDomains: ['example.com'] });
    expect(byName.website.options).toMatchObject({ exceptDomains: ['bad.com', 'worse.com'] });
    expect(byName.published_at.options.min).toBe('2024-01-01 08:30:00.000Z');
    expect(byName.tags.options).toMatchObject({ values: ['news', 'tech', 'life'], maxSelect: 2 });
    expect(byName.meta.options).toMatchObject({ maxSize: 1000 });
    expect(byName.images.options).toMatchObject({ maxSelect: 3, maxSize: 1048576, thumbs: ['50x50', '0x200'], protected: true });
    expect(byName.images.options.mimeTypes).toContain('image/png');
    const users = await api.collections.getOne('users');
    expect(byName.author.options).toMatchObject({ collectionId: users.id, cascadeDelete: true, maxSelect: 1 });
    expect(saved.indexes).toHaveLength(1);
    expect(saved.indexes[0]).toMatch(/^CREATE UNIQUE INDEX `idx_\w+` ON `articles` \(`title`\)$/);
    expect([saved.listRule, saved.viewRule, saved.createRule, saved.updateRule, saved.deleteRule]).toEqual([
      "@request.auth.id != ''", '', null, null, null,
    ]);
  });

  it('reopens it and finds everything as saved', async () => {
    await openCollection('articles');
    const names = await editor().getByRole('textbox', { name: /^Field name/ }).evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    expect(names).toEqual(['title', 'body', 'count', 'published', 'contact', 'website', 'published_at', 'tags', 'meta', 'images', 'author']);
    // save is off until something changes
    expect(await editor().getByRole('button', { name: 'Save changes' }).isDisabled()).toBe(true);
    await editor().locator('[data-field-name="title"]').getByRole('button', { name: /options of title/ }).click();
    expect(await openRow().getByLabel('Min length').inputValue()).toBe('2');
    expect(await openRow().getByLabel('Regex pattern').inputValue()).toBe('^[a-zA-Z ]+$');
    expect(await openRow().getByRole('switch', { name: 'Nonempty' }).isChecked()).toBe(true);
    await editor().locator('[data-field-name="tags"]').getByRole('button', { name: /options of tags/ }).click();
    // one options panel at a time
    expect(await editor().locator('.field-row--open').count()).toBe(1);
    expect(await openRow().getByLabel(label('Choices')).inputValue()).toBe('news, tech, life');
    expect(await openRow().getByLabel(label('Max select')).inputValue()).toBe('2');
    await editor().locator('[data-field-name="author"]').getByRole('button', { name: /options of author/ }).click();
    expect(await openRow().getByLabel(label('Collection')).locator('option:checked').textContent()).toBe('users');
    await editor().getByRole('button', { name: /Edit index Unique: title/ }).waitFor();
    await editor().getByRole('tab', { name: /API Rules/ }).click();
    await editor().locator('.rules-tab').getByText("@request.auth.id != ''").waitFor();
    expect(await editor().locator('.rules-tab .rule-locked').count()).toBe(3);
    await editor().getByRole('button', { name: 'Cancel' }).click();
    await editor().waitFor({ state: 'detached' });
  });

  it('renames a field and the collection through the confirm dialog, and the data survives', async () => {
    const rec = await api.collection('articles').create({ title: 'Hello world', count: 3, tags: ['news'], meta: { a: 1 } });
    await openCollection('articles');
    await editor().getByLabel(label('Name')).fill('posts');
    await editor().locator('[data-field-name="title"]').getByRole('textbox', { name: /^Field name/ }).fill('headline');
    // multiple → single
    await editor().locator('[data-field-name="tags"]').getByRole('button', { name: /options of tags/ }).click();
    await openRow().getByLabel('Values').selectOption({ label: 'Single' });
    await editor().getByRole('button', { name: 'Save changes' }).click();
    const dialog = page.locator('.confirm-changes');
    await dialog.getByText('Confirm collection changes').waitFor();
    await dialog.getByText(/Renamed collection\s*articles\s*→\s*posts/).waitFor();
    await dialog.getByText(/Renamed field\s*title\s*→\s*headline/).waitFor();
    await dialog.getByText(/Multiple to single value conversion of field\s*tags/).waitFor();
    await screenshot(page, 'collections/confirm-changes');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await toast('Successfully updated collection.');

    const saved = await api.collections.getOne('posts');
    expect(saved.schema.map((f) => f.name)).toContain('headline');
    expect(saved.indexes[0]).toMatch(/ON `posts` \(`headline`\)$/);
    const got = await api.collection('posts').getOne(rec.id);
    expect(got.headline).toBe('Hello world');
    expect(got.count).toBe(3);
    expect(got.tags).toBe('news');
  });

  it('removes a field and restores it before saving', async () => {
    await openCollection('posts');
    const countRow = editor().locator('[data-field-name="count"]');
    await countRow.getByRole('button', { name: /options of count/ }).click();
    await openRow().getByRole('button', { name: 'Remove' }).click();
    await countRow.getByRole('button', { name: 'Restore' }).waitFor();
    expect(await editor().getByRole('button', { name: 'Save changes' }).isDisabled()).toBe(false);
    await screenshot(page, 'collections/editor-field-removed');
    await countRow.getByRole('button', { name: 'Restore' }).click();
    expect(await editor().getByRole('button', { name: 'Save changes' }).isDisabled()).toBe(true);
    // a new field without an id disappears at once
    await addField('Bool', 'temp');
    await openRow().getByRole('button', { name: 'Remove' }).click();
    expect(await editor().locator('[data-field-name="temp"]').count()).toBe(0);
    // reorder with the keyboard: body moves above headline
    await editor().locator('[data-field-name="body"]').getByRole('button', { name: /Reorder field body/ }).focus();
    await page.keyboard.press('ArrowUp');
    const names = await editor().getByRole('textbox', { name: /^Field name/ }).evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    expect(names.slice(0, 2)).toEqual(['body', 'headline']);
    await page.keyboard.press('ArrowDown');
    expect(await editor().getByRole('button', { name: 'Save changes' }).isDisabled()).toBe(true);
    await editor().getByRole('button', { name: 'Cancel' }).click();
    await editor().waitFor({ state: 'detached' });
    expect((await api.collections.getOne('posts')).schema.map((f) => f.name)).toContain('count');
  });

  it('a rule with a typo shows its server error and nothing is saved', async () => {
    await openCollection('posts');
    await editor().getByRole('tab', { name: /API Rules/ }).click();
    await typeCode(editor().locator('.rules-tab'), 'List/Search rule', "headlinee = 'x'");
    await editor().getByRole('button', { name: 'Save changes' }).click();
    await editor().locator('[data-field="collection-rules-form_listRule"] .sf-error').filter({ hasText: /Invalid filter rule/ }).waitFor();
    await editor().getByRole('tab', { name: /API Rules/ }).locator('[aria-label="Has errors"]').waitFor();
    await screenshot(page, 'collections/editor-rules-error');
    expect((await api.collections.getOne('posts')).listRule).toBe("@request.auth.id != ''");
    await editor().getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('You have unsaved changes. Do you really want to close the panel?').waitFor();
    await page.getByRole('button', { name: 'Yes' }).click();
    await editor().waitFor({ state: 'detached' });
  });

  it('duplicates and deletes a collection', async () => {
    await openCollection('posts');
    await editor().getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Duplicate' }).click();
    await editor().getByText('New collection', { exact: true }).waitFor();
    expect(await editor().getByLabel(label('Name')).inputValue()).toBe('posts_duplicate');
    await editor().getByRole('button', { name: 'Create' }).click();
    await toast('Successfully created collection.');
    const dup = await api.collections.getOne('posts_duplicate');
    expect(dup.schema.map((f) => f.name)).toEqual((await api.collections.getOne('posts')).schema.map((f) => f.name));
    expect(dup.indexes[0]).toMatch(/ON `posts_duplicate` \(`headline`\)$/);

    await openCollection('posts_duplicate');
    await editor().getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByText('Do you really want to delete collection "posts_duplicate" and all its records?').waitFor();
    await page.getByRole('button', { name: 'Yes' }).click();
    await toast('Successfully deleted collection "posts_duplicate".');
    await expect(api.collections.getOne('posts_duplicate')).rejects.toMatchObject({ status: 404 });
  });
});
