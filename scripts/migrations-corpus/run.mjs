#!/usr/bin/env node
// Issue 33: a corpus of real PocketBase 0.16–0.22 projects' `pb_migrations` folders, run through
// Outpost's `migrate up` and compared with what the files describe.
//
// The projects' files are not ours to copy: only the list (projects.json: repository, pinned
// commit, folder) lives in this repository; the files are extracted into a corpus folder OUTSIDE
// it. For each project the script:
//   1. extracts `<commit>:<path>` into <corpus>/<owner>+<name>/ (once; again with --rebuild) from a
//      git mirror (<mirrors>/<owner>+<name>/repo, a bare git dir) with `git archive`, or, without a
//      mirror, from a shallow fetch of that one commit from github.com (network needed);
//   2. copies the folder into a fresh temp dir (<tmp>/pb_data, <tmp>/pb_migrations) and runs the
//      BUILT server: `node dist-server/main.mjs migrate up --dir <tmp>/pb_data
//      --migrationsDir <tmp>/pb_migrations` (cwd <tmp>, bounded by --timeout), recording the exit
//      code, the first error line and which files `_migrations` lists as applied (Outpost, like
//      0.22, prints a refused `migrate up` as `Error: …` and may still exit 0, so "applied" is
//      judged from `_migrations`, not from the exit code);
//   3. evaluates the same files with an independent reference model of 0.22's migration API (below:
//      every file in its own node:vm context, `migrate` registrations run in file-name order, a
//      Dao that tracks collections only and saves without validating, as 0.22's Dao does, keeping
//      only the refusals of 0.22's SQL layer and Dao: an unknown collection on find, a second id or
//      name, a view naming a table that does not exist yet, deleting a referenced collection;
//      records, raw SQL, admins, settings are no-op stubs that never throw). When the model fails,
//      0.22 most likely fails too: such projects are marked "expect": "fails-on-0.22" in the list;
//   4. compares, per collection, Outpost's `_collections` (pb_data/data.db, read with
//      better-sqlite3) with the reference: present/absent, type, field names with their types
//      (views: presence only, their fields come from the query) and the five rules.
// It prints one line per project and a summary, writes a JSON report, and exits 0: it is a report,
// not a test. Nothing is written outside the temp dirs (removed unless --keep), the corpus dir and
// the report (the built server keeps its own compile cache in dist-server/, as on any start).
//
// projects.json: [{ "repo": "owner/name", "commit": "<40 hex>", "path": "<the pb_migrations folder
// in the repository>", "note": "…", "expect": "fails-on-0.22", "reason": "…" }] (note, expect and
// reason optional; expect defaults to applies-on-0.22). One line per project:
//   owner/name@commit files=N applied=ok|FAIL(applied/expected) exit=… collections=N
//   schema=same|DIFF(n: first differences)|n/a ref0.22=ok|FAIL(file: error) [expect=…] first error: …
//
// Usage (from the repository root):
//   node scripts/migrations-corpus/run.mjs [flags]
// Flags:
//   --list FILE      the project list (default scripts/migrations-corpus/projects.json)
//   --corpus DIR     where the extracted folders live (default ../migrations-corpus, i.e. next to
//                    the repository; refused inside it)
//   --mirrors DIR    git mirrors, layout <owner>+<name>/repo (default /work/.mirror)
//   --rebuild        extract every folder again even when the corpus already holds that commit
//   --extract-only   rebuild the corpus and stop (no server run)
//   --only TEXT      only the projects whose "owner/name" contains TEXT (repeatable)
//   --report FILE    the JSON report (default <corpus>/report.json)
//   --timeout SEC    the bound of one project's `migrate up` (default 120)
//   --outpost FILE   the server's CLI (default dist-server/main.mjs; built with `npm run build`
//                    when missing)
//   --keep           keep each project's temp dir (its path is in the report)
//   --verbose        print every schema difference, not only the first few
// Example:
//   node scripts/migrations-corpus/run.mjs --report /work/corpus-report.json
//   node scripts/migrations-corpus/run.mjs --only grimoire --keep --verbose

import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import vm from 'node:vm';
import { extractProject } from '../corpus-source.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const require = createRequire(path.join(repoRoot, 'package.json'));

