// The audit trail (issue 36), what tests/server/audit.test.ts leaves out: roles and who holds them,
// every backup operation (a restore's entry survives the restore), the records a cascade deletes
// (each its entry, all or none), and the redaction of every secret the schema files declare (the
// test walks schemas/ itself, so a secret added there is covered here without a change).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ROOT, startServer, type TestServer } from '../helpers/server';

let srv: TestServer;
let token: string;
let adminId: string;
const ADMIN = { email: 'audit-more@example.com', password: 'admin-password' };

type Change = { old: unknown; new: unknown };
type Entry = { id: string; area: string; action: string; collectionName: string; target: string; actorKind: string; actorId: string; actorEmail: string; ip: string; requestId: string; changes: Record<string, Change> };

const api = (method: string, p: string, body?: unknown, auth: string | null = token) => http(srv.url, method, p, { token: auth ?? undefined, body });
async function entries(query = ''): Promise<Entry[]> {
  const res = await api('GET', `/api/outpost/audit?perPage=500${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items as Entry[];
}
const total = async () => (await api('GET', '/api/outpost/audit?perPage=1')).body.totalItems as number;
/** Who, where and which request, as every entry made with the admin's token names them. */
const BY_ADMIN = () => ({ actorKind: 'admin', actorId: adminId, actorEmail: ADMIN.email, ip: '127.0.0.1', requestId: expect.stringMatching(/^[a-z0-9]{15}$/) });

async function signIn(): Promise<void> {
  const res = await http(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: ADMIN.email, password: ADMIN.password } });
  expect(res.status).toBe(200);
  token = res.body.token;
  adminId = res.body.admin.id;
}

beforeAll(async () => {
  srv = await startServer();
  await http(srv.url, 'POST', '/api/admins', { body: { ...ADMIN, passwordConfirm: ADMIN.password } });
  await signIn();
});

afterAll(async () => {
  await srv?.close();
});

describe('roles', () => {
  it('records a role created, changed and deleted, and an admin given and taken a role, in the change', async () => {
    const other = await api('POST', '/api/admins', { email: 'editor@example.com', password: 'editor-pass-1', passwordConfirm: 'editor-pass-1' });
    expect(other.status).toBe(200);
    const created = await api('POST', '/api/outpost/roles', { name: 'Editors', areas: { logs: true }, collections: [] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const roleId = created.body.id as string;
    expect((await api('PATCH', `/api/outpost/roles/${roleId}`, { name: 'Writers', areas: { logs: true, mail: true } })).status).toBe(200);
    expect((await api('PUT', `/api/outpost/admin-roles/${other.body.id as string}`, { role: roleId })).status).toBe(200);
    expect((await api('PUT', `/api/outpost/admin-roles/${other.body.id as string}`, { role: '' })).status).toBe(200);
    expect((await api('DELETE', `/api/outpost/roles/${roleId}`)).status).toBe(204);

    const list = await entries('&area=role');
    expect(list.map((e) => [e.action, e.target])).toEqual([
      ['delete', roleId],
      ['assign', other.body.id],
      ['assign', other.body.id],
      ['update', roleId],
      ['create', roleId],
    ]);
    for (const e of list) expect(e).toMatchObject(BY_ADMIN());
    expect(new Set(list.map((e) => e.requestId)).size).toBe(5);
    const [del, taken, given, upd, cre] = list;
    expect(cre.changes).toEqual({ id: { old: null, new: roleId }, name: { old: null, new: 'Editors' }, collections: { old: null, new: [] }, areas: { old: null, new: { logs: true } } });
    expect(upd.changes).toEqual({ name: { old: 'Editors', new: 'Writers' }, areas: { old: { logs: true }, new: { logs: true, mail: true } } });
    expect(given.changes).toEqual({ role: { old: null, new: { id: roleId, name: 'Writers' } } });
    expect(taken.changes).toEqual({ role: { old: { id: roleId, name: 'Writers' }, new: null } });
    expect(del.changes).toMatchObject({ name: { old: 'Writers', new: null } });
  });

  it('leaves no entry for a role change that fails', async () => {
    expect((await api('POST', '/api/outpost/roles', { name: 'Taken' })).status).toBe(200);
    const before = await total();
    expect((await api('POST', '/api/outpost/roles', { name: 'taken' })).status).toBe(400); // names are unique, case-insensitively
    expect((await api('PUT', `/api/outpost/admin-roles/${adminId}`, { role: 'missing' })).status).toBe(400);
    expect(await total()).toBe(before);
  });
});

describe('records deleted by a cascade', () => {
  let parentsId = '';
  let kidsId = '';

  beforeAll(async () => {
    const parents = await api('POST', '/api/collections', { name: 'parents', type: 'base', schema: [{ name: 'title', type: 'text' }] });
    parentsId = parents.body.id;
    const kids = await api('POST', '/api/collections', {
      name: 'kids',
      type: 'base',
      schema: [
        { name: 'title', type: 'text' },
        { name: 'parent', type: 'relation', options: { collectionId: parentsId, cascadeDelete: true, maxSelect: 1 } },
      ],
    });
    expect(kids.status, JSON.stringify(kids.body)).toBe(200);
    kidsId = kids.body.id;
    // a required reference to a kid, without cascade: it refuses the whole delete
    const pins = await api('POST', '/api/collections', {
      name: 'pins',
      type: 'base',
      schema: [{ name: 'kid', type: 'relation', required: true, options: { collectionId: kidsId, cascadeDelete: false, maxSelect: 1 } }],
    });
    expect(pins.status, JSON.stringify(pins.body)).toBe(200);
  });

  it('gives each record the cascade deletes its entry, under the request that deleted the first', async () => {
    const parent = (await api('POST', '/api/collections/parents/records', { title: 'p' })).body.id as string;
    const kids = [];
    for (const title of ['k1', 'k2']) kids.push((await api('POST', '/api/collections/kids/records', { title, parent })).body.id as string);
    expect((await api('DELETE', `/api/collections/parents/records/${parent}`)).status).toBe(204);
    const [del] = await entries(`&target=${parent}&action=delete`);
    expect(del).toMatchObject({ ...BY_ADMIN(), collectionName: 'parents' });
    const cascaded = await entries(`&collection=kids&action=delete`);
    expect(cascaded.map((e) => e.target).sort()).toEqual([...kids].sort());
    for (const e of cascaded) {
      expect(e).toMatchObject({ ...BY_ADMIN(), requestId: del.requestId });
      expect(e.changes.parent).toEqual({ old: parent, new: null });
    }
  });

  it('leaves no entry when the cascade fails part way (one transaction: the deletes and their entries roll back)', async () => {
    const parent = (await api('POST', '/api/collections/parents/records', { title: 'blocked' })).body.id as string;
    const free = (await api('POST', '/api/collections/kids/records', { title: 'free', parent })).body.id as string;
    const pinned = (await api('POST', '/api/collections/kids/records', { title: 'pinned', parent })).body.id as string;
    expect((await api('POST', '/api/collections/pins/records', { kid: pinned })).status).toBe(200);
    const before = await total();
    const res = await api('DELETE', `/api/collections/parents/records/${parent}`);
    expect(res.status).toBe(400);
    expect(await total()).toBe(before);
    for (const [c, id] of [['parents', parent], ['kids', free], ['kids', pinned]]) expect((await api('GET', `/api/collections/${c}/records/${id}`)).status).toBe(200);
    expect(kidsId).not.toBe('');
  });
});

describe('backups', () => {
  it('records a backup created, uploaded, restored and deleted; the restore entry survives the restore', async () => {
    expect((await api('POST', '/api/backups', { name: 'audit_a.zip' })).status).toBe(204);
    const fileToken = (await api('POST', '/api/files/token')).body.token as string;
    const zip = Buffer.from(await (await fetch(`${srv.url}/api/backups/audit_a.zip?token=${fileToken}`)).arrayBuffer());
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), 'audit_b.zip');
    const up = await fetch(`${srv.url}/api/backups/upload`, { method: 'POST', body: form, headers: { Authorization: token } });
    expect(up.status, await up.text()).toBe(204);
    expect((await api('DELETE', '/api/backups/audit_a.zip')).status).toBe(204);
    const list = await entries('&area=backup');
    expect(list.map((e) => [e.action, e.target])).toEqual([
      ['delete', 'audit_a.zip'],
      ['upload', 'audit_b.zip'],
      ['create', 'audit_a.zip'],
    ]);
    for (const e of list) expect(e).toMatchObject(BY_ADMIN());

    // made after the backup: gone with the restore
    const later = await api('POST', '/api/outpost/roles', { name: 'After the backup' });
    expect(later.status).toBe(200);
    expect((await api('POST', '/api/backups/audit_b.zip/restore')).status).toBe(204);
    // the restored data (the backup's admins: the same token signs in) holds its restore's entry
    let restored: Entry[] = [];
    for (let i = 0; i < 50 && restored.length === 0; i++) {
      const res = await api('GET', '/api/outpost/audit?perPage=500&area=backup');
      if (res.status === 200) restored = (res.body.items as Entry[]).filter((e) => e.action === 'restore');
      if (restored.length === 0) await new Promise((r) => setTimeout(r, 200));
    }
    expect(restored).toHaveLength(1);
    expect(restored[0]).toMatchObject({ ...BY_ADMIN(), target: 'audit_b.zip' });
    expect((await entries('&area=backup')).map((e) => e.action)).toEqual(['restore']); // the backup was taken before its own create entry
    expect((await entries(`&target=${later.body.id as string}`)).length).toBe(0);
  });
});

/** The settings' secret paths, from schemas/settings/index.json's sections and the providers' files: read here, not through the server's index. */
function settingsSecretsFromSchemas(): string[][] {
  const dir = path.join(ROOT, 'schemas');
  const read = (f: string) => JSON.parse(fs.readFileSync(f, 'utf8')) as Record<string, unknown>;
  const found = new Map<string, string[]>();
  /** Text properties named like a secret, and whatever a secret widget draws (any widget whose name says so). */
  type Json = Record<string, unknown>;
  /** A property's schema, its local $ref followed (#/definitions/...). */
  const resolve = (node: Json | undefined, root: Json): Json | undefined => {
    const ref = node?.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return node;
    return resolve(ref.slice(2).split('/').reduce<Json | undefined>((n, k) => n?.[k] as Json | undefined, root), root);
  };
  const walk = (schema: Json | undefined, ui: Json | undefined, at: string[], root: Json) => {
    const props = (schema?.properties ?? {}) as Record<string, Json>;
    const keys = new Set([...Object.keys(props), ...Object.keys(ui ?? {}).filter((k) => !k.startsWith('ui:'))]);
    for (const key of keys) {
      const p = [...at, key];
      const u = (ui?.[key] ?? {}) as Json;
      const sub = resolve(props[key], root);
      if (sub?.type === 'object' || sub?.properties) walk(sub, u, p, root);
      else if ((sub?.type === 'string' && /secret|password/i.test(key)) || /secret/i.test(String(u['ui:widget'] ?? ''))) found.set(p.join('.'), p);
    }
  };
  const index = read(path.join(dir, 'settings', 'index.json')) as { sections: Array<{ bind: string; schema: string; ui?: string }> };
  for (const s of index.sections) {
    const schema = read(path.join(dir, 'settings', s.schema));
    walk(schema, s.ui ? read(path.join(dir, 'settings', s.ui)) : undefined, s.bind.split('.').filter(Boolean), schema);
  }
  for (const f of fs.readdirSync(path.join(dir, 'providers')).filter((n) => n.endsWith('.schema.json'))) {
    const name = f.replace(/\.schema\.json$/, '');
    const ui = path.join(dir, 'providers', `${name}.ui.json`);
    const schema = read(path.join(dir, 'providers', f));
    walk(schema, fs.existsSync(ui) ? read(ui) : undefined, [`${name}Auth`], schema);
  }
  return [...found.values()];
}

describe('redaction of every secret', () => {
  it('masks every secret of the settings, of admins and of auth records in the entries and their exports', async () => {
    const secrets = settingsSecretsFromSchemas();
    // the known ones are among them (the walk itself is checked)
    for (const known of ['smtp.password', 's3.secret', 'backups.s3.secret', 'googleAuth.clientSecret', 'appleAuth.clientSecret', 'adminAuthToken.secret', 'recordFileToken.secret']) {
      expect(secrets.map((p) => p.join('.'))).toContain(known);
    }
    const values = new Map<string, string>();
    const body: Record<string, unknown> = {};
    secrets.forEach((p, i) => {
      const value = `secret-${i}-${'x'.repeat(40)}-${p.join('-')}`;
      values.set(p.join('.'), value);
      let node = body;
      for (const key of p.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
      node[p[p.length - 1]] = value;
    });
    const res = await api('PATCH', '/api/settings', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await signIn(); // a new admin token secret revokes every admin token

    const [entry] = await entries('&area=settings');
    for (const p of values.keys()) expect(entry.changes[p], p).toEqual({ old: expect.anything(), new: '******' });

    // admins and auth records: password hash and token key, on create and on a password change
    const admin = await api('POST', '/api/admins', { email: 'masked@example.com', password: 'admin-secret-pass-1', passwordConfirm: 'admin-secret-pass-1' });
    expect((await api('PATCH', `/api/admins/${admin.body.id as string}`, { password: 'admin-secret-pass-2', passwordConfirm: 'admin-secret-pass-2' })).status).toBe(200);
    const user = await api('POST', '/api/collections/users/records', { email: 'masked@example.com', password: 'user-secret-pass-1', passwordConfirm: 'user-secret-pass-1' });
    expect(user.status).toBe(200);
    expect((await api('PATCH', `/api/collections/users/records/${user.body.id as string}`, { password: 'user-secret-pass-2', passwordConfirm: 'user-secret-pass-2' })).status).toBe(200);
    for (const target of [admin.body.id as string, user.body.id as string]) {
      const [updated, created] = await entries(`&target=${target}`);
      expect(created.changes.passwordHash).toEqual({ old: null, new: '******' });
      expect(created.changes.tokenKey).toEqual({ old: null, new: '******' });
      expect(updated.changes.passwordHash).toEqual({ old: '******', new: '******' });
      expect(updated.changes.tokenKey).toEqual({ old: '******', new: '******' });
    }

    const texts = await Promise.all(['json', 'csv'].map(async (format) => (await fetch(`${srv.url}/api/outpost/audit/export?format=${format}`, { headers: { Authorization: token } })).text()));
    for (const text of texts) {
      for (const value of values.values()) expect(text).not.toContain(value);
      expect(text).not.toMatch(/\$2[aby]\$/); // bcrypt hashes
      expect(text).not.toMatch(/(admin|user)-secret-pass/);
    }
  });
});
