// --hooksWatch (issue 34): `serve` (the built server in the 'server-built' project) reloads the
// hooks in-process when their files change: a changed route answers anew; a file that does not
// load (a syntax error, a throw at load, a failing onAfterBootstrap) leaves the previous hooks
// serving and is logged with its file and line; the first file of an empty folder and the removal
// of the last one; a hooks folder created after the start; a require()d module in a sub-folder;
// hidden files and node_modules change nothing; no request fails under a steady trickle of
// requests during reloads, and one under way ends normally; --hooksWatch=false watches nothing.
// In-process ('server' project only): nothing leaks over reloads (executor threads, cron timers,
// inotify watches), and close stops the watch.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { tempDir } from '../helpers/server';
import { startCliServer } from '../helpers/cli';
import type { ServerProcess } from '../helpers/server-process';

const BUILT = !!process.env.OUTPOST_TEST_BUILT_MAIN;

const route = (v: number | string, extra = '') => `/// <reference path="../pb_data/types.d.ts" />
const value = ${JSON.stringify(v)};
routerAdd("GET", "/v", (c) => c.json(200, { v: value }));
routerAdd("GET", "/slow", (c) => { sleep(600); return c.json(200, { v: value }); });
${extra}`;

async function waitFor<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() - t0 > ms) throw new Error(`still ${JSON.stringify(v)} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Writes `text` to `file` in one step (a new inode renamed over it, as editors save). */
function save(file: string, text: string): void {
  fs.writeFileSync(`${file}.tmp~`, text);
  fs.renameSync(`${file}.tmp~`, file);
}

describe('--hooksWatch (the default)', () => {
  const work = tempDir('outpost-hooks-reload-');
  const hooksDir = path.join(work, 'pb_hooks');
  const main = path.join(hooksDir, 'main.pb.js');
  let srv: ServerProcess;

  const answer = async (p = '/v'): Promise<unknown> => {
    const res = await fetch(srv.url + p);
    return res.status === 200 ? ((await res.json()) as { v: unknown }).v : res.status;
  };
  const reloads = () => srv.output().split('\n').filter((l) => l.startsWith('[pb_hooks]') && / changed/.test(l));

  beforeAll(async () => {
    fs.mkdirSync(path.join(hooksDir, 'lib'), { recursive: true });
    fs.writeFileSync(main, route(1));
    fs.writeFileSync(path.join(hooksDir, 'lib', 'word.js'), 'module.exports = "one";\n');
    fs.writeFileSync(path.join(hooksDir, 'other.pb.js'), 'routerAdd("GET", "/word", (c) => c.json(200, { v: require(`${__hooks}/lib/word.js`) }));\n');
    srv = await startCliServer([`--dir=${path.join(work, 'pb_data')}`, '--automigrate=false'], work);
  });

  afterAll(async () => {
    await srv?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('a changed route answers anew within seconds', async () => {
    expect(await answer()).toBe(1);
    const t0 = Date.now();
    save(main, route(2));
    await waitFor(answer, (v) => v === 2);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(reloads().at(-1)).toMatch(/main\.pb\.js changed: reloaded 2 hook file\(s\) \(loaded in \d+ ms, requests held \d+ ms\)/);
  });

  it('a file that does not load leaves the previous hooks serving, logged with its file and line; the fix loads', async () => {
    const failures = () => srv.output().split('\n').filter((l) => l.includes('did not load')).length;
    const before = failures();
    save(main, route(3).replace('routerAdd("GET", "/v", (c) => c.json(200, { v: value }));', 'routerAdd("GET", "/v", (c) => c.json(200, { v: value );'));
    await waitFor(async () => failures(), (n) => n === before + 1);
    expect(srv.output()).toMatch(/main\.pb\.js changed, but the hooks did not load; the previous ones keep running\.\nFailed to execute main\.pb\.js:3: /);
    expect(await answer()).toBe(2);
    // the previous generation still grows: its new executors run the texts it loaded, not the broken file
    const concurrent = await Promise.all([1, 2, 3, 4, 5].map(() => fetch(`${srv.url}/slow`).then((r) => r.json() as Promise<{ v: number }>)));
    expect(concurrent.map((b) => b.v)).toEqual([2, 2, 2, 2, 2]);

    save(main, route(3, 'throw new Error("not at load");\n'));
    await waitFor(async () => failures(), (n) => n === before + 2);
    expect(srv.output()).toContain('Failed to execute main.pb.js:5: not at load');
    expect(await answer()).toBe(2);

    save(main, route(3, 'onAfterBootstrap(() => { throw new Error("no boot"); });\n'));
    await waitFor(async () => failures(), (n) => n === before + 3);
    expect(srv.output()).toMatch(/onAfterBootstrap failed \(main\.pb\.js:5\): .*no boot/);
    expect(await answer()).toBe(2);

    save(main, route(4));
    await waitFor(answer, (v) => v === 4);
  });

  it('a require()d module of a sub-folder reloads too; hidden files and node_modules change nothing', async () => {
    expect(await answer('/word')).toBe('one');
    save(path.join(hooksDir, 'lib', 'word.js'), 'module.exports = "two";\n');
    await waitFor(() => answer('/word'), (v) => v === 'two');

    const count = reloads().length;
    fs.writeFileSync(path.join(hooksDir, '.main.pb.js.swp'), 'editor state');
    fs.mkdirSync(path.join(hooksDir, 'node_modules', 'pkg'), { recursive: true });
    fs.writeFileSync(path.join(hooksDir, 'node_modules', 'pkg', 'index.js'), 'module.exports = 1;\n');
    // an editor's probe file, created and removed at once: the files are as they were
    fs.writeFileSync(path.join(hooksDir, '4913'), '');
    fs.rmSync(path.join(hooksDir, '4913'));
    await new Promise((r) => setTimeout(r, 800));
    expect(reloads().length).toBe(count);
  });

  it('no request fails during reloads under a steady trickle, and one under way ends normally', async () => {
    let stop = false;
    const failures: string[] = [];
    const seen: unknown[] = [];
    const client = async () => {
      while (!stop) {
        try {
          const res = await fetch(`${srv.url}/v`);
          if (res.status !== 200) failures.push(`status ${res.status}`);
          else seen.push(((await res.json()) as { v: unknown }).v);
          const health = await fetch(`${srv.url}/api/health`);
          if (health.status !== 200) failures.push(`health ${health.status}`);
          await health.arrayBuffer();
        } catch (err) {
          failures.push(String(err));
        }
      }
    };
    const clients = Array.from({ length: 4 }, client);
    const before = reloads().length;
    for (const v of [10, 11, 12]) {
      const slow = fetch(`${srv.url}/slow`).then(async (r) => ({ status: r.status, body: (await r.json()) as { v: unknown } }));
      await new Promise((r) => setTimeout(r, 100));
      save(main, route(v));
      await waitFor(async () => reloads().length, (n) => n === before + v - 9);
      await waitFor(answer, (x) => x === v);
      // the request under way when the reload came ends normally (the previous generation answers
      // it; an executor that generation started meanwhile read the files as they are now)
      const ended = await slow;
      expect(ended.status).toBe(200);
      expect([v === 10 ? 4 : v - 1, v]).toContain(ended.body.v);
    }
    stop = true;
    await Promise.all(clients);
    expect(failures).toEqual([]);
    expect(seen.length).toBeGreaterThan(20);
    expect(seen.every((v) => [4, 10, 11, 12].includes(v as number))).toBe(true);
    expect(await answer()).toBe(12);
  });

  it('removing the last hook file stops the hooks; the first file of an empty folder starts them', async () => {
    fs.rmSync(main);
    fs.rmSync(path.join(hooksDir, 'other.pb.js'));
    await waitFor(answer, (v) => v === 404);
    // (the two removals may come as two reloads: /v is gone after the first)
    await waitFor(async () => reloads().at(-1) ?? '', (line) => line.includes('no hook file left, the hooks stopped'));
    save(path.join(hooksDir, 'again.pb.js'), route('back'));
    await waitFor(answer, (v) => v === 'back');
    // an empty new file gets 0.22's reference line (and loads, with nothing in it)
    fs.writeFileSync(path.join(hooksDir, 'blank.pb.js'), '');
    await waitFor(async () => fs.readFileSync(path.join(hooksDir, 'blank.pb.js'), 'utf8'), (t) => t !== '');
    expect(fs.readFileSync(path.join(hooksDir, 'blank.pb.js'), 'utf8')).toBe('/// <reference path="../pb_data/types.d.ts" />\n\n');
  });
});

describe('a hooks folder created while serving', () => {
  it('is picked up (its parent is watched until it exists)', async () => {
    const work = tempDir('outpost-hooks-late-');
    const srv = await startCliServer([`--dir=${path.join(work, 'pb_data')}`, '--automigrate=false'], work);
    try {
      expect((await fetch(`${srv.url}/v`)).status).toBe(404);
      fs.mkdirSync(path.join(work, 'pb_hooks'));
      save(path.join(work, 'pb_hooks', 'main.pb.js'), route('late'));
      await waitFor(async () => {
        const res = await fetch(`${srv.url}/v`);
        return res.status === 200 ? ((await res.json()) as { v: unknown }).v : res.status;
      }, (v) => v === 'late');
    } finally {
      await srv.stop();
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});

describe('--hooksWatch=false', () => {
  it('watches nothing: a change is not loaded', async () => {
    const work = tempDir('outpost-hooks-nowatch-');
    const hooksDir = path.join(work, 'pb_hooks');
    fs.mkdirSync(hooksDir);
    fs.writeFileSync(path.join(hooksDir, 'main.pb.js'), route(1));
    const srv = await startCliServer([`--dir=${path.join(work, 'pb_data')}`, '--automigrate=false', '--hooksWatch=false'], work);
    try {
      save(path.join(hooksDir, 'main.pb.js'), route(2));
      await new Promise((r) => setTimeout(r, 1000));
      expect(await (await fetch(`${srv.url}/v`)).json()).toEqual({ v: 1 });
      expect(srv.output()).not.toContain('changed');
    } finally {
      await srv.stop();
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});

/** This process's threads, inotify watches and timers keeping it alive. */
function resources(): { threads: number; inotify: number; timers: number } {
  const threads = Number(/Threads:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1]);
  let inotify = 0;
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      if (fs.readlinkSync(`/proc/self/fd/${fd}`).includes('inotify')) inotify += (fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8').match(/inotify wd/g) ?? []).length;
    } catch {
      /* closed meanwhile */
    }
  }
  return { threads, inotify, timers: process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length };
}

describe.skipIf(BUILT)('reloads in-process', () => {
  it('leak nothing: executor threads, cron timers and watches stay level over reloads; close stops the watch', async () => {
    const work = tempDir('outpost-hooks-leak-');
    const hooksDir = path.join(work, 'pb_hooks');
    fs.mkdirSync(path.join(hooksDir, 'sub', 'deeper'), { recursive: true });
    const file = path.join(hooksDir, 'main.pb.js');
    const cron = 'cronAdd("tick", "* * * * *", () => {});\ncronAdd("tock", "*/5 * * * *", () => {});\n';
    fs.writeFileSync(file, route(0, cron));
    const base = resources();
    const app = await createApp({ dataDir: path.join(work, 'pb_data'), hooksDir, hooksWatch: true, hooksPool: 4 });
    const url = await app.listen('127.0.0.1', 0);
    const answer = async () => ((await (await fetch(`${url}/v`)).json()) as { v: unknown }).v;
    try {
      // three folders watched (the hooks folder and its two sub-folders), one inotify watch each
      expect(resources().inotify - base.inotify).toBe(3);
      const levels: Array<ReturnType<typeof resources>> = [];
      for (let v = 1; v <= 6; v++) {
        // two executors busy at once, so each generation runs more than one thread
        save(file, route(v, cron));
        await waitFor(answer, (x) => x === v);
        await Promise.all([fetch(`${url}/slow`), fetch(`${url}/slow`)]);
        await new Promise((r) => setTimeout(r, 200));
        levels.push(resources());
      }
      const [, second, , , , last] = levels;
      expect(last.threads).toBeLessThanOrEqual(second.threads);
      expect(last.timers).toBeLessThanOrEqual(second.timers);
      expect(last.inotify).toBe(second.inotify);
    } finally {
      await app.close();
      fs.rmSync(work, { recursive: true, force: true });
    }
    await new Promise((r) => setTimeout(r, 300));
    const after = resources();
    expect(after.inotify).toBe(base.inotify);
    expect(after.timers).toBeLessThanOrEqual(base.timers);
  });
});