const { values: flags } = parseArgs({
  options: {
    list: { type: 'string', default: path.join(here, 'projects.json') },
    corpus: { type: 'string', default: path.resolve(repoRoot, '../migrations-corpus') },
    mirrors: { type: 'string', default: '/work/.mirror' },
    rebuild: { type: 'boolean', default: false },
    'extract-only': { type: 'boolean', default: false },
    only: { type: 'string', multiple: true },
    report: { type: 'string' },
    timeout: { type: 'string', default: '120' },
    outpost: { type: 'string', default: path.join(repoRoot, 'dist-server/main.mjs') },
    keep: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
  strict: true,
});

const corpusDir = path.resolve(flags.corpus);
const mirrorsDir = path.resolve(flags.mirrors);
const reportFile = path.resolve(flags.report ?? path.join(corpusDir, 'report.json'));
const timeoutMs = Math.max(1, Number(flags.timeout) || 120) * 1000;
const outpostMain = path.resolve(flags.outpost);

if (isInside(corpusDir, repoRoot)) {
  console.error(`--corpus ${corpusDir} is inside the repository: the projects' files must stay outside it.`);
  process.exit(2);
}

/** 0.22's jsvm loads the regular files of the folder whose names match this (plugins/jsvm). */
const MIGRATION_FILE = /^.*(\.js|\.ts)$/;

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
    console.log(`${path.relative(repoRoot, outpostMain)} is missing: npm run build`);
    const b = spawnSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: 'inherit' });
    if (b.status !== 0 || !fs.existsSync(outpostMain)) throw new Error('the build failed');
  }

  const results = [];
  for (const p of projects) {
    const r = await runProject(p);
    results.push(r);
    console.log(formatLine(r));
    if (flags.verbose && r.schema?.diffs?.length) for (const d of r.schema.diffs) console.log(`    ${d}`);
  }

  const summary = summarize(results);
  console.log(summary.line);
  const report = {
    generated: new Date().toISOString(),
    outpost: outpostMain,
    corpus: corpusDir,
    timeoutSeconds: timeoutMs / 1000,
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
  const identity = { repo: p.repo, commit: p.commit, path: p.path };
  return extractProject({ corpusDir, mirrorsDir, rebuild: flags.rebuild, repo: p.repo, commit: p.commit, identity, parts: [{ tree: p.path, into: '' }] });
}

function migrationFiles(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isFile() && MIGRATION_FILE.test(d.name))
    .map((d) => d.name)
    .sort(goStringLess);
}

/** Go sorts file names by bytes; JS's default sort compares UTF-16 units (same for ASCII names). */
function goStringLess(a, b) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return Buffer.compare(x, y);
}

// ---------------------------------------------------------------------------------------------
// One project

async function runProject(p) {
  const base = {
    repo: p.repo,
    commit: p.commit,
    path: p.path,
    expect: p.expect ?? 'applies-on-0.22',
    reason: p.reason,
    note: p.note,
  };
  if (p.extractError || !p.folder) {
    return { ...base, files: 0, applied: 'FAIL', exit: null, firstError: `corpus: ${p.extractError ?? 'not extracted'}` };
  }
  const files = migrationFiles(p.folder);
  const reference = evaluateReference(p.folder, files);

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-corpus-'));
  const dataDir = path.join(tmp, 'pb_data');
  const migDir = path.join(tmp, 'pb_migrations');
  fs.mkdirSync(dataDir);
  fs.cpSync(p.folder, migDir, { recursive: true });

  const run = await runChild(
    process.execPath,
    [outpostMain, 'migrate', 'up', '--dir', dataDir, '--migrationsDir', migDir],
    { cwd: tmp, timeoutMs },
  );

  // What 0.22 records: every file that registered a migration (a file that never calls
  // migrate() is not recorded). Without a reference load, every matching file.
  const expected = reference.registered ?? files;
  let db = null;
  try {
    db = readOutpostDb(path.join(dataDir, 'data.db'));
  } catch (err) {
    db = { error: firstLine(err?.message ?? String(err)) };
  }
  const appliedSet = new Set(db?.migrations ?? []);
  const appliedFiles = expected.filter((f) => appliedSet.has(f)).length;
  const applied = !run.timedOut && appliedFiles === expected.length && expected.length > 0 ? 'ok' : 'FAIL';

  let schema;
  if (applied !== 'ok') schema = { status: 'n/a', reason: 'not applied on Outpost' };
  else if (!reference.ok) schema = { status: 'n/a', reason: 'the reference (0.22 model) fails' };
  else if (!db?.collections) schema = { status: 'n/a', reason: db?.error ?? 'no data.db' };
  else schema = compareCollections(reference.collections, db.collections);

  if (!flags.keep) fs.rmSync(tmp, { recursive: true, force: true });

  return {
    ...base,
    files: files.length,
    registered: expected.length,
    applied,
    appliedFiles,
    exit: run.timedOut ? 'timeout' : run.signal ? run.signal : run.code,
    ms: run.ms,
    firstError: run.timedOut ? `timed out after ${timeoutMs / 1000} s` : firstErrorLine(run.stderr, run.stdout),
    stderr: tail(run.stderr, 4000),
    collections: db?.collections?.length ?? null,
    reference: {
      ok: reference.ok,
      error: reference.error,
      collections: reference.collections?.length ?? null,
      notes: reference.notes,
    },
    schema,
    tmp: flags.keep ? tmp : undefined,
  };
}

function runChild(cmd, args, { cwd, timeoutMs: limit }) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(cmd, args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const cap = 1 << 20;
    child.stdout.on('data', (b) => {
      if (stdout.length < cap) stdout += b;
    });
    child.stderr.on('data', (b) => {
      if (stderr.length < cap) stderr += b;
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL'); // the child's own process group (detached)
      } catch {
        child.kill('SIGKILL');
      }
    }, limit);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ code: null, signal: null, stdout, stderr: stderr + String(err), timedOut, ms: Date.now() - started });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut, ms: Date.now() - started });
    });
  });
}

