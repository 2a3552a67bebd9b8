// Issue 33, beyond 0.22: what a project's old migrations saved and 0.22 keeps, though it breaks
// records, is said where the dashboard shows that collection. The project folder of our
// reproductions (tests/helpers/pb022-compat-migrations.ts) is applied as the server starts; its
// `legacy` collection keeps a JSON field without a size (0.22 refuses every value) and its `stats`
// view fails when read.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dashboardSession } from '../helpers/dashboard-session';
import { tempDir } from '../helpers/server';
import { IDS, PROJECT } from '../helpers/pb022-compat-migrations';

const migrationsDir = path.join(tempDir('outpost-e2e-migrated-'), 'pb_migrations');
fs.mkdirSync(migrationsDir);
for (const [name, text] of Object.entries(PROJECT)) fs.writeFileSync(path.join(migrationsDir, name), text);
afterAll(() => fs.rmSync(path.dirname(migrationsDir), { recursive: true, force: true }));

const ADMIN = { email: 'migrated@example.com', password: 'migrated-pass-123' };
const s = dashboardSession({ admin: ADMIN, serverOptions: { migrationsDir } });

describe('a migrated project', () => {
  it('the records screen of a collection with a JSON field of size 0 says every value is refused', async () => {
    await s.page.goto(`${s.url}/_/#/collections?collectionId=${IDS.legacy}`);
    const notice = s.page.locator('.records-collection-problems');
    await notice.waitFor();
    expect(await notice.innerText()).toContain('The JSON field "meta" has a maximum size of 0 bytes, so every value is refused.');
  });

  it('a view whose query fails when read says so instead of an empty list', async () => {
    await s.page.goto(`${s.url}/_/#/collections?collectionId=posts_stats_000`);
    await s.page.getByText('The records of this view could not be read').waitFor();
  });

  it('a collection without such problems shows no notice', async () => {
    await s.page.goto(`${s.url}/_/#/collections?collectionId=${IDS.posts}`);
    await s.page.locator('tr.rl-row').first().waitFor();
    expect(await s.page.locator('.records-collection-problems').count()).toBe(0);
  });
});
