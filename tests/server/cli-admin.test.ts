// `outpost admin create|update|delete` (the real CLI in a child process) with PocketBase 0.22's
// cmd/admin.go messages, against a copy of the 0.22 fixture while the server runs on it (the
// accounts sign in, or stop signing in, right away), and against a new --dir. As in 0.22, a refused
// action prints "Error: …" on stderr and exits 0; an unknown sub-command exits 2.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_DIR, FIXTURE_PASSWORD, http, tempDir } from '../helpers/server';
import { runCli, startCliServer } from '../helpers/cli';
import type { ServerProcess } from '../helpers/server-process';

let project = '';
let dataDir = '';
let server: ServerProcess;

const admin = (...args: string[]) => runCli(['admin', ...args, `--dir=${dataDir}`], project);
const signIn = (identity: string, password: string) => http(server.url, 'POST', '/api/admins/auth-with-password', { body: { identity, password } });
const adminRows = () => {
  const db = new Database(path.join(dataDir, 'data.db'), { readonly: true });
  try {
    return db.prepare('SELECT email, tokenKey, passwordHash FROM _admins ORDER BY email').all() as Array<{ email: string; tokenKey: string; passwordHash: string }>;
  } finally {
    db.close();
  }
};

beforeAll(async () => {
  project = tempDir('outpost-cli-admin-');
  dataDir = path.join(project, 'pb_data');
  fs.cpSync(FIXTURE_DIR, dataDir, { recursive: true });
  server = await startCliServer([`--dir=${dataDir}`], project);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(project, { recursive: true, force: true });
});

describe('admin create', () => {
  it('creates an account that signs in at once', async () => {
    const res = await admin('create', 'new@example.com', 'new-password-1');
    expect(res).toMatchObject({ code: 0, stderr: '' });
    expect(res.stdout.trim()).toBe('Successfully created new admin new@example.com!');
    const signed = await signIn('new@example.com', 'new-password-1');
    expect(signed.status).toBe(200);
    expect(signed.body.admin.email).toBe('new@example.com');
  });

  it("refuses with 0.22's messages, and changes nothing", async () => {
    const before = adminRows();
    const cases: Array<[string[], string]> = [
      [[], 'Missing email and password arguments.'],
      [['only@example.com'], 'Missing email and password arguments.'],
      [['a@example.com', '1234567890', 'extra'], 'Missing email and password arguments.'],
      [['not-an-email', '1234567890'], 'Missing or invalid email address.'],
      [['short@example.com', '1234567'], 'The password must be at least 8 chars long.'],
      [['new@example.com', '1234567890'], 'Failed to create new admin account: UNIQUE constraint failed: _admins.email'],
    ];
    for (const [args, message] of cases) {
      const res = await admin('create', ...args);
      expect(res.stderr.trim(), args.join(' ')).toBe(`Error: ${message}`);
      expect(res.code, args.join(' ')).toBe(0);
      expect(res.stdout, args.join(' ')).toBe('');
    }
    expect(adminRows()).toEqual(before);
  });
});

describe('admin update', () => {
  it('changes the password and revokes the tokens signed before', async () => {
    expect((await http(server.url, 'GET', '/api/admins', { token: FIXTURE_ADMIN_TOKEN })).status).toBe(200);
    const res = await admin('update', 'test@example.com', 'changed-password');
    expect(res).toMatchObject({ code: 0, stderr: '' });
    expect(res.stdout.trim()).toBe('Successfully changed admin test@example.com password!');
    expect((await signIn('test@example.com', 'changed-password')).status).toBe(200);
    expect((await signIn('test@example.com', FIXTURE_PASSWORD)).status).toBe(400);
    expect((await http(server.url, 'GET', '/api/admins', { token: FIXTURE_ADMIN_TOKEN })).status).toBe(401);
  });

  it("refuses with 0.22's messages", async () => {
    const before = adminRows();
    const cases: Array<[string[], string]> = [
      [['test@example.com'], 'Missing email and password arguments.'],
      [['bad email', '1234567890'], 'Missing or invalid email address.'],
      [['test@example.com', 'short'], 'The new password must be at least 8 chars long.'],
      [['nobody@example.com', '1234567890'], "Admin with email nobody@example.com doesn't exist."],
    ];
    for (const [args, message] of cases) {
      const res = await admin('update', ...args);
      expect(res.stderr.trim(), args.join(' ')).toBe(`Error: ${message}`);
      expect(res.code).toBe(0);
    }
    expect(adminRows()).toEqual(before);
  });
});