function readOutpostDb(file) {
  if (!fs.existsSync(file)) return { error: 'no pb_data/data.db', migrations: [], collections: null };
  const Database = require('better-sqlite3');
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => r.name));
    const migrations = tables.has('_migrations') ? db.prepare('SELECT file FROM _migrations').all().map((r) => r.file) : [];
    const collections = tables.has('_collections')
      ? db
          .prepare('SELECT id, name, type, schema, listRule, viewRule, createRule, updateRule, deleteRule, options FROM _collections')
          .all()
          .map((r) => ({
            id: r.id,
            name: r.name,
            type: r.type,
            fields: parseJson(r.schema, []).map((f) => ({ id: f?.id, name: f?.name, type: f?.type })),
            listRule: r.listRule,
            viewRule: r.viewRule,
            createRule: r.createRule,
            updateRule: r.updateRule,
            deleteRule: r.deleteRule,
            options: parseJson(r.options, {}),
          }))
      : null;
    return { migrations, collections };
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Comparison

const RULES = ['listRule', 'viewRule', 'createRule', 'updateRule', 'deleteRule'];

function compareCollections(refList, outList) {
  const diffs = [];
  const outById = new Map(outList.map((c) => [c.id, c]));
  const outByName = new Map(outList.map((c) => [String(c.name).toLowerCase(), c]));
  const matched = new Set();
  for (const ref of refList) {
    const out = outById.get(ref.id) ?? outByName.get(String(ref.name).toLowerCase());
    if (!out) {
      diffs.push(`missing ${ref.name}`);
      continue;
    }
    matched.add(out);
    const n = ref.name;
    if (out.name !== ref.name) diffs.push(`${n}: name ${q(ref.name)} vs ${q(out.name)}`);
    if (out.type !== ref.type) diffs.push(`${n}: type ${ref.type} vs ${out.type}`);
    if (ref.type !== 'view' && out.type !== 'view') {
      const refFields = new Map(ref.fields.map((f) => [f.name, f.type]));
      const outFields = new Map(out.fields.map((f) => [f.name, f.type]));
      for (const [name, type] of refFields) {
        if (!outFields.has(name)) diffs.push(`${n}: field ${name}:${type} missing`);
        else if (outFields.get(name) !== type) diffs.push(`${n}: field ${name} ${type} vs ${outFields.get(name)}`);
      }
      for (const [name, type] of outFields) if (!refFields.has(name)) diffs.push(`${n}: extra field ${name}:${type}`);
    }
    for (const rule of RULES) {
      const a = ref[rule] ?? null;
      const b = out[rule] ?? null;
      if (a !== b) diffs.push(`${n}: ${rule} ${q(a)} vs ${q(b)}`);
    }
  }
  for (const out of outList) if (!matched.has(out)) diffs.push(`extra ${out.name}`);
  return { status: diffs.length ? 'DIFF' : 'same', diffs };
}

function q(v) {
  return v === null || v === undefined ? 'null' : JSON.stringify(v);
}

// ---------------------------------------------------------------------------------------------
// Reference model of PocketBase 0.22's JS migration API (collections only).
//
// Modelled on 0.22's plugins/jsvm (binds.go), daos/collection.go and models/schema: each file runs
// in a VM of its own; `migrate(up, down)` registers the file; the registrations run in file-name
// order in one transaction (the first throw stops everything). The Dao saves collections the way
// 0.22's Dao does, WITHOUT the API's validation; it keeps only what the SQL layer itself would
// refuse: an unknown collection on find ("sql: no rows in result set"), a second collection with
// the same id or (case-insensitive) name, deleting a system collection or one another collection's
// relation field points to. Views keep no fields (0.22 derives them from the query, which this model
// does not run). Everything else (records, raw SQL, admins, settings, $os, $http, …) is a stub that
// returns something harmless and never throws.

const FIELD_TYPES = new Set(['text', 'number', 'bool', 'email', 'url', 'editor', 'date', 'select', 'json', 'file', 'relation', 'user']);

