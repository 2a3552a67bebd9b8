// pb_hooks (issue 34): the rest of 0.22's namespaces real projects use, in a hooks folder
// (tests/helpers/hooks-namespaces-more-project.ts) run by `serve` (the built server in the
// 'server-built' project), started twice: $filesystem files stored as API uploads and served by
// the files API, $tokens the API accepts, RecordUpsertForm's validation errors as 0.22 answers
// them, a sign-in answered by $apis.recordAuthResponse, enrichRecord, dbx's select() and
// recordQuery, and custom commands run by the CLI against the same pb_data.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http as call, tempDir } from '../helpers/server';
import { runCli, startCliServer } from '../helpers/cli';
import type { ServerProcess } from '../helpers/server-process';
import { MORE_HOOK_FILES } from '../helpers/hooks-namespaces-more-project';

const ADMIN = { email: 'more@example.com', password: 'more-pass-1234' };
const work = tempDir('outpost-hooks-more-');
const dataDir = path.join(work, 'pb_data');
let srv: ServerProcess;
let adminToken = '';
const ids: Record<string, string> = {};

const GENERIC = 'Something went wrong while processing your request.';

async function signIn(): Promise<void> {
  adminToken = (await call(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: ADMIN.email, password: ADMIN.password } })).body.token;
}

async function start(): Promise<void> {
  srv = await startCliServer([`--dir=${dataDir}`, '--automigrate=false'], work);
  await signIn();
}

