// The collection editor in Chromium against the real server: an auth collection's options; a view
// whose bad query errors under the Query tab, then a good one; the sidebar's search, pins and order.
import { describe, expect, it } from 'vitest';
import { screenshot, label } from '../helpers/browser';
import { api, editor, openCollection, page, switchOn, toast, typeCode, withCollectionsEditor } from '../helpers/collections-editor';

// the collection the view reads, as the base collection's editor test leaves it named
withCollectionsEditor((client) =>
  client.collections.create({ name: 'posts', type: 'base', schema: [{ name: 'headline', type: 'text' }, { name: 'count', type: 'number' }] }),
);

describe('collection editor', () => {
  it("an auth collection's options", async () => {
    await page.getByRole('button', { name: 'New collection' }).click();
    await editor().getByLabel('Collection type').selectOption('auth');
    await editor().getByLabel(label('Name')).fill('members');
    expect(await editor().getByLabel(label('Name')).getAttribute('placeholder')).toBe('eg. "users"');
    await editor().getByRole('tab', { name: 'Options' }).click();
    const options = editor().locator('.options-tab');
    expect(await options.getByRole('switch', { name: 'Username/Password' }).isChecked()).toBe(true);
    expect(await options.getByLabel(label('Minimum password length')).inputValue()).toBe('8');
    await options.getByLabel(label('Minimum password length')).fill('4');
    await options.getByLabel('Only domains').click();
    await options.getByText('Must be no less than 5.').waitFor();
    await options.getByLabel(label('Minimum password length')).fill('10');
    await options.getByLabel('Only domains').fill('example.com');
    await options.getByLabel('Only domains').blur();
    expect(await options.getByLabel('Except domains').isDisabled()).toBe(true);
    await switchOn(options, 'Forbid authentication for unverified users');
    await options.getByRole('button', { name: 'Unlock and set custom rule' }).click();
    await typeCode(options, 'Manage rule', "@request.auth.id != ''");
    await options.getByRole('link', { name: 'Auth providers settings' }).waitFor();
    await screenshot(page, 'collections/editor-auth-options');
    await editor().getByRole('button', { name: 'Create' }).click();
    await toast('Successfully created collection.');
    const saved = await api.collections.getOne('members');
    expect(saved.type).toBe('auth');
    expect(saved.options).toMatchObject({
      allowEmailAuth: true,
      allowOAuth2Auth: true,
      allowUsernameAuth: true,
      minPasswordLength: 10,
      onlyEmailDomains: ['example.com'],
      onlyVerified: true,
      manageRule: "@request.auth.id != ''",
    });
  });

  it('a view collection: a bad query errors under the Query tab, a good one infers its fields', async () => {
    await page.getByRole('button', { name: 'New collection' }).click();
    await editor().getByLabel('Collection type').selectOption('view');
    await editor().getByLabel(label('Name')).fill('posts_view');
    await editor().getByRole('tab', { name: 'Query' }).waitFor();
    expect(await editor().locator('[data-field="collection-rules-form_createRule"]').count()).toBe(0);
    await typeCode(editor().locator('.query-tab'), 'Select query', 'SELECT * FROM posts');
    await editor().getByRole('button', { name: 'Create' }).click();
    const err = editor().locator('.query-tab .sf-error').first();
    await err.waitFor();
    expect(await err.textContent()).toMatch(/Invalid query/);
    await editor().getByRole('tab', { name: /Query/ }).locator('[aria-label="Has errors"]').waitFor();
    await screenshot(page, 'collections/editor-query-error');
    expect((await api.collections.getFullList()).map((c) => c.name)).not.toContain('posts_view');

    await typeCode(editor().locator('.query-tab'), 'Select query', 'SELECT id, headline, count FROM posts');
    await editor().getByRole('button', { name: 'Create' }).click();
    await toast('Successfully created collection.');
    const saved = await api.collections.getOne('posts_view');
    expect(saved.schema.map((f) => f.name)).toEqual(['headline', 'count']);

    await openCollection('posts_view');
    await editor().getByRole('list', { name: 'View fields' }).getByText('headline').waitFor();
    await screenshot(page, 'collections/editor-query');
    await editor().getByRole('tab', { name: /API Rules/ }).click();
    expect(await editor().locator('.rules-tab .rule-locked, .rules-tab .rule-editor').count()).toBe(2);
    await editor().getByRole('button', { name: 'Cancel' }).click();
    // no records actions for views: New record is hidden
    expect(await page.getByRole('button', { name: 'New record' }).count()).toBe(0);
    await screenshot(page, 'collections/page-view');
  });

  it('the sidebar searches, pins and orders collections', async () => {
    const nav = page.getByRole('navigation', { name: 'Collections list' });
    const order = await nav.getByRole('link').allTextContents();
    expect(order).toEqual(['members', 'users', 'posts', 'posts_view']);
    await nav.getByRole('button', { name: 'Pin posts', exact: true }).click();
    await nav.getByText('Pinned').waitFor();
    await nav.getByText('Others').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('@pinnedCollections'))).toContain((await api.collections.getOne('posts')).id);
    await page.getByLabel('Search collections').fill('zzz');
    await page.getByText('No collections found.').waitFor();
    await page.getByLabel('Search collections').fill('');
    await screenshot(page, 'collections/sidebar-pinned');
  });
});