function evaluateReference(folder, files) {
  const notes = new Set();
  const store = new Map(); // id -> plain collection, insertion order = creation order
  const rnd = (n) => {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const bytes = randomBytes(n);
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[bytes[i] % alphabet.length];
    return s;
  };

  // -- models --------------------------------------------------------------------------------
  const lowerKeys = (obj) => {
    const m = new Map();
    if (obj && typeof obj === 'object') for (const k of Object.keys(obj)) if (!m.has(k.toLowerCase())) m.set(k.toLowerCase(), obj[k]);
    return m; // Go's encoding/json matches keys case-insensitively
  };
  const ruleOf = (v) => (typeof v === 'string' ? v : null);

  class SchemaField {
    constructor(data) {
      const d = lowerKeys(jsonClone(data));
      this.system = Boolean(d.get('system'));
      this.id = typeof d.get('id') === 'string' ? d.get('id') : '';
      this.name = typeof d.get('name') === 'string' ? d.get('name') : '';
      this.type = typeof d.get('type') === 'string' ? d.get('type') : '';
      this.required = Boolean(d.get('required'));
      this.presentable = Boolean(d.get('presentable'));
      this.unique = Boolean(d.get('unique'));
      const o = d.get('options');
      this.options = o && typeof o === 'object' && !Array.isArray(o) ? o : {};
    }
    initOptions() {
      return FIELD_TYPES.has(this.type) ? null : new Error('missing or unknown field field type');
    }
    toJSON() {
      return { system: this.system, id: this.id, name: this.name, type: this.type, required: this.required, presentable: this.presentable, unique: this.unique, options: this.options };
    }
  }

  class Schema {
    constructor(list) {
      this._fields = [];
      if (Array.isArray(list)) {
        // schema.UnmarshalJSON: add every field (replacing by id), then drop unknown types
        for (const f of list) this.addField(f instanceof SchemaField ? f : new SchemaField(f));
        this._fields = this._fields.filter((f) => FIELD_TYPES.has(f.type));
      }
    }
    fields() {
      return this._fields;
    }
    addField(f) {
      if (!(f instanceof SchemaField)) f = new SchemaField(f);
      if (!f.id) f.id = rnd(8);
      const i = this._fields.findIndex((x) => x.id === f.id);
      if (i >= 0) this._fields[i] = f;
      else this._fields.push(f);
    }
    removeField(id) {
      const i = this._fields.findIndex((x) => x.id === id);
      if (i >= 0) this._fields.splice(i, 1);
    }
    getFieldById(id) {
      return this._fields.find((x) => x.id === id) ?? null;
    }
    getFieldByName(name) {
      return this._fields.find((x) => x.name === name) ?? null;
    }
    asMap() {
      return Object.fromEntries(this._fields.map((f) => [f.name, f]));
    }
    clone() {
      return new Schema(jsonClone(this._fields));
    }
    initFieldsOptions() {
      return null;
    }
    validate() {
      return null;
    }
    toJSON() {
      return this._fields.map((f) => f.toJSON());
    }
  }

  class Collection {
    constructor(data) {
      Object.defineProperty(this, '_isNew', { value: true, writable: true, enumerable: false });
      this.id = '';
      this.created = '';
      this.updated = '';
      this.name = '';
      this.type = '';
      this.system = false;
      this.schema = new Schema([]);
      this.indexes = [];
      for (const r of RULES) this[r] = null;
      this.options = {};
      if (data !== undefined && data !== null) applyJson(this, jsonClone(data));
    }
    isNew() {
      return this._isNew;
    }
    markAsNew() {
      this._isNew = true;
    }
    markAsNotNew() {
      this._isNew = false;
    }
    hasId() {
      return Boolean(this.id);
    }
    getId() {
      return this.id;
    }
    setId(id) {
      this.id = id;
    }
    refreshId() {
      this.id = rnd(15);
    }
    isBase() {
      return this.type === 'base';
    }
    isAuth() {
      return this.type === 'auth';
    }
    isView() {
      return this.type === 'view';
    }
    tableName() {
      return '_collections';
    }
    baseOptions() {
      return this.options;
    }
    authOptions() {
      return this.options;
    }
    viewOptions() {
      return this.options;
    }
    setOptions(o) {
      this.options = jsonClone(o) ?? {};
    }
    normalizeOptions() {
      return null;
    }
    toJSON() {
      const out = { id: this.id, created: this.created, updated: this.updated, name: this.name, type: this.type, system: this.system };
      out.schema = this.schema instanceof Schema ? this.schema.toJSON() : this.schema;
      out.indexes = this.indexes;
      for (const r of RULES) out[r] = this[r];
      out.options = this.options;
      return out;
    }
  }

  /** json.Unmarshal(data, collection): only the keys present change; options merge (a Go map). */
  function applyJson(c, data) {
    if (!data || typeof data !== 'object' || Array.isArray(data)) return;
    const d = lowerKeys(data);
    if (d.has('id') && typeof d.get('id') === 'string') c.id = d.get('id');
    if (d.has('name') && typeof d.get('name') === 'string') c.name = d.get('name');
    if (d.has('type') && typeof d.get('type') === 'string') c.type = d.get('type');
    if (d.has('system')) c.system = Boolean(d.get('system'));
    if (d.has('schema')) c.schema = new Schema(d.get('schema'));
    if (d.has('indexes')) c.indexes = Array.isArray(d.get('indexes')) ? d.get('indexes') : [];
    for (const r of RULES) if (d.has(r.toLowerCase())) c[r] = ruleOf(d.get(r.toLowerCase()));
    if (d.has('options')) {
      const o = d.get('options');
      if (o === null) c.options = {};
      else if (typeof o === 'object' && !Array.isArray(o)) c.options = { ...(c.options ?? {}), ...o };
    }
  }

  const plainOf = (c) => {
    const schema = c.schema instanceof Schema ? c.schema : new Schema(Array.isArray(c.schema) ? c.schema : []);
    return {
      id: c.id,
      name: c.name,
      type: c.type,
      system: Boolean(c.system),
      fields: schema.fields().map((f) => ({ id: f.id, name: f.name, type: f.type, options: jsonClone(f.options) ?? {} })),
      schemaJson: jsonClone(schema.toJSON()),
      indexes: jsonClone(c.indexes) ?? [],
      ...Object.fromEntries(RULES.map((r) => [r, ruleOf(c[r])])),
      options: jsonClone(c.options) ?? {},
    };
  };
  const collectionOf = (plain) => {
    const c = new Collection({ ...plain, schema: plain.schemaJson });
    c._isNew = false;
    return c;
  };
  const findPlain = (nameOrId) => {
    const key = String(nameOrId);
    if (store.has(key)) return store.get(key);
    for (const c of store.values()) if (c.name.toLowerCase() === key.toLowerCase()) return c;
    return null;
  };
  const asCollection = (c, what) => {
    if (c instanceof Collection) return c;
    if (c && typeof c === 'object') {
      notes.add(`${what} was given a plain object, not a Collection`);
      return new Collection(c);
    }
    throw new TypeError(`${what}: could not convert ${c} to a Collection`);
  };
  const nameClash = (name, id) => {
    for (const other of store.values()) if (other.id !== id && other.name.toLowerCase() === String(name).toLowerCase()) return other;
    return null;
  };

  // 0.22's init migration: the default "users" auth collection
  {
    const users = new Collection({
      id: '_pb_users_auth_',
      name: 'users',
      type: 'auth',
      schema: [
        { id: 'users_name', name: 'name', type: 'text', options: {} },
        { id: 'users_avatar', name: 'avatar', type: 'file', options: { maxSelect: 1, maxSize: 5242880 } },
      ],
      listRule: 'id = @request.auth.id',
      viewRule: 'id = @request.auth.id',
      createRule: '',
      updateRule: 'id = @request.auth.id',
      deleteRule: 'id = @request.auth.id',
      options: { allowEmailAuth: true, allowOAuth2Auth: true, allowUsernameAuth: true, minPasswordLength: 8, requireEmail: false },
    });
    store.set(users.id, plainOf(users));
  }

  // -- SQL objects the model knows of: collection tables, the views created so far (0.22 creates a
  // view with `CREATE VIEW … AS SELECT * FROM (query)`, which fails when the query names a table or
  // view that does not exist yet), PocketBase's own tables and what raw SQL created.
  const materialized = new Set(); // ids of view collections whose SQL view exists
  const rawTables = new Set();
  const systemTables = ['_collections', '_admins', '_params', '_migrations', '_externalauths', 'sqlite_master', 'sqlite_schema', 'sqlite_sequence'];
  const sqlObjects = () => {
    const names = new Set([...systemTables, ...rawTables]);
    for (const c of store.values()) if (c.type !== 'view' || materialized.has(c.id)) names.add(c.name.toLowerCase());
    return names;
  };
  const missingSources = (plain, objects = sqlObjects()) =>
    viewSources(plain.options?.query).filter((n) => !objects.has(n.toLowerCase()) || n.toLowerCase() === plain.name.toLowerCase());
  const createView = (plain) => {
    const missing = missingSources(plain);
    if (missing.length) throw new Error(`view ${plain.name}: no such table: ${missing[0]} (0.22 runs CREATE VIEW … AS SELECT * FROM (query))`);
    materialized.add(plain.id);
  };
  /** 0.22 re-creates the schema of every other view after a delete ("the collection has a view dependency"). */
  const checkViewsAfterDelete = () => {
    const objects = sqlObjects();
    for (const c of store.values()) {
      if (c.type !== 'view' || !materialized.has(c.id)) continue;
      const missing = missingSources(c, objects);
      if (missing.length) throw new Error(`the collection has a view dependency - view ${c.name}: no such table: ${missing[0]}`);
    }
  };
  const recordRawSql = (sql) => {
    const text = String(sql ?? '');
    notes.add(`raw SQL (db.newQuery) not modelled beyond CREATE/DROP TABLE|VIEW names`);
    if (/\b_collections\b/i.test(text)) notes.add(`${currentFile}: raw SQL on _collections (not modelled)`);
    for (const m of text.matchAll(/\bcreate\s+(?:temp(?:orary)?\s+)?(?:table|view)\s+(?:if\s+not\s+exists\s+)?[`"[]?(\w+)/gi)) rawTables.add(m[1].toLowerCase());
    for (const m of text.matchAll(/\bdrop\s+(?:table|view)\s+(?:if\s+exists\s+)?[`"[]?(\w+)/gi)) rawTables.delete(m[1].toLowerCase());
  };

  // -- the Dao ---------------------------------------------------------------------------------
  const harmlessDb = stubbed({
    newQuery(sql) {
      recordRawSql(sql);
      return harmless();
    },
  });
  const daoMethods = {
    db: () => harmlessDb,
    concurrentDB: () => harmlessDb,
    nonconcurrentDB: () => harmlessDb,
    findCollectionByNameOrId(nameOrId) {
      const p = findPlain(nameOrId);
      if (!p) throw new Error('sql: no rows in result set');
      return collectionOf(p);
    },
    findCollectionsByType(type) {
      return [...store.values()].filter((c) => c.type === type).map(collectionOf);
    },
    isCollectionNameUnique(name, ...excludeIds) {
      if (!name) return false;
      for (const c of store.values()) if (!excludeIds.includes(c.id) && c.name.toLowerCase() === String(name).toLowerCase()) return false;
      return true;
    },
    findCollectionReferences(collection, ...excludeIds) {
      const c = asCollection(collection, 'findCollectionReferences');
      const out = [];
      for (const other of store.values()) {
        if (excludeIds.includes(other.id)) continue;
        if (other.fields.some((f) => f.type === 'relation' && f.options?.collectionId === c.id)) out.push(collectionOf(other));
      }
      return out;
    },
    saveCollection(collection) {
      const c = asCollection(collection, 'saveCollection');
      if (!c._isNew) {
        if (!store.has(c.id)) throw new Error('sql: no rows in result set');
      }
      if (!c.type) c.type = 'base';
      if (c._isNew) {
        if (!c.id) c.id = rnd(15);
        if (store.has(c.id)) throw new Error('UNIQUE constraint failed: _collections.id');
      }
      if (!c.name) throw new Error('a collection without a name (its table cannot be created)');
      const clash = nameClash(c.name, c.id);
      if (clash) throw new Error(`UNIQUE constraint failed: _collections.name (or table ${c.name} already exists; held by ${clash.id})`);
      const plain = plainOf(c);
      if (c.type === 'view') {
        notes.add('views: fields not modelled (0.22 derives them from the query)');
        plain.fields = [];
        materialized.delete(plain.id);
        createView(plain);
      } else materialized.delete(plain.id);
      store.set(c.id, plain);
      c._isNew = false;
      return null;
    },
    deleteCollection(collection) {
      const c = asCollection(collection, 'deleteCollection');
      if (c.system) throw new Error(`system collection "${c.name}" cannot be deleted`);
      const refs = [];
      for (const other of store.values()) {
        if (other.id === c.id) continue;
        if (other.fields.some((f) => f.type === 'relation' && f.options?.collectionId === c.id)) refs.push(other.name);
      }
      if (refs.length) throw new Error(`the collection "${c.name}" has external relation field references (${refs.join(', ')})`);
      store.delete(c.id);
      materialized.delete(c.id);
      checkViewsAfterDelete();
      return null;
    },
    importCollections(list, deleteMissing, afterSync) {
      const arr = list && typeof list === 'object' ? Array.from(list) : [];
      if (arr.length === 0) throw new Error('no collections to import');
      const imported = arr.map((x) => asCollection(x, 'importCollections'));
      const existing = [...store.values()];
      const mappedImported = new Map();
      for (const imp of imported) {
        if (!imp.id) imp.id = rnd(15);
        if (!imp.type) imp.type = 'base';
        const ex = store.get(imp.id);
        if (ex && !deleteMissing) {
          const merged = new Schema(ex.schemaJson);
          for (const f of (imp.schema instanceof Schema ? imp.schema : new Schema(imp.schema)).fields()) merged.addField(f);
          imp.schema = merged;
        }
        mappedImported.set(imp.id, imp);
      }
      if (deleteMissing) {
        for (const ex of existing) {
          if (mappedImported.has(ex.id)) continue;
          if (ex.system) throw new Error(`system collection "${ex.name}" cannot be deleted`);
          store.delete(ex.id);
          materialized.delete(ex.id);
        }
      }
      for (const imp of imported) {
        const clash = nameClash(imp.name, imp.id);
        if (clash) throw new Error(`UNIQUE constraint failed: _collections.name (${imp.name}; held by ${clash.id})`);
        const plain = plainOf(imp);
        if (imp.type === 'view') plain.fields = [];
        store.set(imp.id, plain);
        imp._isNew = false;
      }
      // views last, in list order (0.22: upsert all, sync the tables, then the views)
      for (const imp of imported) {
        if (imp.type !== 'view') {
          materialized.delete(imp.id);
          continue;
        }
        notes.add('views: fields not modelled (0.22 derives them from the query)');
        materialized.delete(imp.id);
        createView(store.get(imp.id));
      }
      if (typeof afterSync === 'function') {
        const err = afterSync(dao, {}, {});
        if (err instanceof Error) throw err;
      }
      return null;
    },
    runInTransaction(fn) {
      if (typeof fn === 'function') {
        const err = fn(dao);
        if (err instanceof Error) throw err;
      }
      return null;
    },
  };
  const dao = stubbed(daoMethods);
  const Dao = function Dao() {
    return dao; // Dao(db) and new Dao(db)
  };
  const app = stubbed({ dao: () => dao, db: () => harmlessDb });

  // -- the VM globals (0.22's baseBinds/dbxBinds/securityBinds/osBinds/… and migrate) ---------
  const registered = []; // { file, up }
  let currentFile = '';
  const security = stubbed({
    randomString: (n) => rnd(Number(n) || 0),
    pseudorandomString: (n) => rnd(Number(n) || 0),
    randomStringWithAlphabet: (n, a) => {
      const alphabet = String(a || 'abc');
      let s = '';
      for (let i = 0; i < (Number(n) || 0); i++) s += alphabet[Math.floor(Math.random() * alphabet.length)];
      return s;
    },
  });
  const osNs = stubbed({ getenv: () => '' });
  const silentConsole = { log() {}, info() {}, warn() {}, error() {}, debug() {}, trace() {} };

  function makeContext(file) {
    const sandbox = {
      migrate(up, down) {
        void down;
        if (registered.some((r) => r.file === file)) {
          notes.add(`${file}: migrate() called twice (0.22 skips the second: the file is already applied)`);
          return;
        }
        registered.push({ file, up: typeof up === 'function' ? up : null });
      },
      Dao,
      Collection,
      Schema,
      SchemaField,
      Record: function Record() {
        return harmless();
      },
      Admin: function Admin() {
        return harmless();
      },
      DynamicModel: function DynamicModel(shape) {
        return jsonClone(shape) ?? {};
      },
      DateTime: function DateTime() {
        return harmless();
      },
      ValidationError: function ValidationError() {
        return harmless();
      },
      MailerMessage: function MailerMessage() {
        return harmless();
      },
      Command: function Command() {
        return harmless();
      },
      RequestInfo: function RequestInfo() {
        return harmless();
      },
      Cookie: function Cookie() {
        return harmless();
      },
      SubscriptionMessage: function SubscriptionMessage() {
        return harmless();
      },
      FormData: function FormData() {
        return harmless();
      },
      arrayOf: () => [],
      sleep: () => undefined,
      readerToString: () => '',
      toString: () => '',
      $dbx: harmless(),
      $security: security,
      $os: osNs,
      $filepath: harmless(),
      $filesystem: harmless(),
      $http: harmless(),
      $mails: harmless(),
      $tokens: harmless(),
      $apis: harmless(),
      console: silentConsole,
      process: { env: {} },
      require: () => harmless(),
    };
    // Not defined in 0.22's migration VMs (hooks only / 0.23+): available here, but noted.
    Object.defineProperty(sandbox, '$app', {
      get() {
        notes.add(`${currentFile || file}: uses $app (not defined in 0.22's migration VMs)`);
        return app;
      },
      enumerable: true,
    });
    Object.defineProperty(sandbox, 'unmarshal', {
      get() {
        notes.add(`${currentFile || file}: uses unmarshal() (not defined in 0.22's migration VMs)`);
        return (data, model) => {
          if (model instanceof Collection) applyJson(model, jsonClone(data));
          else if (model && typeof model === 'object') Object.assign(model, jsonClone(data));
          return null;
        };
      },
      enumerable: true,
    });
    return vm.createContext(sandbox, { name: file });
  }

  // 1. load every file (0.22 loads the whole folder before running anything)
  const contexts = new Map();
  for (const file of files) {
    let code;
    try {
      code = fs.readFileSync(path.join(folder, file), 'utf8');
    } catch (err) {
      return { ok: false, error: { file, stage: 'load', message: firstLine(err.message) }, notes: [...notes] };
    }
    const ctx = makeContext(file);
    contexts.set(file, ctx);
    try {
      currentFile = file;
      new vm.Script(code, { filename: file }).runInContext(ctx, { timeout: 10_000 });
    } catch (err) {
      return { ok: false, error: { file, stage: 'load', message: firstLine(errMessage(err)) }, notes: [...notes] };
    }
  }
  registered.sort((a, b) => goStringLess(a.file, b.file));

  // 2. run the up functions in file-name order; the first throw stops the run
  for (const m of registered) {
    if (!m.up) continue;
    const ctx = contexts.get(m.file);
    currentFile = m.file;
    ctx.__corpus_up = m.up;
    ctx.__corpus_db = harmlessDb;
    try {
      const ret = vm.runInContext('__corpus_up(__corpus_db)', ctx, { timeout: 10_000 });
      if (ret instanceof Error) throw ret;
    } catch (err) {
      return {
        ok: false,
        error: { file: m.file, stage: 'up', message: firstLine(errMessage(err)) },
        registered: registered.map((r) => r.file),
        notes: [...notes],
      };
    }
  }
  const collections = [...store.values()].map((c) => ({
    id: c.id,
    name: c.name,
    type: c.type,
    fields: c.fields.map((f) => ({ id: f.id, name: f.name, type: f.type })),
    ...Object.fromEntries(RULES.map((r) => [r, c[r]])),
  }));
  return { ok: true, registered: registered.map((r) => r.file), collections, notes: [...notes] };
}

/**
 * The tables and views a view query reads (the names after FROM/JOIN that are not table-valued
 * functions or CTEs): a crude scan that may miss names (comma joins) but should not invent any.
 */
function viewSources(query) {
  const q = String(query ?? '')
    .replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, ' ')
    .replace(/'(?:[^']|'')*'/g, "''");
  const ident = String.raw`(?:[A-Za-z_]\w*|\x60[^\x60]+\x60|"[^"]+"|\[[^\]]+\])`;
  const unquote = (n) => n.replace(/^[\x60"[]|[\x60"\]]$/g, '');
  const ctes = new Set();
  for (const m of q.matchAll(new RegExp(String.raw`(?:\bwith\b(?:\s+recursive)?|,)\s*(${ident})\s*(?:\([^)]*\)\s*)?as\s*(?:not\s+)?(?:materialized\s*)?\(`, 'gi'))) ctes.add(unquote(m[1]).toLowerCase());
  const out = [];
  for (const m of q.matchAll(new RegExp(String.raw`\b(?:from|join)\s+(${ident})(?:\s*\.\s*(${ident}))?(\s*\()?`, 'gi'))) {
    if (m[3]) continue; // a table-valued function: json_each(…), pragma_table_info(…)
    const name = unquote(m[2] ?? m[1]);
    if (ctes.has(name.toLowerCase())) continue;
    out.push(name);
  }
  return out;
}