async function create(name: string, body: Record<string, unknown>): Promise<string> {
  const res = await call(srv.url, 'POST', '/api/collections', { token: adminToken, body: { name, type: 'base', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as string;
}

async function addRecord(collection: string, body: Record<string, unknown>): Promise<string> {
  const res = await call(srv.url, 'POST', `/api/collections/${collection}/records`, { token: adminToken, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as string;
}

const fileUrl = (collection: string, id: string, name: string, token = '') => `/api/files/${collection}/${id}/${name}${token ? `?token=${token}` : ''}`;
const stored = (collectionId: string, id: string, name: string) => path.join(dataDir, 'storage', collectionId, id, name);

/** Waits for a file written after a commit (the answer may come first). */
async function eventually(check: () => boolean, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

beforeAll(async () => {
  fs.mkdirSync(path.join(work, 'pb_hooks'), { recursive: true });
  for (const [name, text] of Object.entries(MORE_HOOK_FILES)) fs.writeFileSync(path.join(work, 'pb_hooks', name), text);
  expect((await runCli(['admin', 'create', ADMIN.email, ADMIN.password, `--dir=${dataDir}`], work)).stdout).toContain('Successfully created');
  await start();
  const file = (name: string, extra: Record<string, unknown> = {}) => ({ name, type: 'file', options: { maxSelect: 1, maxSize: 1048576, mimeTypes: [], thumbs: [], protected: false, ...extra } });
  ids.docs = await create('docs', { schema: [{ name: 'title', type: 'text', required: true, options: { max: 20 } }, file('attachment')], listRule: '', viewRule: '' });
  ids.vault = await create('vault', { schema: [file('secret', { protected: true })], viewRule: "@request.auth.id != ''" });
  ids.items = await create('items', { schema: [{ name: 'title', type: 'text' }, { name: 'kind', type: 'text' }, { name: 'qty', type: 'number' }] });
  ids.people = await create('people', { schema: [{ name: 'name', type: 'text' }], listRule: '', viewRule: '' });
  ids.posts = await create('posts', { schema: [{ name: 'title', type: 'text' }, { name: 'author', type: 'relation', options: { collectionId: ids.people, maxSelect: 1 } }], listRule: '', viewRule: '' });
  for (const [title, kind, qty] of [['apple', 'fruit', 1], ['banana', 'fruit', 2], ['carrot', 'veg', 3], ['avocado', 'fruit', 4]]) await addRecord('items', { title, kind, qty });
  ids.ada = await addRecord('people', { name: 'Ada' });
  ids.post1 = await addRecord('posts', { title: 'first', author: ids.ada });
  await addRecord('posts', { title: 'second', author: ids.ada });
});

afterAll(async () => {
  await srv?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe.each(['first', 'second'])('0.22 namespaces, continued (%s start)', (startName) => {
  beforeAll(async () => {
    if (startName === 'second') {
      await srv.stop();
      await start();
    }
  });

  it('$filesystem: a file set on a record is stored as an API upload and served by the files API; a new one replaces it', async () => {
    const res = await call(srv.url, 'POST', '/more/files', { body: { title: 'notes', text: 'hello file', name: 'My Notes.TXT' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { id, attachment } = res.body;
    expect(attachment).toMatch(/^my_notes_[A-Za-z0-9]{10}\.txt$/);
    expect(res.body).toMatchObject({ name: attachment, originalName: 'My Notes.TXT', size: 10, text: 'hello file' });
    const served = await call(srv.url, 'GET', fileUrl('docs', id, attachment));
    expect(served.status).toBe(200);
    expect(served.body).toBe('hello file');
    expect(served.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(fs.readFileSync(stored(ids.docs, id, attachment), 'utf8')).toBe('hello file');
    expect((await call(srv.url, 'GET', `/api/collections/docs/records/${id}`)).body).toMatchObject({ title: 'notes', attachment });

    const source = path.join(work, `report-${startName}.csv`);
    fs.writeFileSync(source, 'a,b\n1,2\n');
    const fromPath = await call(srv.url, 'POST', '/more/files', { body: { title: 'csv', path: source } });
    expect(fromPath.body).toMatchObject({ originalName: `report-${startName}.csv`, size: 8 });
    expect(fromPath.body.attachment).toMatch(new RegExp(`^report_${startName}_[A-Za-z0-9]{10}\\.csv$`));
    expect((await call(srv.url, 'GET', fileUrl('docs', fromPath.body.id, fromPath.body.attachment))).body).toBe('a,b\n1,2\n');

    // the save's model hooks see the stored name
    const hooked = await call(srv.url, 'POST', '/more/files', { body: { title: 'hooked', text: 'model hook', name: 'hooked.txt' } });
    expect((await call(srv.url, 'GET', `/api/collections/docs/records/${hooked.body.id}`)).body.title).toBe(`hooked: ${hooked.body.attachment}`);

    // a single-file field: the new file replaces the old one, which is deleted
    const replaced = await call(srv.url, 'POST', `/more/files/${id}`);
    expect(replaced.body.attachment).toMatch(/^second_[A-Za-z0-9]{10}\.txt$/);
    expect((await call(srv.url, 'GET', fileUrl('docs', id, replaced.body.attachment))).body).toBe('second version');
    expect((await call(srv.url, 'GET', fileUrl('docs', id, attachment))).status).toBe(404);
    expect(fs.existsSync(stored(ids.docs, id, attachment))).toBe(false);
  });

  it('$filesystem inside runInTransaction: stored once it commits, never when it rolls back; a form adds files as the API does', async () => {
    const committed = await call(srv.url, 'POST', '/more/files-tx', { body: {} });
    expect(committed.body.error).toBeNull();
    const record = (await call(srv.url, 'GET', `/api/collections/docs/records/${committed.body.id}`)).body;
    expect(record.attachment).toMatch(/^in_tx_[A-Za-z0-9]{10}\.txt$/);
    expect(await eventually(() => fs.existsSync(stored(ids.docs, record.id, record.attachment)))).toBe(true);
    expect((await call(srv.url, 'GET', fileUrl('docs', record.id, record.attachment))).body).toBe('transaction content');

    const rolledBack = await call(srv.url, 'POST', '/more/files-tx', { body: { fail: true } });
    expect(rolledBack.body.error).toBe('rolled back on purpose');
    expect((await call(srv.url, 'GET', `/api/collections/docs/records/${rolledBack.body.id}`)).status).toBe(404);
    await new Promise((r) => setTimeout(r, 200));
    expect(fs.existsSync(path.join(dataDir, 'storage', ids.docs, rolledBack.body.id))).toBe(false);

    const form = await call(srv.url, 'POST', '/more/form-files');
    expect(form.status, JSON.stringify(form.body)).toBe(200);
    expect(form.body).toMatchObject({ isNew: false });
    expect(form.body.attachment).toMatch(/^form_file_[A-Za-z0-9]{10}\.txt$/);
    expect((await call(srv.url, 'GET', fileUrl('docs', form.body.id, form.body.attachment))).body).toBe('from the form');
  });

  it("$filesystem: Go's errors, a name for content without an extension, a file downloaded with fileFromUrl", async () => {
    const doc = await call(srv.url, 'POST', '/more/files', { body: { title: 'url', text: 'downloaded', name: 'download.txt' } });
    const url = `${srv.url}${fileUrl('docs', doc.body.id, doc.body.attachment)}`;
    const r = (await call(srv.url, 'GET', `/more/files-misc?url=${encodeURIComponent(url)}`)).body;
    expect(r.missing.error).toBe('stat /nonexistent/outpost/x.txt: no such file or directory');
    expect(r.empty.error).toBe('cannot create an empty file');
    expect(r.sniffed).toMatch(/^data_[A-Za-z0-9]{10}\.json$/);
    expect(r.fromUrl.value.originalName).toBe(doc.body.attachment);
    // (the stored name snake-cased once more: its random part's capitals become words)
    expect(r.fromUrl.value.name).toMatch(/^download_[a-z0-9_]+_[A-Za-z0-9]{10}\.txt$/);
    expect(r.fromUrl.value.text).toBe('downloaded');
    expect(r.notFound.error).toBe(`failed to download url ${url}-nope (404)`);
  });

  it('$tokens: record and admin tokens the API accepts (auth, verification, file, email change, password reset)', async () => {
    const email = `tokens-${startName}@example.com`;
    const userId = await addRecord('users', { email, password: 'user-pass-123', passwordConfirm: 'user-pass-123' });
    const tokens = async () => (await call(srv.url, 'GET', `/more/tokens/${userId}?admin=${encodeURIComponent(ADMIN.email)}`)).body;
    const t = await tokens();
    expect(t.notAuth.error).toBe('The record is not from an auth collection.');

    const refreshed = await call(srv.url, 'POST', '/api/collections/users/auth-refresh', { token: t.auth });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.record.id).toBe(userId);
    expect((await call(srv.url, 'GET', '/api/admins', { token: t.adminAuth })).status).toBe(200);
    expect((await call(srv.url, 'POST', '/api/collections/users/confirm-verification', { body: { token: t.verify } })).status).toBe(204);
    expect((await call(srv.url, 'GET', `/api/collections/users/records/${userId}`, { token: adminToken })).body.verified).toBe(true);

    const vault = (await call(srv.url, 'POST', '/more/vault')).body;
    expect((await call(srv.url, 'GET', fileUrl('vault', vault.id, vault.secret))).status).toBe(403);
    expect((await call(srv.url, 'GET', fileUrl('vault', vault.id, vault.secret, t.file))).body).toBe('top secret');
    expect((await call(srv.url, 'GET', fileUrl('vault', vault.id, vault.secret, t.adminFile))).body).toBe('top secret');

    const changed = await call(srv.url, 'POST', '/api/collections/users/confirm-email-change', { body: { token: t.changeEmail, password: 'user-pass-123' } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(204);
    expect((await call(srv.url, 'GET', `/api/collections/users/records/${userId}`, { token: adminToken })).body.email).toBe('changed@example.com');
    // (the address is free again for the next start's user)
    const reset = await call(srv.url, 'POST', '/api/collections/users/confirm-password-reset', { body: { token: (await tokens()).reset, password: 'new-pass-456', passwordConfirm: 'new-pass-456' } });
    expect(reset.status, JSON.stringify(reset.body)).toBe(204);
    expect((await call(srv.url, 'POST', '/api/collections/users/auth-with-password', { body: { identity: 'changed@example.com', password: 'new-pass-456' } })).status).toBe(200);
    await call(srv.url, 'DELETE', `/api/collections/users/records/${userId}`, { token: adminToken });

    const adminReset = await call(srv.url, 'POST', '/api/admins/confirm-password-reset', { body: { token: t.adminReset, password: ADMIN.password, passwordConfirm: ADMIN.password } });
    expect(adminReset.status, JSON.stringify(adminReset.body)).toBe(204);
    // the reset renewed the admin's tokenKey: the earlier token is refused, a new sign-in works
    expect((await call(srv.url, 'GET', '/api/admins', { token: adminToken })).status).toBe(401);
    await signIn();
    expect((await call(srv.url, 'GET', '/api/admins', { token: adminToken })).status).toBe(200);
  });

  it("RecordUpsertForm: the API's validation; a caught error reads as ozzo's, an uncaught one answers 0.22's 400 with the field errors", async () => {
    const missing = await call(srv.url, 'POST', '/more/form', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ code: 400, message: GENERIC, data: { title: { code: 'validation_required', message: 'Missing required value.' } } });
    const tooLong = await call(srv.url, 'POST', '/more/form', { body: { title: 'x'.repeat(30) } });
    expect(tooLong.body.data.title.code).toBe('validation_max_text_constraint');
    const caught = await call(srv.url, 'POST', '/more/form?catch=1', { body: { title: 'x'.repeat(30) } });
    expect(caught.body.caught).toBe(`title: ${tooLong.body.data.title.message.replace(/\.$/, '')}.`);
    const saved = await call(srv.url, 'POST', '/more/form', { body: { title: `ok ${startName}` } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ title: `ok ${startName}`, isNew: false });
    expect(saved.body.id).toMatch(/^[a-z0-9]{15}$/);
    expect((await call(srv.url, 'GET', `/api/collections/docs/records/${saved.body.id}`)).body.title).toBe(`ok ${startName}`);
  });

  it('a user made by a form signs in through RecordPasswordLoginForm and $apis.recordAuthResponse (onRecordAuthRequest runs, the token works)', async () => {
    const email = `form-${startName}@example.com`;
    const signup = await call(srv.url, 'POST', '/more/signup', { body: { email, password: 'form-pass-123', name: 'Grace' } });
    expect(signup.status, JSON.stringify(signup.body)).toBe(200);
    expect(signup.body).toMatchObject({ verified: true });
    expect(signup.body.username).toMatch(/^users\d{5}/);

    const login = await call(srv.url, 'POST', '/more/login', { body: { identity: email, password: 'form-pass-123' } });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect(login.body.meta).toEqual({ via: 'hook', seen: true });
    expect(login.body.record).toMatchObject({ id: signup.body.id, email, name: 'Grace', verified: true, collectionName: 'users' });
    expect(login.body.record.passwordHash).toBeUndefined();
    expect((await call(srv.url, 'POST', '/api/collections/users/auth-refresh', { token: login.body.token })).status).toBe(200);

    const stopped = await call(srv.url, 'POST', '/more/login?stop=1', { body: { identity: email, password: 'form-pass-123' } });
    expect(stopped.status).toBe(200);
    expect(stopped.body).toBeNull();
    const wrong = await call(srv.url, 'POST', '/more/login', { body: { identity: email, password: 'nope-nope-nope' } });
    expect(wrong.body).toEqual({ code: 400, message: GENERIC, data: {} });
  });

  it('AdminUpsertForm, SettingsUpsertForm and CollectionUpsertForm: the API\'s checks and saves', async () => {
    const email = `form-admin-${startName}@example.com`;
    const short = await call(srv.url, 'POST', '/more/admin-form', { token: adminToken, body: { email, password: 'short' } });
    expect(short.status).toBe(400);
    expect(short.body.message).toBe(GENERIC);
    expect(short.body.data.password.code).toBe('validation_length_out_of_range');
    const taken = await call(srv.url, 'POST', '/more/admin-form', { token: adminToken, body: { email: ADMIN.email, password: 'long-enough-pass' } });
    expect(taken.body.data).toEqual({ email: { code: 'validation_admin_email_exists', message: 'Admin email already exists.' } });
    const made = await call(srv.url, 'POST', '/more/admin-form', { token: adminToken, body: { email, password: 'long-enough-pass' } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toMatchObject({ email, isNew: false });
    expect((await call(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: email, password: 'long-enough-pass' } })).status).toBe(200);
    const renamed = await call(srv.url, 'POST', '/more/admin-form', { token: adminToken, body: { id: made.body.id, email: `renamed-${email}` } });
    expect(renamed.body).toMatchObject({ id: made.body.id, email: `renamed-${email}` });
    await call(srv.url, 'DELETE', `/api/admins/${made.body.id}`, { token: adminToken });

    const settings = await call(srv.url, 'POST', '/more/settings-form', { token: adminToken, body: { meta: { appName: `Hooked ${startName}` } } });
    expect(settings.body).toEqual({ appName: `Hooked ${startName}` });
    expect((await call(srv.url, 'GET', '/api/settings', { token: adminToken })).body.meta.appName).toBe(`Hooked ${startName}`);
    const badSettings = await call(srv.url, 'POST', '/more/settings-form', { token: adminToken, body: { meta: { appName: '' } } });
    expect(badSettings.status).toBe(400);
    expect(badSettings.body.message).toBe(GENERIC);
    expect(badSettings.body.data.meta.appName.code).toBe('validation_required');

    const collection = await call(srv.url, 'POST', '/more/collection-form', { token: adminToken, body: { name: `formcol_${startName}` } });
    expect(collection.status, JSON.stringify(collection.body)).toBe(200);
    expect(collection.body).toMatchObject({ name: `formcol_${startName}`, isNew: false, fields: ['title'] });
    expect((await call(srv.url, 'GET', `/api/collections/formcol_${startName}/records`)).status).toBe(200);
    const badName = await call(srv.url, 'POST', '/more/collection-form', { token: adminToken, body: { name: 'bad name!' } });
    expect(badName.status).toBe(400);
    expect(badName.body.message).toBe(GENERIC);
    expect(Object.keys(badName.body.data)).toEqual(['name']);
  });

  it('$apis.enrichRecord(s): default expands and ?expand=, as the caller may see them', async () => {
    const r = (await call(srv.url, 'GET', `/more/enrich/${ids.post1}`)).body;
    expect(r.author).toBe('Ada');
    expect(r.post.expand.author).toMatchObject({ id: ids.ada, name: 'Ada', collectionName: 'people' });
    expect(r.listed).toEqual([[], []]);
    expect((await call(srv.url, 'GET', `/more/enrich/${ids.post1}?expand=author`)).body.listed).toEqual([['author'], ['author']]);
  });

  it("dbx's select() builder and Dao.recordQuery: dbx's SQL, rows into models, records into Records", async () => {
    const r = (await call(srv.url, 'GET', '/more/select')).body;
    expect(r.rows.map((x: { title: string; qty: number }) => [x.title, x.qty])).toEqual([['avocado', 4], ['carrot', 3], ['banana', 2]]);
    expect(r.rows[0].id).toMatch(/^[a-z0-9]{15}$/);
    expect(r.total).toBe(4);
    expect(r.titles).toEqual(['carrot']);
    expect(r.records).toEqual([['items', 'apple', 1, false], ['items', 'avocado', 4, false], ['items', 'banana', 2, false]]);
    expect(r.first).toEqual({ title: 'banana', collection: 'items', isNew: false });
    expect(r.built).toEqual({
      sql: 'SELECT `a`.`id`, `b`.`title` AS `t` FROM `items` `a` LEFT JOIN `items` `b` ON b.id = a.id WHERE `a`.`kind` IN ({:p0}, {:p1}) GROUP BY `a`.`id` HAVING count(*) > 0 ORDER BY `a`.`id` ASC LIMIT 5 OFFSET 2',
      params: { p0: 'x', p1: 'y' },
    });
    expect(r.noRow.error).toBe('sql: no rows in result set');
    expect(r.unknown.error).toBe('context canceled');
  });
});

describe('custom commands ($app.rootCmd.addCommand)', () => {
  it('`outpost <use> args` runs the command against --dir (beside the running server); a throw fails it; other names stay unknown', async () => {
    const seeded = await runCli(['seed-items', '3', `--dir=${dataDir}`], work);
    expect(seeded.code, seeded.stderr).toBe(0);
    expect(seeded.stdout).toContain('seeded 3 via seed-items: seeded 1, seeded 2, seeded 3');
    const listed = await call(srv.url, 'GET', `/api/collections/items/records?filter=${encodeURIComponent("kind='cmd'")}`, { token: adminToken });
    expect(listed.body.totalItems).toBe(3);

    const failed = await runCli(['fail-cmd', `--dir=${dataDir}`], work);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('Error: the command failed on purpose');

    const unknown = await runCli(['no-such-command', `--dir=${dataDir}`], work);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Error: unknown command "no-such-command" for "outpost"');
  });
});
