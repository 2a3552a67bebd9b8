// The record editor in Chromium against the real server: an auth record created with a password,
// verified toggled (confirmed and declined), the password changed (then used to sign in through
// the SDK).
import { describe, expect, it } from 'vitest';
import PocketBase from 'pocketbase';
import { screenshot, label } from '../helpers/browser';
import { api, field, members, openNew, openRecord, page, panel, toast, url, withEditorPage } from '../helpers/records-editor';

withEditorPage();

describe('record editor', () => {
  it('auth record: create with password, verified confirm/decline, change password', async () => {
    await openNew(members);
    expect(await panel().getByRole('tab', { name: 'Authorized providers' }).count()).toBe(0);
    await field('username').getByLabel(label('Username')).fill('member_one');
    await field('email').getByLabel(label('Email')).fill('member@example.com');
    await field('password').getByLabel(label('Password')).fill('first-pass-1');
    await field('passwordConfirm').getByLabel(label('Password confirm')).fill('first-pass-1');
    await field('nick').getByLabel(label('nick')).fill('Nick');
    await screenshot(page, 'records-editor-auth-new');
    await panel().getByRole('button', { name: 'Create' }).click();
    await toast('Successfully created record.');
    const member = (await api.collection('members').getFullList())[0];
    expect(member).toMatchObject({ username: 'member_one', email: 'member@example.com', nick: 'Nick', verified: false });
    await new PocketBase(url).collection('members').authWithPassword('member@example.com', 'first-pass-1');

    await openRecord(members, member.id);
    expect(await field('username').getByLabel(label('Username')).getAttribute('placeholder')).toBe('Leave empty to auto generate...');
    // declined: reverted
    await field('verified').locator('label.sf-toggle').click();
    await page.getByText('Do you really want to manually change the verified account state?').waitFor();
    await page.getByRole('button', { name: 'No' }).click();
    expect(await field('verified').getByRole('switch').isChecked()).toBe(false);
    // confirmed: kept and saved
    await field('verified').locator('label.sf-toggle').click();
    await page.getByText('Do you really want to manually change the verified account state?').waitFor();
    await page.getByRole('button', { name: 'Yes' }).click();
    expect(await field('verified').getByRole('switch').isChecked()).toBe(true);

    // change password
    expect(await field('password').count()).toBe(0);
    await field('changePassword').locator('label.sf-toggle').click();
    await field('password').getByLabel(label('Password')).fill('second-pass-2');
    await field('passwordConfirm').getByLabel(label('Password confirm')).fill('second-pass-2');
    await screenshot(page, 'records-editor-auth-edit');
    await panel().getByRole('button', { name: 'Save changes' }).click();
    await toast('Successfully updated record.');
    const fresh = await api.collection('members').getOne(member.id);
    expect(fresh.verified).toBe(true);
    const user = new PocketBase(url);
    await user.collection('members').authWithPassword('member_one', 'second-pass-2');
    expect(user.authStore.isValid).toBe(true);
    await expect(new PocketBase(url).collection('members').authWithPassword('member_one', 'first-pass-1')).rejects.toMatchObject({ status: 400 });

    // the providers tab
    await openRecord(members, member.id);
    await panel().getByRole('tab', { name: 'Authorized providers' }).click();
    await panel().getByText('No linked OAuth2 providers.').waitFor();
    await screenshot(page, 'records-editor-auth-providers');
  });
});