describe('admin delete', () => {
  it('deletes, then says the account is already deleted', async () => {
    const res = await admin('delete', 'new@example.com');
    expect(res).toMatchObject({ code: 0, stderr: '' });
    expect(res.stdout.trim()).toBe('Successfully deleted admin new@example.com!');
    expect((await signIn('new@example.com', 'new-password-1')).status).toBe(400);
    const again = await admin('delete', 'new@example.com');
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(again.stdout.trim()).toBe('Admin new@example.com is already deleted.');
    for (const args of [[], ['not-an-email']]) {
      const bad = await admin('delete', ...args);
      expect(bad.stderr.trim()).toBe('Error: Invalid or missing email address.');
      expect(bad.code).toBe(0);
    }
    expect(adminRows().map((r) => r.email)).not.toContain('new@example.com');
  });
});

describe('admin delete and roles', () => {
  it('refuses to delete the last full admin while the others hold roles', async () => {
    // (its password is the one 'admin update' set above, or the fixture's when run alone)
    const signed = await signIn('test@example.com', 'changed-password');
    const token = (signed.status === 200 ? signed : await signIn('test@example.com', FIXTURE_PASSWORD)).body.token;
    const role = await http(server.url, 'POST', '/api/outpost/roles', { token, body: { name: 'cli-editor', collections: [], areas: { logs: true } } });
    expect(role.status).toBe(200);
    const ids = Object.fromEntries(((await http(server.url, 'GET', '/api/admins', { token })).body.items as Array<{ id: string; email: string }>).map((a) => [a.email, a.id]));
    for (const email of ['test2@example.com', 'test3@example.com']) {
      expect((await http(server.url, 'PUT', `/api/outpost/admin-roles/${ids[email]}`, { token, body: { role: role.body.id } })).status).toBe(200);
    }
    const res = await admin('delete', 'test@example.com');
    expect(res.stderr.trim()).toBe('Error: Failed to delete admin test@example.com: it is the last full admin (the others hold roles): make another admin a full admin first');
    expect(res.code).toBe(0);
    expect(adminRows().map((r) => r.email)).toContain('test@example.com');
    // a scoped admin may go
    expect((await admin('delete', 'test3@example.com')).stdout.trim()).toBe('Successfully deleted admin test3@example.com!');
    for (const email of ['test2@example.com']) expect((await http(server.url, 'PUT', `/api/outpost/admin-roles/${ids[email]}`, { token, body: { role: '' } })).status).toBe(200);
  });
});

describe('the command', () => {
  it('an unknown sub-command exits 2; `admin` alone and --help print the usage', async () => {
    const unknown = await admin('rename', 'a@example.com');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "rename" for "outpost admin"');
    for (const args of [['admin'], ['admin', '--help'], ['admin', 'create', '--help']]) {
      const res = await runCli(args, project);
      expect(res.code).toBe(0);
      expect(res.stdout).toContain('outpost admin create EMAIL PASSWORD');
    }
  });

  it('works on a new --dir: the pb_data is created and the admin signs in (no installer)', async () => {
    const fresh = path.join(project, 'fresh', 'pb_data');
    const res = await runCli(['admin', 'create', 'first@example.com', 'first-password', `--dir=${fresh}`], project);
    expect(res.stdout.trim()).toBe('Successfully created new admin first@example.com!');
    const other = await startCliServer([`--dir=${fresh}`], project);
    try {
      expect(other.output()).not.toContain('No admin exists yet');
      const signed = await http(other.url, 'POST', '/api/admins/auth-with-password', { body: { identity: 'first@example.com', password: 'first-password' } });
      expect(signed.status).toBe(200);
    } finally {
      await other.stop();
    }
    const last = await runCli(['admin', 'delete', 'first@example.com', `--dir=${fresh}`], project);
    expect(last.stderr.trim()).toBe('Error: Failed to delete admin first@example.com: you cannot delete the only existing admin');
    expect(last.code).toBe(0);
  });
});