/** An object whose own methods are `methods`; any other property is a harmless stub. */
function stubbed(methods) {
  const extra = new Map();
  return new Proxy(methods, {
    get(target, prop, receiver) {
      if (prop in target) return Reflect.get(target, prop, receiver);
      if (extra.has(prop)) return extra.get(prop);
      if (typeof prop === 'symbol') return undefined;
      if (prop === 'then' || prop === 'toJSON') return undefined;
      const h = harmless();
      extra.set(prop, h);
      return h;
    },
    set(target, prop, value) {
      extra.set(prop, value);
      return true;
    },
  });
}

/** A value that can be called, constructed, read, written, iterated and printed without throwing. */
function harmless() {
  const props = new Map();
  const target = function harmlessStub() {};
  return new Proxy(target, {
    get(t, prop) {
      if (props.has(prop)) return props.get(prop);
      if (prop === Symbol.toPrimitive) return (hint) => (hint === 'number' ? 0 : '');
      if (prop === Symbol.iterator) return function* empty() {};
      if (typeof prop === 'symbol') return undefined;
      if (prop === 'then') return undefined;
      if (prop === 'toJSON') return () => null;
      if (prop === 'toString' || prop === 'valueOf') return () => '';
      if (prop === 'length') return 0;
      if (prop === 'prototype') return t.prototype;
      const child = harmless();
      props.set(prop, child);
      return child;
    },
    set(t, prop, value) {
      props.set(prop, value);
      return true;
    },
    apply() {
      return harmless();
    },
    construct() {
      return harmless();
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Output

function formatLine(r) {
  const schema = !r.schema
    ? 'n/a'
    : r.schema.status === 'DIFF'
      ? `DIFF(${r.schema.diffs.length}: ${r.schema.diffs.slice(0, 3).join('; ')}${r.schema.diffs.length > 3 ? '; …' : ''})`
      : r.schema.status;
  const ref = !r.reference ? 'n/a' : r.reference.ok ? 'ok' : `FAIL(${r.reference.error.file}: ${clip(r.reference.error.message, 120)})`;
  const expect = r.expect && r.expect !== 'applies-on-0.22' ? ` expect=${r.expect}` : '';
  const err = r.applied === 'ok' ? '' : ` first error: ${clip(r.firstError ?? '', 300)}`;
  return `${r.repo}@${r.commit.slice(0, 10)} files=${r.files} applied=${r.applied}${r.applied === 'ok' ? '' : `(${r.appliedFiles ?? 0}/${r.registered ?? r.files})`} exit=${r.exit} collections=${r.collections ?? 'n/a'} schema=${schema} ref0.22=${ref}${expect}${err}`;
}

function summarize(results) {
  const n = results.length;
  const ok = results.filter((r) => r.applied === 'ok').length;
  const expectedFail = results.filter((r) => r.expect === 'fails-on-0.22');
  const shouldApply = results.filter((r) => r.expect !== 'fails-on-0.22');
  const shouldApplyOk = shouldApply.filter((r) => r.applied === 'ok').length;
  const same = results.filter((r) => r.schema?.status === 'same').length;
  const diff = results.filter((r) => r.schema?.status === 'DIFF').length;
  const refFail = results.filter((r) => r.reference && !r.reference.ok).length;
  const files = results.reduce((s, r) => s + (r.files || 0), 0);
  const line =
    `SUMMARY projects=${n} files=${files} applied ok=${ok} FAIL=${n - ok}; ` +
    `expected to apply (0.22 applies them): ${shouldApplyOk}/${shouldApply.length} applied; ` +
    `marked fails-on-0.22: ${expectedFail.length}; reference model fails: ${refFail}; ` +
    `schema same=${same} DIFF=${diff} n/a=${n - same - diff}`;
  return { projects: n, files, appliedOk: ok, appliedFail: n - ok, expectedToApply: shouldApply.length, expectedToApplyOk: shouldApplyOk, markedFailsOn022: expectedFail.length, referenceFails: refFail, schemaSame: same, schemaDiff: diff, line };
}

// ---------------------------------------------------------------------------------------------
// Helpers

function isInside(child, parent) {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function jsonClone(v) {
  if (v === undefined) return undefined;
  try {
    return JSON.parse(JSON.stringify(v));
  } catch {
    return undefined;
  }
}

function parseJson(s, fallback) {
  try {
    const v = JSON.parse(s);
    return v ?? fallback;
  } catch {
    return fallback;
  }
}

function errMessage(err) {
  if (err && typeof err === 'object' && 'message' in err) return `${err.name && err.name !== 'Error' ? `${err.name}: ` : ''}${err.message}`;
  return String(err);
}

function firstLine(s) {
  return String(s ?? '').split('\n').find((l) => l.trim()) ?? '';
}

function firstErrorLine(stderr, stdout) {
  const lines = `${stderr}\n${stdout}`.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.find((l) => /error|fail|refus|panic/i.test(l)) ?? (stderr.trim() ? firstLine(stderr) : '');
}

function tail(s, n) {
  s = String(s ?? '');
  return s.length > n ? `…${s.slice(-n)}` : s;
}

function clip(s, n) {
  s = String(s ?? '').replace(/\s+/g, ' ');
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

main().catch((err) => {
  console.error(err?.stack ?? String(err));
  process.exit(1);
});
