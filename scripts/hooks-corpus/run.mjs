#!/usr/bin/env node
// Issue 34: a corpus of real PocketBase 0.22-era projects' `pb_hooks` folders, run on Outpost's
// built server, with a per-project report of what starts, what Outpost warns about and what the
// routes the hooks add answer.
//
// The projects' files are not ours to copy: only the list (projects.json: repository, pinned
// commit, folders) lives in this repository; the files are extracted into a corpus folder OUTSIDE
// it. For each project the script:
//   1. extracts `<commit>:<hooks>` (and `<commit>:<migrations>`, `<commit>:<schema>` when listed)
//      into <corpus>/<owner>+<name>/{pb_hooks,pb_migrations,pb_schema.json} (once; again with
//      --rebuild) from a git mirror (<mirrors>/<owner>+<name>/repo, a bare git dir) with
//      `git archive`, or, without a mirror, from a shallow fetch of that one commit (network);
//   2. copies them into a fresh temp dir (<tmp>/pb_hooks, <tmp>/pb_migrations). A project that
//      ships a collections export (pb_schema.json, the dashboard's "Export collections") instead of
//      migrations gets one generated migration in the temp dir only, 0_hooks_corpus_schema.js,
//      importing it as 0.22's `migrate collections` snapshot does (Dao.importCollections, without
//      deleting), so its collections exist before the hooks run;
//   3. starts the BUILT server: `node <outpost> serve --http=127.0.0.1:<free port> --dir
//      <tmp>/pb_data` (cwd <tmp>, OUTPOST_HOOKS_TIMEOUT_MS=<--hook-budget>), waits for /api/health
//      (bounded by --timeout) and records whether it starts; when it does not, the first error
//      (the file:line and message Outpost prints for a hook file that fails to load, a migration
//      that fails, an onAfterBootstrap that throws);
//   4. records what Outpost prints about the hooks: `[pb_hooks] X is registered, but Outpost does
//      not fire it yet` (unfired events), routes it skips, cron jobs that fail, anything else;
//   5. finds the GET routes the hook files add by reading them (`routerAdd("GET", "<literal
//      path>", …)` in every .js/.ts file of the folder, comments skipped; routes built from
//      variables are counted as unresolved), and calls each once as a guest: a `:param` or `*`
//      gets a dummy value (--param). A 401/403 is asked again with an admin's token (an admin is
//      created with `admin create` on the running server), then, if still refused, with a user's
//      (created through the API as that admin, in the `users` collection when it is an auth
//      collection: that create runs the project's record hooks, and its answer is recorded too).
//      A 400 is asked again the same way: a handler reading c.get("authRecord") without a
//      middleware fails for a guest on 0.22 as well. A call is judged by its first 2xx/3xx answer,
//      else by its last one.
//      For each call: the status, the 0.22 envelope's message (or the start of the body), the
//      server's console output during the call and, from pb_data/logs.db after the stop, the
//      error details Outpost logged for that request (a 400 "Something went wrong…" hides the
//      handler's real error there, e.g. "$http.send() is not supported by Outpost's pb_hooks");
//   6. stops the server (SIGTERM, bounded) and starts it a second time on the same pb_data to
//      confirm it starts again, then stops it;
//   7. sorts what went wrong into causes: `unsupported: <call>` (a member of 0.22's API Outpost
//      lacks, named by its error), `unfired: <event>`, `not defined: <global>`, `load error`,
//      `migration`, `handler error` (any other error a route's handler threw), `timeout`.
// It prints one line per project and a summary (causes ranked by the projects they touch), writes a
// JSON report, and exits 0: it is a report, not a test. Nothing is written outside the temp dirs
// (removed unless --keep), the corpus dir and the report.
//
// projects.json: [{ "repo": "owner/name", "commit": "<40 hex>", "hooks": "<the pb_hooks folder>",
// "migrations": "<the pb_migrations folder>", "schema": "<a collections export, JSON>", "note": "…",
// "expect": "…" }] (all but repo, commit and hooks optional; expect: what 0.22 itself would do when
// that is not "starts and serves", e.g. a hook that needs data the project never shipped). One line
// per project:
//   owner/name@commit hooks=N(+N js) mig=N[+schema] start=ok(s)|FAIL restart=ok|FAIL|n/a unfired=a,b
//   GET routes=N tried=N ok=N [final status:count …] unresolved=N other=POST:N,… causes: …  first error: …
// (ok: a 2xx/3xx answer, after the admin/user retries)
//
// Usage (from the repository root):
//   node scripts/hooks-corpus/run.mjs [flags]
// Flags:
//   --list FILE        the project list (default scripts/hooks-corpus/projects.json)
//   --corpus DIR       where the extracted folders live (default ../hooks-corpus, i.e. next to the
//                      repository; refused inside it)
//   --mirrors DIR      git mirrors, layout <owner>+<name>/repo (default /work/.mirror)
//   --rebuild          extract every folder again even when the corpus already holds that commit
//   --extract-only     rebuild the corpus and stop (no server run)
//   --only TEXT        only the projects whose "owner/name" contains TEXT (repeatable)
//   --report FILE      the JSON report (default <corpus>/report.json)
//   --outpost FILE     the server's CLI (default dist-server/main.mjs; a scratch build made with
//                      `node scripts/build-server.mjs tests/.tmp/hooks-corpus-build` is
//                      tests/.tmp/hooks-corpus-build/main.mjs)
//   --timeout SEC      the bound of one start, migrations included (default 120)
//   --request-timeout SEC  the bound of one route call (default 20)
//   --hook-budget MS   OUTPOST_HOOKS_TIMEOUT_MS for the server: a handler running longer is stopped
//                      (default 15000)
//   --param TEXT       the dummy value of a `:param` / `*` (default "corpus-param")
//   --no-auth          call the routes as a guest only (no admin, no user)
//   --keep             keep each project's temp dir (its path is in the report)
//   --verbose          print every route call and every server line about the hooks
// Example:
//   node scripts/build-server.mjs tests/.tmp/hooks-corpus-build
//   node scripts/hooks-corpus/run.mjs --outpost tests/.tmp/hooks-corpus-build/main.mjs \
//     --report /work/hooks-corpus/report.json
//   node scripts/hooks-corpus/run.mjs --outpost tests/.tmp/hooks-corpus-build/main.mjs --only justjot --verbose --keep

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { extractProject, slugOf } from '../corpus-source.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const require = createRequire(path.join(repoRoot, 'package.json'));

