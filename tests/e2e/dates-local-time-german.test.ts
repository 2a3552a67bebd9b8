// Dates in the admin's chosen zone while the dashboard is in German (issue 37), in Chromium with its
// zone set to Europe/Berlin against the real server. German writes dates its own way in lists
// ('15.07.2026, 14:00:00'), but a date input holds 'yyyy-MM-dd HH:mm' whatever the language: the
// record editor's inputs show the local wall time and a time typed in is stored in UTC. The audit
// screen's time filter reads its wall time in the chosen zone (UTC by default, as its list), not
// in the browser's, and its headers name the zone.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type PocketBase from 'pocketbase';
import { screenshot } from '../helpers/browser';
import { dashboardSession } from '../helpers/dashboard-session';

const ZONE = 'Europe/Berlin';
const ADMIN = { email: 'daten@example.com', password: 'daten-pass-123' };
const SUMMER = '2026-07-15 12:00:00.000Z'; // 14:00 CEST

const session = dashboardSession({
  admin: ADMIN,
  timezoneId: ZONE,
  seed: async (api) => {
    const events = await api.collections.create({ name: 'termine', type: 'base', schema: [{ name: 'wann', type: 'date' }] });
    const id = (await api.collection('termine').create({ wann: SUMMER })).id;
    return { eventsId: events.id, id };
  },
});

let url: string;
let page: Page;
let api: PocketBase;
beforeAll(async () => {
  ({ url, page, api } = session);
  await page.evaluate(() => localStorage.setItem('outpost_language', 'de'));
});

const dateField = () => page.locator('.record-editor-panel [data-field="record-editor-form_wann"]');
const auditRows = () => page.locator('.audit-list tbody tr.audit-row');

/** A Date as the wall time a datetime-local input holds in UTC ('yyyy-MM-ddTHH:mm'). */
const utcWall = (d: Date) => d.toISOString().slice(0, 16);

async function openRecord(zone: 'utc' | 'local') {
  await page.evaluate((z) => localStorage.setItem('outpost_date_zone', z), zone);
  await page.goto('about:blank');
  await page.goto(`${url}/_/#/collections?collectionId=${session.seeded.eventsId}&recordId=${session.seeded.id}`);
  await dateField().locator('input[type="time"]').waitFor();
}

describe('dates in German', () => {
  it("the record editor's inputs hold the local wall time and a time typed in is stored in UTC", async () => {
    await openRecord('local');
    await page.getByRole('button', { name: 'Änderungen speichern' }).waitFor();
    expect(await dateField().locator('input[type="date"]').inputValue()).toBe('2026-07-15');
    expect(await dateField().locator('input[type="time"]').inputValue()).toBe('14:00');
    await dateField().locator('input[type="time"]').fill('16:45');
    await screenshot(page, 'dates-german-editor-local');
    await page.getByRole('button', { name: 'Änderungen speichern' }).click();
    await expect.poll(async () => (await api.collection('termine').getOne(session.seeded.id)).wann).toBe('2026-07-15 14:45:00.000Z');
  });

  it('in UTC the inputs hold the UTC wall time', async () => {
    await openRecord('utc');
    expect(await dateField().locator('input[type="date"]').inputValue()).toBe('2026-07-15');
    expect(await dateField().locator('input[type="time"]').inputValue()).toBe('14:45');
  });

  it("the audit screen's time filter is read in the chosen zone, not the browser's", async () => {
    await page.evaluate(() => localStorage.setItem('outpost_date_zone', 'utc'));
    await page.goto('about:blank');
    await page.goto(`${url}/_/#/audit`);
    await auditRows().first().waitFor();
    expect(await page.locator('.audit-list thead th').first().innerText()).toMatch(/^Wann\s+UTC$/);
    // 30 minutes from now in UTC: no change is that recent (read as Berlin's wall time it would
    // be half an hour ago, and the changes just made would show)
    await page.getByLabel('Von', { exact: true }).fill(utcWall(new Date(Date.now() + 30 * 60_000)));
    await expect.poll(() => page.locator('.audit-total').innerText()).toBe('0 Einträge');
    await page.getByLabel('Von', { exact: true }).fill(utcWall(new Date(Date.now() - 30 * 60_000)));
    await expect.poll(() => auditRows().count()).toBeGreaterThan(0);
    await screenshot(page, 'dates-german-audit-utc');

    // in Berlin's time an hour ahead of UTC (winter) or two (summer): the same filter, in local time
    await page.evaluate(() => localStorage.setItem('outpost_date_zone', 'local'));
    await page.reload();
    await auditRows().first().waitFor();
    expect(await page.locator('.audit-list thead th').first().innerText()).toMatch(new RegExp(`^Wann\\s+${ZONE}$`));
    const berlinWall = (d: Date) => new Intl.DateTimeFormat('sv-SE', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(d).replace(' ', 'T');
    await page.getByLabel('Von', { exact: true }).fill(berlinWall(new Date(Date.now() + 30 * 60_000)));
    await expect.poll(() => page.locator('.audit-total').innerText()).toBe('0 Einträge');
  });
});
