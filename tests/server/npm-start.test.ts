// `npm start` twice in a row from a clean checkout, as a new user runs it: the first start builds
// the dashboard and the server, the second reuses both builds and runs with the code cache the
// first one wrote. Both must load what the server loads on first use (a sniff and a thumb, a
// mail). The checkout holds the files git tracks, as they are in this working tree, and
// node_modules linked from the project (installing it again would only time npm).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { Module } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_DIR, ROOT, http, tempDir } from '../helpers/server';
import { checkMail, checkSniffAndThumb } from '../helpers/first-use';
import { spawnServer } from '../helpers/server-process';
import { startSmtp, type TestSmtp } from '../helpers/smtp';

let dir = '';
let checkout = '';
let smtp: TestSmtp;

beforeAll(async () => {
  dir = tempDir('outpost-npm-start-');
  checkout = path.join(dir, 'outpost');
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const f of files) {
    const from = path.join(ROOT, f);
    if (!fs.existsSync(from)) continue; // deleted in the working tree
    fs.mkdirSync(path.dirname(path.join(checkout, f)), { recursive: true });
    fs.copyFileSync(from, path.join(checkout, f));
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(checkout, 'node_modules'));
  fs.cpSync(FIXTURE_DIR, path.join(dir, 'pb_data'), { recursive: true });
  smtp = await startSmtp();
}, 60_000);

afterAll(async () => {
  await smtp?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('starts twice in a row: built once, then run with the code cache', async () => {
  const cache = path.join(checkout, 'dist-server', 'server.cjs.cache');
  for (const n of [1, 2]) {
    const server = await spawnServer('npm', ['start', '--', 'serve', `--dir=${path.join(dir, 'pb_data')}`], checkout);
    try {
      const out = server.output();
      if (n === 1) {
        expect(out).toContain('Building the dashboard...');
        expect(out).toContain('Building the server...');
      } else {
        expect(out).not.toContain('Building');
      }
      expect(out).toContain('REST API');
      const page = await fetch(`${server.url}/_/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="app"');
      await checkSniffAndThumb(server.url, FIXTURE_ADMIN_TOKEN, `npm${n}`);
      await checkMail(server.url, FIXTURE_ADMIN_TOKEN, smtp, `npm${n}`);
      expect((await http(server.url, 'GET', '/api/collections/demo1/records?perPage=1', { token: FIXTURE_ADMIN_TOKEN })).status).toBe(200);
      expect(server.output()).not.toMatch(/failed|Error/);
    } finally {
      await server.stop();
    }
    // the V8 cache of Node 20 (Node 22.8+ keeps its own in dist-server/.compile-cache)
    if (!('enableCompileCache' in Module)) expect(fs.existsSync(cache)).toBe(true);
  }
}, 300_000);