const { values: flags } = parseArgs({
  options: {
    list: { type: 'string', default: path.join(here, 'projects.json') },
    corpus: { type: 'string', default: path.resolve(repoRoot, '../hooks-corpus') },
    mirrors: { type: 'string', default: '/work/.mirror' },
    rebuild: { type: 'boolean', default: false },
    'extract-only': { type: 'boolean', default: false },
    only: { type: 'string', multiple: true },
    report: { type: 'string' },
    outpost: { type: 'string', default: path.join(repoRoot, 'dist-server/main.mjs') },
    timeout: { type: 'string', default: '120' },
    'request-timeout': { type: 'string', default: '20' },
    'hook-budget': { type: 'string', default: '15000' },
    param: { type: 'string', default: 'corpus-param' },
    'no-auth': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
  strict: true,
});

const corpusDir = path.resolve(flags.corpus);
const mirrorsDir = path.resolve(flags.mirrors);
const reportFile = path.resolve(flags.report ?? path.join(corpusDir, 'report.json'));
const startTimeoutMs = Math.max(1, Number(flags.timeout) || 120) * 1000;
const requestTimeoutMs = Math.max(1, Number(flags['request-timeout']) || 20) * 1000;
const hookBudgetMs = Math.max(100, Number(flags['hook-budget']) || 15000);
const outpostMain = path.resolve(flags.outpost);
const ADMIN = { email: 'hooks-corpus@example.com', password: 'hooks-corpus-Passw0rd' };
const USER = { email: 'hooks-corpus-user@example.com', password: 'hooks-corpus-Passw0rd' };

if (isInside(corpusDir, repoRoot)) {
  console.error(`--corpus ${corpusDir} is inside the repository: the projects' files must stay outside it.`);
  process.exit(2);
}

/** 0.22 loads `*.pb.js` / `*.pb.ts` at the top of the hooks folder. */
const HOOK_FILE = /\.pb\.(js|ts)$/;

async function main() {
  const list = JSON.parse(fs.readFileSync(flags.list, 'utf8'));
  const projects = list.filter((p) => !flags.only?.length || flags.only.some((s) => p.repo.includes(s)));
  fs.mkdirSync(corpusDir, { recursive: true });

  for (const p of projects) {
    try {
      p.folder = ensureExtracted(p);
    } catch (err) {
      p.extractError = firstLine(err?.message ?? String(err));
    }
  }
  if (flags['extract-only']) {
    for (const p of projects) console.log(`${p.repo}@${p.commit.slice(0, 10)} ${p.extractError ? `NOT EXTRACTED: ${p.extractError}` : p.folder}`);
    return;
  }
  if (!fs.existsSync(outpostMain)) {
    console.error(`${outpostMain} is missing: build it first (node scripts/build-server.mjs tests/.tmp/hooks-corpus-build, then --outpost tests/.tmp/hooks-corpus-build/main.mjs)`);
    process.exit(2);
  }

  const results = [];
  for (const p of projects) {
    let r;
    try {
      r = await runProject(p);
    } catch (err) {
      r = { repo: p.repo, commit: p.commit, error: `the runner failed: ${err?.stack ?? err}`, causes: ['runner error'] };
    }
    results.push(r);
    console.log(formatLine(r));
    if (flags.verbose) printDetails(r);
  }

  const summary = summarize(results);
  for (const l of summary.lines) console.log(l);
  const report = {
    generated: new Date().toISOString(),
    outpost: outpostMain,
    corpus: corpusDir,
    startTimeoutSeconds: startTimeoutMs / 1000,
    requestTimeoutSeconds: requestTimeoutMs / 1000,
    hookBudgetMs,
    summary,
    projects: results,
  };
  fs.mkdirSync(path.dirname(reportFile), { recursive: true });
  fs.writeFileSync(reportFile, JSON.stringify(report, null, 2) + '\n');
  console.log(`report: ${reportFile}`);
}

// ---------------------------------------------------------------------------------------------
// Corpus: extraction from mirrors (or a shallow fetch)

function ensureExtracted(p) {
  const parts = [{ tree: p.hooks, into: 'pb_hooks' }];
  if (p.migrations) parts.push({ tree: p.migrations, into: 'pb_migrations' });
  if (p.schema) parts.push({ file: p.schema, into: 'pb_schema.json' });
  const identity = { repo: p.repo, commit: p.commit, hooks: p.hooks, migrations: p.migrations ?? null, schema: p.schema ?? null };
  return extractProject({ corpusDir, mirrorsDir, rebuild: flags.rebuild, repo: p.repo, commit: p.commit, identity, parts });
}

// ---------------------------------------------------------------------------------------------
// Static reading of the hook files: the routes they add

function listFiles(dir, pred, base = dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const full = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(full, pred, base));
    else if (e.isFile() && pred(e.name)) out.push(path.relative(base, full));
  }
  return out.sort();
}

