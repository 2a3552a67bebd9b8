// `outpost migrate …` as a user runs it (the CLI from the sources in a child process): create,
// collections, up, down, history-sync with 0.22's messages, prompts and exit codes, and the bad
// input: a missing down, a syntax error, an unknown sub-command, a failing migration at `serve`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/server';
import { CREATED_POSTS } from '../helpers/pb022-migrations';

// tsx's loader by URL: `--import tsx` would resolve from the working directory, a temp folder here
const TSX = pathToFileURL(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const work = tempDir('outpost-cli-migrate-');
const dataDir = path.join(work, 'pb_data');
const dir = path.join(work, 'pb_migrations');

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `outpost <args>` in the project folder, `input` written to its stdin (the confirmations). */
function outpost(args: string[], input = ''): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX, path.join(ROOT, 'server', 'main.ts'), ...args], { cwd: work, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdin.end(input);
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const rows = (): string[] => {
  const db = new Database(path.join(dataDir, 'data.db'), { readonly: true });
  try {
    return (db.prepare("SELECT file FROM _migrations WHERE file NOT LIKE '%.go' ORDER BY file").all() as Array<{ file: string }>).map((r) => r.file);
  } finally {
    db.close();
  }
};
const tables = (): string[] => {
  const db = new Database(path.join(dataDir, 'data.db'), { readonly: true });
  try {
    return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
  } finally {
    db.close();
  }
};

describe('outpost migrate', () => {
  it('create asks first, then writes 0.22\'s blank template', async () => {
    const cancelled = await outpost(['migrate', 'create', 'addThings']);
    expect(cancelled.stdout).toContain('The command has been cancelled');
    expect(fs.existsSync(dir)).toBe(false);

    const res = await outpost(['migrate', 'create', 'addThings'], 'y\n');
    expect(res.code).toBe(0);
    const [file] = fs.readdirSync(dir);
    expect(file).toMatch(/^\d{10}_add_things\.js$/);
    expect(res.stdout).toContain(`Successfully created file ${JSON.stringify(path.join(dir, file))}`);
    expect(fs.readFileSync(path.join(dir, file), 'utf8')).toBe(
      '/// <reference path="../pb_data/types.d.ts" />\nmigrate((db) => {\n  // add up queries...\n}, (db) => {\n  // add down queries...\n})\n',
    );

    const missing = await outpost(['migrate', 'create']);
    expect(missing.code).toBe(0);
    expect(missing.stderr).toContain('Error: Missing migration file name');
  });

  it('up applies the pending files, then has nothing to apply', async () => {
    fs.writeFileSync(path.join(dir, '1714557601_created_posts.js'), CREATED_POSTS);
    const res = await outpost(['migrate', 'up']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const blank = fs.readdirSync(dir).find((f) => f.endsWith('_add_things.js')) as string;
    expect(res.stdout).toBe(`Applied 1714557601_created_posts.js\nApplied ${blank}\n`);
    expect(rows()).toEqual(['1714557601_created_posts.js', blank]);
    expect(tables()).toContain('posts');

    const again = await outpost(['migrate']);
    expect(again.stdout).toBe('No new migrations to apply.\n');
  });

  it('collections writes a snapshot of every collection', async () => {
    const res = await outpost(['migrate', 'collections'], 'yes\n');
    expect(res.code).toBe(0);
    const file = fs.readdirSync(dir).find((f) => f.endsWith('_collections_snapshot.js')) as string;
    expect(file).toMatch(/^\d{10}_collections_snapshot\.js$/);
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    expect(text).toContain('  const snapshot = [\n    {\n      "id": "_pb_users_auth_",');
    expect(text).toContain('"name": "posts"');
    expect(text).toContain('  return Dao(db).importCollections(collections, true, null);\n}, (db) => {\n  return null;\n})\n');
    // applying the snapshot to the same database changes nothing and records it
    expect((await outpost(['migrate', 'up'])).stdout).toBe(`Applied ${file}\n`);
    fs.rmSync(path.join(dir, file));
    expect((await outpost(['migrate', 'history-sync'])).stdout).toBe('The _migrations table was synced with the available migrations.\n');
    expect(rows()).not.toContain(file);
    expect(rows()).toHaveLength(2);
  });

  it('down reverts the latest applied migrations after a confirmation', async () => {
    const cancelled = await outpost(['migrate', 'down', '2'], 'n\n');
    expect(cancelled.stdout).toContain('Do you really want to revert the last 2 applied migration(s)?');
    expect(cancelled.stdout).toContain('The command has been cancelled');
    expect(rows()).toHaveLength(2);

    // `-- -1` (as cobra, a bare -1 is a flag): every applied JS migration, PocketBase's own Go ones left alone
    const res = await outpost(['migrate', 'down', '--', '-1'], 'y\n');
    expect(res.stdout).toContain('Do you really want to revert the last 2 applied migration(s)?');
    expect(res.stderr).toBe('');
    const blank = fs.readdirSync(dir).find((f) => f.endsWith('_add_things.js')) as string;
    expect(res.stdout).toContain(`Reverted ${blank}\nReverted 1714557601_created_posts.js\n`);
    expect(rows()).toEqual([]);
    expect(tables()).not.toContain('posts');
    // PocketBase's own Go migrations are never reverted
    const go = await outpost(['migrate', 'down'], 'y\n');
    expect(go.stderr).toMatch(/^Error: Failed to revert migration 1702134272_set_default_json_max_size\.go: it is one of PocketBase's own \(Go\) migrations/);
  });

  it('refuses a down without a down function, changing nothing', async () => {
    fs.writeFileSync(path.join(dir, '1900000000_only_up.js'), 'migrate((db) => {\n  db.newQuery("CREATE TABLE only_up (id TEXT)").execute();\n});\n');
    expect((await outpost(['migrate', 'up'])).code).toBe(0);
    const res = await outpost(['migrate', 'down'], 'y\n');
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('Error: Failed to revert migration 1900000000_only_up.js: it has no down function (migrate(up, down))\n');
    expect(rows()).toContain('1900000000_only_up.js');
    expect(tables()).toContain('only_up');
  });

  it('a syntax error in a pending file stops migrate up (exit 2) before anything changes', async () => {
    const before = rows();
    fs.writeFileSync(path.join(dir, '1714557800_broken.js'), 'migrate((db) => {\n  db.newQuery(;\n});\n');
    const res = await outpost(['migrate', 'up']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^Error: failed to run migration 1714557800_broken\.js: SyntaxError: /);
    expect(rows()).toEqual(before);
  });

  it('serve stops when a pending migration fails, and an unknown sub-command is named', async () => {
    fs.writeFileSync(path.join(dir, '1714557800_broken.js'), 'migrate((db) => { throw new Error("not today"); }, (db) => {});\n');
    const serve = await outpost(['serve', '--http=127.0.0.1:0']);
    expect(serve.code).not.toBe(0);
    expect(serve.stderr).toContain('Failed to apply migration 1714557800_broken.js: not today');
    expect(rows()).not.toContain('1714557800_broken.js');

    const unknown = await outpost(['migrate', 'sideways']);
    expect(unknown.code).toBe(0);
    expect(unknown.stderr).toContain('Error: Unsupported command: "sideways"');

    const help = await outpost(['migrate', '--help']);
    expect(help.stdout).toContain('- down [number] - reverts the last [number] applied migrations');
  });
});