/** Offsets of the comments of a JS text (strings and template literals skipped, roughly). */
function commentRanges(text) {
  const ranges = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"' || ch === "'" || ch === '`') {
      const q = ch;
      i++;
      while (i < text.length && text[i] !== q) {
        if (text[i] === '\\') i++;
        else if (q !== '`' && text[i] === '\n') break;
        i++;
      }
      i++;
    } else if (ch === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      ranges.push([i, end < 0 ? text.length : end]);
      i = end < 0 ? text.length : end;
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      ranges.push([i, end < 0 ? text.length : end + 2]);
      i = end < 0 ? text.length : end + 2;
    } else i++;
  }
  return ranges;
}

function findRoutes(hooksDir) {
  const files = listFiles(hooksDir, (n) => /\.(c?js|ts)$/.test(n) && !n.endsWith('.d.ts'));
  const routes = [];
  let unresolved = 0;
  const other = {};
  for (const rel of files) {
    const text = fs.readFileSync(path.join(hooksDir, rel), 'utf8');
    const comments = commentRanges(text);
    const inComment = (at) => comments.some(([a, b]) => at >= a && at < b);
    const lineOf = (at) => text.slice(0, at).split('\n').length;
    for (const m of text.matchAll(/\brouterAdd\s*\(\s*(?:(["'`])([A-Za-z*]+)\1|([^,)]+))\s*,\s*(?:(["'`])([^"'`$]*)\4)?/g)) {
      if (inComment(m.index)) continue;
      const method = m[2] ? m[2].toUpperCase() : null;
      if (method && method !== 'GET' && method !== '*') {
        other[method] = (other[method] ?? 0) + 1;
        continue;
      }
      if (!method || m[5] === undefined) {
        unresolved++;
        continue;
      }
      routes.push({ method, path: m[5], file: rel, line: lineOf(m.index), code: text.split('\n')[lineOf(m.index) - 1].trim().slice(0, 200) });
    }
  }
  return { routes, unresolved, otherMethods: other };
}

function concretePath(p) {
  const v = encodeURIComponent(flags.param);
  const full = p.startsWith('/') ? p : `/${p}`; // echo v5 (0.22's router) adds a missing leading slash
  return full.replace(/:[A-Za-z_][\w]*/g, v).replace(/\*/g, v);
}

// ---------------------------------------------------------------------------------------------
// One project

async function runProject(p) {
  const base = { repo: p.repo, commit: p.commit, hooks: p.hooks, migrations: p.migrations ?? null, schema: p.schema ?? null, note: p.note, expect: p.expect };
  if (p.extractError) return { ...base, error: `not extracted: ${p.extractError}`, causes: ['not extracted'] };
  const folder = p.folder;
  const hooksSrc = path.join(folder, 'pb_hooks');
  const hookFiles = fs.readdirSync(hooksSrc).filter((n) => HOOK_FILE.test(n) && fs.statSync(path.join(hooksSrc, n)).isFile());
  const jsFiles = listFiles(hooksSrc, (n) => /\.(c?js|ts)$/.test(n) && !n.endsWith('.d.ts'));
  const migSrc = path.join(folder, 'pb_migrations');
  const migrationFiles = fs.existsSync(migSrc) ? fs.readdirSync(migSrc).filter((n) => /\.(js|ts)$/.test(n)).length : 0;
  const { routes, unresolved, otherMethods } = findRoutes(hooksSrc);

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `hooks-corpus-${slugOf(p.repo)}-`));
  fs.cpSync(hooksSrc, path.join(tmp, 'pb_hooks'), { recursive: true });
  fs.mkdirSync(path.join(tmp, 'pb_migrations'), { recursive: true });
  if (fs.existsSync(migSrc)) fs.cpSync(migSrc, path.join(tmp, 'pb_migrations'), { recursive: true });
  const schemaFile = path.join(folder, 'pb_schema.json');
  if (fs.existsSync(schemaFile)) {
    fs.writeFileSync(
      path.join(tmp, 'pb_migrations', '0_hooks_corpus_schema.js'),
      `// generated by scripts/hooks-corpus/run.mjs from the project's pb_schema.json (0.22's snapshot shape)\n` +
        `migrate((db) => {\n  const snapshot = ${fs.readFileSync(schemaFile, 'utf8').trim()};\n` +
        `  const collections = snapshot.map((item) => new Collection(item));\n  return Dao(db).importCollections(collections, false, null);\n}, (db) => null);\n`,
    );
  }

  const result = {
    ...base,
    hookFiles: hookFiles.length,
    jsFiles: jsFiles.length,
    migrationFiles,
    schemaImported: fs.existsSync(schemaFile),
    getRoutes: routes.length,
    unresolvedRoutes: unresolved,
    otherRoutes: otherMethods,
  };

  // -- first start ------------------------------------------------------------------------------
  const first = await startServer(tmp);
  result.start = { ok: first.ok, ms: first.ms, exit: first.exit, firstError: first.ok ? null : firstError(first.output.text()) };
  const firstOut = () => first.output.text();
  const calls = [];
  if (first.ok) {
    let adminToken = null;
    let userToken = null;
    const auth = { admin: null, user: null };
    if (!flags['no-auth']) {
      const made = await runCli(['admin', 'create', ADMIN.email, ADMIN.password, '--dir', path.join(tmp, 'pb_data')], tmp);
      const a = await request(first.port, 'POST', '/api/admins/auth-with-password', { json: { identity: ADMIN.email, password: ADMIN.password } });
      adminToken = a.json?.token ?? null;
      auth.admin = adminToken ? 'ok' : `FAIL (${firstLine(made.stderr || made.stdout)} / ${a.status} ${a.message})`;
      if (adminToken) {
        const coll = await request(first.port, 'GET', '/api/collections/users', { token: adminToken });
        if (coll.status === 200 && coll.json?.type === 'auth') {
          const mark = first.output.mark();
          const c = await request(first.port, 'POST', '/api/collections/users/records', {
            token: adminToken,
            json: { ...dummyValues(coll.json.schema), email: USER.email, password: USER.password, passwordConfirm: USER.password, username: 'hooks_corpus_user', verified: true },
          });
          await sleep(300);
          auth.userCreate = { status: c.status, message: c.message, console: first.output.since(mark) };
          const u = await request(first.port, 'POST', '/api/collections/users/auth-with-password', { json: { identity: USER.email, password: USER.password } });
          userToken = u.json?.token ?? null;
          auth.user = userToken ? 'ok' : `FAIL (${u.status} ${u.message})`;
        } else auth.user = 'no auth collection "users"';
      }
    }
    result.auth = auth;

    for (const r of routes) {
      const url = concretePath(r.path);
      const call = { method: 'GET', path: r.path, url, file: r.file, line: r.line, code: r.code };
      const mark = first.output.mark();
      Object.assign(call, summarizeAnswer(await request(first.port, 'GET', url)));
      // a handler that reads c.get("authRecord") / c.get("admin") without a middleware fails for a
      // guest on 0.22 too (a 400): such answers are asked again with a token
      const refused = (a) => a.status === 400 || a.status === 401 || a.status === 403;
      if (refused(call) && adminToken) {
        call.asAdmin = summarizeAnswer(await request(first.port, 'GET', url, { token: adminToken }));
        if (refused(call.asAdmin) && userToken) call.asUser = summarizeAnswer(await request(first.port, 'GET', url, { token: userToken }));
      }
      await sleep(200);
      call.console = first.output.since(mark);
      calls.push(call);
    }
  }
  const stop1 = await stopServer(first);
  result.stop = stop1;
  result.output = hookLines(firstOut());
  result.unfired = unfiredOf(firstOut());

  // the error details Outpost logged for each call (logs.db is flushed on close)
  const logged = readLogs(path.join(tmp, 'pb_data', 'logs.db'));
  const uc = result.auth?.userCreate;
  if (uc && uc.status >= 400) {
    const hit = logged.find((l) => l.url === '/api/collections/users/records' && l.status === uc.status && !l.used);
    if (hit) {
      hit.used = true;
      uc.logged = clip(`${hit.error}${hit.details ? ` | ${hit.details}` : ''}`, 1500);
    }
    uc.at = hookFrame(`${uc.logged ?? ''}\n${uc.console.join('\n')}`);
  }
  for (const c of calls) {
    for (const answer of [c, c.asAdmin, c.asUser].filter(Boolean)) {
      if (answer.status < 400) continue;
      const hit = logged.find((l) => l.url === c.url && l.status === answer.status && !l.used);
      if (hit) {
        hit.used = true;
        answer.logged = clip(`${hit.error}${hit.details ? ` | ${hit.details}` : ''}`, 1500);
      }
      const at = hookFrame(`${answer.logged ?? ''}\n${(c.console ?? []).join('\n')}`);
      if (at) answer.at = at;
    }
    const [who, a] = finalAnswer(c);
    c.final = { as: who, status: a.status };
  }
  result.calls = calls;
  result.tried = calls.length;
  result.ok = calls.filter((c) => c.final.status >= 200 && c.final.status < 400).length;

  // -- second start -------------------------------------------------------------------------------
  if (first.ok) {
    const second = await startServer(tmp);
    result.restart = { ok: second.ok, ms: second.ms, exit: second.exit, firstError: second.ok ? null : firstError(second.output.text()) };
    result.restartStop = await stopServer(second);
    const extra = hookLines(second.output.text()).filter((l) => !result.output.includes(l));
    if (extra.length) result.restartOutput = extra;
  }

  result.causes = causesOf(result);
  result.tmp = flags.keep ? tmp : undefined;
  if (!flags.keep) fs.rmSync(tmp, { recursive: true, force: true });
  return result;
}

/** Values for the required fields of a collection's schema (relations and files left out). */
function dummyValues(schema) {
  const out = {};
  for (const f of Array.isArray(schema) ? schema : []) {
    if (!f?.required) continue;
    const o = f.options ?? {};
    switch (f.type) {
      case 'text':
      case 'editor':
        out[f.name] = 'hooks-corpus'.padEnd(Number(o.min) || 0, 'x').slice(0, Number(o.max) || 1000);
        break;
      case 'number':
        out[f.name] = Number(o.min) || 1;
        break;
      case 'bool':
        out[f.name] = true;
        break;
      case 'email':
        out[f.name] = 'hooks-corpus-field@example.com';
        break;
      case 'url':
        out[f.name] = 'https://example.com';
        break;
      case 'date':
        out[f.name] = new Date().toISOString().replace('T', ' ');
        break;
      case 'select':
        if (Array.isArray(o.values) && o.values.length) out[f.name] = Number(o.maxSelect) > 1 ? [o.values[0]] : o.values[0];
        break;
      case 'json':
        out[f.name] = {};
        break;
    }
  }
  return out;
}

/**
 * The answer a call is judged by: the first success of guest → admin → user; else the last one
 * that got past the middlewares (not a 401/403: the handler ran and failed); else the last one.
 */
function finalAnswer(c) {
  const chain = [['guest', c], ['admin', c.asAdmin], ['user', c.asUser]].filter(([, a]) => a);
  return (
    chain.find(([, a]) => a.status >= 200 && a.status < 400) ??
    [...chain].reverse().find(([, a]) => a.status !== 401 && a.status !== 403) ??
    chain[chain.length - 1]
  );
}

function summarizeAnswer(a) {
  const out = { status: a.status, type: a.type, message: a.message, ms: a.ms };
  if (a.error) out.error = a.error;
  return out;
}

// ---------------------------------------------------------------------------------------------
// The server process

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Collects a child's stdout+stderr in arrival order, with marks to slice what came after. */
function outputOf(child) {
  const chunks = [];
  let size = 0;
  const cap = 4 << 20;
  const add = (b) => {
    if (size < cap) {
      chunks.push(String(b));
      size += b.length;
    }
  };
  child.stdout.on('data', add);
  child.stderr.on('data', add);
  return {
    text: () => chunks.join(''),
    mark: () => chunks.join('').length,
    since: (mark) =>
      chunks
        .join('')
        .slice(mark)
        .split('\n')
        .map((l) => l.trimEnd())
        .filter((l) => l && !/^Applied /.test(l))
        .slice(0, 40),
  };
}

async function startServer(tmp) {
  const port = await freePort();
  const started = Date.now();
  const child = spawn(process.execPath, [outpostMain, 'serve', `--http=127.0.0.1:${port}`, '--dir', path.join(tmp, 'pb_data')], {
    cwd: tmp,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, OUTPOST_HOOKS_TIMEOUT_MS: String(hookBudgetMs), NO_COLOR: '1' },
  });
  const output = outputOf(child);
  let exited = null;
  const exitPromise = new Promise((resolve) => child.on('close', (code, signal) => resolve((exited = { code, signal }))));
  child.on('error', (err) => output.text && (exited = { code: null, signal: null, error: String(err) }));
  const server = { child, port, output, exitPromise, get exited() {
    return exited;
  } };
  while (Date.now() - started < startTimeoutMs) {
    if (exited) return { ...server, ok: false, ms: Date.now() - started, exit: exitText(exited) };
    const h = await request(port, 'GET', '/api/health', { timeoutMs: 2000 });
    if (h.status === 200) return { ...server, ok: true, ms: Date.now() - started, exit: null };
    await sleep(250);
  }
  await stopServer(server);
  return { ...server, ok: false, ms: Date.now() - started, exit: `no answer from /api/health within ${startTimeoutMs / 1000} s` };
}

async function stopServer(server) {
  if (server.exited) return { signal: 'none (had exited)', exit: exitText(server.exited) };
  const t0 = Date.now();
  try {
    process.kill(server.child.pid, 'SIGTERM');
  } catch {
    /* gone */
  }
  const done = await Promise.race([server.exitPromise, sleep(10_000).then(() => null)]);
  if (done) return { signal: 'SIGTERM', exit: exitText(done), ms: Date.now() - t0 };
  try {
    process.kill(-server.child.pid, 'SIGKILL'); // its own process group (detached): executors too
  } catch {
    server.child.kill('SIGKILL');
  }
  const killed = await server.exitPromise;
  return { signal: 'SIGKILL (no exit 10 s after SIGTERM)', exit: exitText(killed), ms: Date.now() - t0 };
}

function exitText(e) {
  if (!e) return null;
  if (e.error) return e.error;
  return e.signal ? `signal ${e.signal}` : `exit ${e.code}`;
}

function runCli(args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [outpostMain, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function request(port, method, url, { json, token, timeoutMs = requestTimeoutMs } = {}) {
  const started = Date.now();
  const headers = { 'user-agent': 'outpost-hooks-corpus' };
  if (json !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = token;
  try {
    const res = await fetch(`http://127.0.0.1:${port}${url}`, {
      method,
      headers,
      body: json === undefined ? undefined : JSON.stringify(json),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const type = res.headers.get('content-type') ?? '';
    const text = await res.text();
    let parsed = null;
    if (/json/.test(type)) {
      try {
        parsed = JSON.parse(text);
      } catch {
        /* not JSON after all */
      }
    }
    let message;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && typeof parsed.message === 'string') {
      message = parsed.message + (parsed.data && Object.keys(parsed.data).length ? ` ${clip(JSON.stringify(parsed.data), 200)}` : '');
    } else if (res.status >= 300 && res.status < 400) message = `→ ${res.headers.get('location') ?? ''}`;
    else message = clip(text, 160);
    return { status: res.status, type: type.split(';')[0], json: parsed, message, ms: Date.now() - started };
  } catch (err) {
    const what = err?.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : firstLine(err?.cause?.message ?? err?.message ?? String(err));
    return { status: 0, type: '', json: null, message: what, error: what, ms: Date.now() - started };
  }
}

function readLogs(file) {
  if (!fs.existsSync(file)) return [];
  try {
    const Database = require('better-sqlite3');
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return db
        .prepare('SELECT data, created FROM _logs ORDER BY created')
        .all()
        .map((r) => parseJson(r.data, {}))
        .filter((d) => d.type === 'request' && d.status >= 400)
        .map((d) => ({ url: d.url, status: d.status, error: d.error ?? '', details: typeof d.details === 'string' ? d.details : d.details ? JSON.stringify(d.details) : '' }));
    } finally {
      db.close();
    }
  } catch (err) {
    return [{ url: '', status: 0, error: `logs.db unreadable: ${err.message}` }];
  }
}

// ---------------------------------------------------------------------------------------------
// Reading the server's output

/** The lines about the hooks (and errors), without the migrations' "Applied …" list or the banner. */
function hookLines(text) {
  const banner = /^(Outpost \(speaks|├─|└─|No admin exists yet| {2}http:\/\/.*installer|Applied |\s*$)/;
  return text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l && !banner.test(l))
    .filter((l, i, all) => all.indexOf(l) === i)
    .slice(0, 80);
}

function unfiredOf(text) {
  return [...new Set([...text.matchAll(/\[pb_hooks\] (\w+) is registered, but Outpost does not fire it yet/g)].map((m) => m[1]))];
}

/** The first error of a failed start: the line naming a file:line or an error, with what follows. */
function firstError(text) {
  const lines = hookLines(text);
  const at = lines.findIndex((l) => /error|fail|cannot|not supported|not defined|refus|panic|\.pb\.(js|ts):\d+/i.test(l));
  if (at < 0) return clip(lines.slice(-3).join(' | '), 600);
  return clip(lines.slice(at, at + 3).join(' | '), 600);
}

/** The first stack frame in a hook file (`main.pb.js:37:32`), from an error's text. */
function hookFrame(text) {
  const m = /\/pb_hooks\/([^\s():]+):(\d+)(?::(\d+))?/.exec(String(text ?? ''));
  return m ? `${m[1]}:${m[2]}` : '';
}

const UNSUPPORTED = /((?:an async function in runInTransaction \(a transaction cannot wait\))|[^\s"'`|]+) is not supported by Outpost's/g;

/** Sorts a project's failures into causes, each with where it was seen. */
function causesOf(r) {
  const causes = new Map(); // cause -> [where]
  const add = (cause, where) => {
    if (!causes.has(cause)) causes.set(cause, []);
    if (causes.get(cause).length < 5) causes.get(cause).push(where);
  };
  const scan = (text, where, { fallback } = {}) => {
    let found = false;
    for (const m of String(text ?? '').matchAll(UNSUPPORTED)) {
      add(`unsupported: ${m[1]}`, where);
      found = true;
    }
    for (const m of String(text ?? '').matchAll(/\b([\w$]+) is not defined/g)) {
      add(/^on[A-Z]\w+$/.test(m[1]) ? `hook not defined: ${m[1]} (0.22 has it)` : `not defined: ${m[1]}`, where);
      found = true;
    }
    // goja lets a native constructor be called without `new` (ForbiddenError(), DynamicModel(…))
    if (/Class constructors? \w* ?cannot be invoked without 'new'/.test(String(text ?? ''))) {
      add("difference: a 0.22 constructor called without `new` (goja allows it)", where);
      found = true;
    }
    if (!found && fallback) add(fallback, where);
    return found;
  };
  if (r.error) add(r.error.startsWith('not extracted') ? 'not extracted' : 'runner error', r.error);
  if (r.start && !r.start.ok) {
    const text = r.start.firstError ?? '';
    const kind = /first character of a path should be/.test(text)
      ? 'difference: routerAdd path without a leading "/" fails the start (echo v5 adds the slash)'
      : /migrat/i.test(text)
        ? 'start: migration fails'
        : /onAfterBootstrap/.test(text)
          ? 'start: onAfterBootstrap throws'
          : 'start: hook file fails to load';
    scan(text, `start: ${clip(text, 300)}`, { fallback: kind });
  }
  for (const name of r.unfired ?? []) add(`unfired: ${name}`, 'registered at load');
  for (const l of r.output ?? []) {
    if (/is skipped/.test(l)) add('route skipped', l);
    if (/cron job .* failed/.test(l)) scan(l, l, { fallback: 'cron job fails' });
  }
  const uc = r.auth?.userCreate;
  if (uc && uc.status >= 400) {
    const where = `POST /api/collections/users/records (the corpus user, as admin) → ${uc.status} ${clip(uc.message, 100)}${uc.at ? ` at ${uc.at}` : ''}`;
    scan(`${uc.logged ?? ''}\n${(uc.console ?? []).join('\n')}`, `${where} | ${clip(uc.logged ?? '', 300)}`);
  }
  for (const c of r.calls ?? []) {
    const [who, a] = finalAnswer(c);
    // what every answer's error names counts, even when a retry with a token then succeeded
    for (const [w, other] of [['guest', c], ['admin', c.asAdmin], ['user', c.asUser]]) {
      if (!other || other === a || !other.logged) continue;
      scan(other.logged, `GET ${c.path} (${c.file}:${c.line}) as ${w} → ${other.status} ${clip(other.message, 100)}${other.at ? ` at ${other.at}` : ''} | ${clip(other.logged, 300)}`);
    }
    if (a.status > 0 && a.status < 400) continue;
    const text = `${a.logged ?? ''}\n${(c.console ?? []).join('\n')}`;
    const at = hookFrame(text);
    const where = `GET ${c.path} (${c.file}:${c.line}) as ${who} → ${a.status} ${clip(a.message, 100)}${at ? ` at ${at}` : ''}`;
    if (scan(text, `${where} | ${clip(a.logged ?? '', 300)}`)) continue;
    if (a.status === 0) add('route: no answer', where);
    else if (a.status === 404 && !/^Not Found\.$/.test(a.message ?? '')) add('route: 404 from the handler (a record it looks for is missing)', `${where} | ${clip(a.logged ?? '', 300)}`);
    else if (a.status === 404) add('route: 404 Not Found', where);
    else if (a.status === 401 || a.status === 403) add(`route: ${a.status} after retries`, where);
    else add(`route: ${a.status} handler error`, `${where} | ${clip(a.logged ?? '', 300)}`);
  }
  return [...causes].map(([cause, where]) => ({ cause, where }));
}

// ---------------------------------------------------------------------------------------------
// Output

function formatLine(r) {
  if (r.error) return `${r.repo}@${String(r.commit).slice(0, 10)} ERROR ${r.error}`;
  const statuses = {};
  for (const c of r.calls ?? []) statuses[c.final.status] = (statuses[c.final.status] ?? 0) + 1;
  const st = Object.entries(statuses)
    .map(([s, n]) => `${s}:${n}`)
    .join(' ');
  const start = r.start.ok ? `ok(${(r.start.ms / 1000).toFixed(1)}s)` : 'FAIL';
  const restart = !r.restart ? 'n/a' : r.restart.ok ? 'ok' : 'FAIL';
  const unfired = r.unfired?.length ? ` unfired=${r.unfired.join(',')}` : '';
  const others = Object.entries(r.otherRoutes ?? {}).map(([m, n]) => `${m}:${n}`).join(',');
  const causes = r.causes?.length ? ` causes: ${r.causes.map((c) => c.cause).join('; ')}` : '';
  const err = r.start.ok ? '' : ` first error: ${clip(r.start.firstError ?? '', 300)}`;
  return (
    `${r.repo}@${r.commit.slice(0, 10)} hooks=${r.hookFiles}(+${r.jsFiles - r.hookFiles} js) mig=${r.migrationFiles}${r.schemaImported ? '+schema' : ''} ` +
    `start=${start} restart=${restart}${unfired} GET routes=${r.getRoutes} tried=${r.tried} ok=${r.ok}${st ? ` [${st}]` : ''}` +
    `${r.unresolvedRoutes ? ` unresolved=${r.unresolvedRoutes}` : ''}${others ? ` other=${others}` : ''}${r.expect ? ` expect=${clip(r.expect, 60)}` : ''}${causes}${err}`
  );
}

function printDetails(r) {
  const uc = r.auth?.userCreate;
  if (r.auth) console.log(`    auth: admin=${r.auth.admin} user=${r.auth.user}${uc ? ` (user create → ${uc.status} ${clip(uc.message, 120)}${uc.logged ? ` {${clip(uc.logged, 300)}}` : ''})` : ''}`);
  for (const l of r.output ?? []) console.log(`    | ${clip(l, 300)}`);
  for (const c of r.calls ?? []) {
    const chain = [c, c.asAdmin, c.asUser].filter(Boolean).map((a) => `${a.status} ${clip(a.message, 100)}${a.logged ? ` {${clip(a.logged, 300)}}` : ''}`);
    console.log(`    GET ${c.url} (${c.file}:${c.line}) → ${chain.join(' → ')}`);
    for (const l of c.console ?? []) console.log(`      > ${clip(l, 300)}`);
  }
  for (const l of r.restartOutput ?? []) console.log(`    | (restart) ${clip(l, 300)}`);
}

function summarize(results) {
  const ran = results.filter((r) => !r.error);
  const started = ran.filter((r) => r.start?.ok);
  const restarted = ran.filter((r) => r.restart?.ok);
  const tried = ran.reduce((s, r) => s + (r.tried ?? 0), 0);
  const ok = ran.reduce((s, r) => s + (r.ok ?? 0), 0);
  const byCause = new Map();
  for (const r of results) {
    for (const c of r.causes ?? []) {
      if (!byCause.has(c.cause)) byCause.set(c.cause, { cause: c.cause, projects: [], example: c.where[0] });
      byCause.get(c.cause).projects.push(r.repo);
    }
  }
  const causes = [...byCause.values()].sort((a, b) => b.projects.length - a.projects.length || a.cause.localeCompare(b.cause));
  const lines = [
    `SUMMARY projects=${results.length} started=${started.length} restarted=${restarted.length} ` +
      `GET routes tried=${tried} ok=${ok} (projects with GET routes: ${ran.filter((r) => r.tried).length}; every route ok in ${ran.filter((r) => r.tried && r.ok === r.tried).length})`,
    'CAUSES (projects):',
    ...causes.map((c) => `  ${c.projects.length}  ${c.cause}  [${c.projects.join(', ')}]`),
  ];
  return { projects: results.length, started: started.length, restarted: restarted.length, routesTried: tried, routesOk: ok, causes, lines };
}

// ---------------------------------------------------------------------------------------------
// Helpers

function isInside(child, parent) {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function parseJson(s, fallback) {
  try {
    return JSON.parse(s) ?? fallback;
  } catch {
    return fallback;
  }
}

function firstLine(s) {
  return String(s ?? '').split('\n').find((l) => l.trim()) ?? '';
}

function clip(s, n) {
  s = String(s ?? '').replace(/\s+/g, ' ').trim();
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

main().catch((err) => {
  console.error(err?.stack ?? String(err));
  process.exit(1);
});
