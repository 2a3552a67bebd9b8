// pb_data/types.d.ts (issue 34), as 0.22 writes it: `serve` and `migrate` (the built server in the
// 'server-built' project) write it at start, rewrite it only when it says something else than
// what this version declares (its first line, a timestamp, aside), and put 0.22's reference line
// into an empty hook file. In-process ('server' project only): the file is valid TypeScript for a
// hooks folder and a migration in the style of real ones (tsc --noEmit, without and with
// @types/node), tsc really checks against it, and the contract: every global, namespace member,
// $app / Dao / db / model / route-context member that exists at run time is declared, and every
// declared one exists; every hook Outpost fires has its event type described.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { EVENT_FIELDS, eventTypeOf, refreshTypesFile, TYPES_FILE, typesDeclarations, typesReference } from '../../server/hooks/types-file';
import { FIRED, TAGGED_HOOKS, UNTAGGED_HOOKS } from '../../server/hooks/hook-names';
import { installGlobals } from '../../server/hooks/worker/globals';
import { HookRegistry } from '../../server/hooks/worker/registry';
import { routeContext } from '../../server/hooks/worker/route-context';
import { createDao } from '../../server/migrations/js-dao';
import { Admin, Collection, JsRecord, Schema, SchemaField } from '../../server/migrations/js-models';
import { ApiError, ValidationError } from '../../server/hooks/worker/errors';
import { ROOT, tempDir } from '../helpers/server';
import { runCli, startCliServer } from '../helpers/cli';

const BUILT = !!process.env.OUTPOST_TEST_BUILT_MAIN;
const dirs: string[] = [];
const newDir = (prefix: string) => {
  const d = tempDir(prefix);
  dirs.push(d);
  return d;
};

afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('serve and migrate write pb_data/types.d.ts', () => {
  it('serve writes it at start, with a timestamp line, and leaves it as it is while it says the same', async () => {
    const work = newDir('outpost-types-serve-');
    const file = path.join(work, 'pb_data', TYPES_FILE);
    fs.mkdirSync(path.join(work, 'pb_hooks'));
    fs.writeFileSync(path.join(work, 'pb_hooks', 'empty.pb.js'), '');
    fs.writeFileSync(path.join(work, 'pb_hooks', 'empty.pb.ts'), '');
    fs.writeFileSync(path.join(work, 'pb_hooks', 'kept.pb.js'), '// mine\n');
    let srv = await startCliServer([`--dir=${path.join(work, 'pb_data')}`, '--automigrate=false'], work);
    await srv.stop();
    const first = fs.readFileSync(file, 'utf8');
    expect(first).toMatch(/^\/\/ \d{10}\n/);
    expect(first.slice(first.indexOf('\n') + 1)).toBe(typesDeclarations());
    // 0.22's prependToEmptyFile: empty hook files get the reference line, others are left alone
    for (const name of ['empty.pb.js', 'empty.pb.ts']) expect(fs.readFileSync(path.join(work, 'pb_hooks', name), 'utf8')).toBe('/// <reference path="../pb_data/types.d.ts" />\n\n');
    expect(fs.readFileSync(path.join(work, 'pb_hooks', 'kept.pb.js'), 'utf8')).toBe('// mine\n');

    // the same content: not written again (its timestamp stays)
    const stamp = fs.statSync(file).mtimeMs;
    srv = await startCliServer([`--dir=${path.join(work, 'pb_data')}`, '--automigrate=false'], work);
    await srv.stop();
    expect(fs.readFileSync(file, 'utf8')).toBe(first);
    expect(fs.statSync(file).mtimeMs).toBe(stamp);

    // another content (an older Outpost's, or 0.22's own file): rewritten
    fs.writeFileSync(file, '// 1710682789\n// GENERATED CODE - DO NOT MODIFY BY HAND\n');
    srv = await startCliServer([`--dir=${path.join(work, 'pb_data')}`, '--automigrate=false'], work);
    await srv.stop();
    expect(fs.readFileSync(file, 'utf8').slice(first.indexOf('\n') + 1)).toBe(typesDeclarations());
  });

  it('migrate writes it too (the migration files reference it), and fills an empty hook file', async () => {
    const work = newDir('outpost-types-migrate-');
    fs.mkdirSync(path.join(work, 'hooks'));
    fs.writeFileSync(path.join(work, 'hooks', 'new.pb.js'), '');
    const res = await runCli(['migrate', 'up', `--dir=${path.join(work, 'pb_data')}`, `--hooksDir=${path.join(work, 'hooks')}`], work);
    expect(res.code, res.stderr).toBe(0);
    expect(fs.readFileSync(path.join(work, 'pb_data', TYPES_FILE), 'utf8')).toContain(typesDeclarations());
    expect(fs.readFileSync(path.join(work, 'hooks', 'new.pb.js'), 'utf8')).toBe('/// <reference path="../pb_data/types.d.ts" />\n\n');
  });
});

/** Runs tsc --noEmit over `dir` (a tsconfig.json in it); its diagnostics as text. */
function tsc(dir: string, options: Record<string, unknown>): { code: number | null; out: string } {
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { noEmit: true, strict: true, target: 'ES2022', allowJs: true, checkJs: true, skipLibCheck: false, ...options }, include: ['pb_hooks', 'pb_migrations'] }),
  );
  const res = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { encoding: 'utf8' });
  return { code: res.status, out: res.stdout + res.stderr };
}

const REF = '/// <reference path="../pb_data/types.d.ts" />\n';

/** A hooks folder and a migration in the style of real 0.22 projects, typed against the file. */
const SAMPLE: Record<string, string> = {
  'pb_hooks/main.pb.ts': `${REF}
const greeting: string = "hello";

routerAdd("GET", "/hello/:name", (c) => {
  const me = c.get("authRecord") as models.Record | null;
  return c.json(200, { message: greeting + " " + c.pathParam("name"), q: c.queryParam("q"), me: me?.email() ?? null });
}, $apis.requireRecordAuth("users"), $apis.activityLogger());

const stamp: echo.MiddlewareFunc = (next) => (c) => {
  c.response().header().set("X-Stamp", "1");
  return next(c);
};
routerAdd("POST", "/notes", (c) => {
  const body: { title?: string } = {};
  c.bind(body);
  const notes = $app.dao().findCollectionByNameOrId("notes");
  const record = new Record(notes, { title: body.title ?? "" });
  $app.dao().runInTransaction((tx) => {
    tx.saveRecord(record);
  });
  const rows = arrayOf(new DynamicModel({ id: "", total: 0 }));
  $app.dao().db().newQuery("SELECT id, 1 AS total FROM notes WHERE title = {:t}").bind({ t: record.getString("title") }).all(rows);
  return c.json(200, { id: record.id, rows: rows.length, key: $security.randomString(8), env: $os.getenv("HOME"), at: $filepath.join(__hooks, "x") });
}, stamp);

onRecordBeforeCreateRequest((e) => {
  const title = e.record.get("title") as string;
  if (title === "stop") return false;
  if (title.startsWith("bad")) throw new BadRequestError("Invalid title", { title: new ValidationError("invalid_title", "Bad words") });
  e.record.set("title", title.trim() + " (" + e.collection.name + ")");
}, "notes");

onRecordAfterCreateRequest(async (e) => {
  $app.store().set("last", e.record.id);
  await Promise.resolve(e.httpContext.realIP());
}, "notes");

onRecordsListRequest((e) => {
  console.log(e.result.totalItems, e.records.length);
});

onModelAfterUpdate((e) => {
  if (e.model.getString("title") === "x") e.dao.saveRecord(e.model);
}, "notes");

onAfterBootstrap((e) => {
  $app.store().set("dataDir", e.app.dataDir());
});

cronAdd("tick", "*/5 * * * *", () => {
  const admins: number = $app.dao().totalAdmins();
  if (admins < 0) throw new NotFoundError();
});
`,
  'pb_hooks/plain.pb.js': `${REF}
// @ts-check
routerAdd("GET", "/plain", (c) => c.string(200, $app.settings().meta?.appName ?? ""));
onRecordAfterDeleteRequest((e) => { $app.store().remove(e.record.id); }, "notes", "other");
`,
  'pb_migrations/1700000000_init.js': `${REF}
migrate((db) => {
  const collection = new Collection({ name: "notes", type: "base", schema: [{ name: "title", type: "text" }] });
  collection.schema.addField(new SchemaField({ name: "body", type: "editor" }));
  return Dao(db).saveCollection(collection);
}, (db) => {
  const dao = new Dao(db);
  return dao.deleteCollection(dao.findCollectionByNameOrId("notes"));
});
`,
};

function writeSample(extra: Record<string, string> = {}): string {
  const dir = newDir('outpost-types-tsc-');
  refreshTypesFile(path.join(dir, 'pb_data'));
  for (const [name, text] of Object.entries({ ...SAMPLE, ...extra })) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe.skipIf(BUILT)('the types file is valid TypeScript for hooks and migrations', () => {
  it('tsc --noEmit passes over a hooks folder and a migration (no node types, strict)', () => {
    const res = tsc(writeSample(), { lib: ['ES2022'], types: [] });
    expect(res.out).toBe('');
    expect(res.code).toBe(0);
  }, 60_000);

  it('and beside @types/node (require, process, Buffer), with which it declares nothing twice', () => {
    const dir = writeSample({ 'pb_hooks/node.pb.ts': `${REF}\nconst os = require("node:os") as { hostname(): string };\nrouterAdd("GET", "/host", (c) => c.json(200, { host: os.hostname(), pid: process.pid, b: Buffer.from("x").length }));\n` });
    const res = tsc(dir, { lib: ['ES2022', 'DOM'], types: ['node'], typeRoots: [path.join(ROOT, 'node_modules', '@types')] });
    expect(res.out).toBe('');
    expect(res.code).toBe(0);
  }, 60_000);

  it('tsc really checks against it: an undeclared member, a wrong argument, an unfired hook', () => {
    const dir = writeSample({
      'pb_hooks/wrong.pb.ts': `${REF}\n$security.noSuchFunction();\nnew Record().noSuchMethod();\ncronAdd("x", 5, () => {});\n`,
    });
    const res = tsc(dir, { lib: ['ES2022'], types: [] });
    expect(res.code).not.toBe(0);
    expect(res.out).toContain("Property 'noSuchFunction' does not exist");
    expect(res.out).toContain("Property 'noSuchMethod' does not exist");
    expect(res.out).toContain("Argument of type 'number' is not assignable to parameter of type 'string'");
    expect(res.out.match(/error TS/g)).toHaveLength(3);
    // a hook Outpost does not fire would be marked deprecated, with the reason: every one fires now
    const unfired = [...UNTAGGED_HOOKS, ...TAGGED_HOOKS].filter((h) => !FIRED.has(h));
    expect(unfired).toEqual([]);
    expect(typesDeclarations()).not.toContain('@deprecated Outpost does not fire');
  }, 60_000);

  it('is small and quick to keep up to date at every start', () => {
    const dir = newDir('outpost-types-time-');
    expect(refreshTypesFile(dir)).toBe(true);
    const t0 = performance.now();
    for (let i = 0; i < 20; i++) expect(refreshTypesFile(dir)).toBe(false);
    const perStart = (performance.now() - t0) / 20;
    expect(perStart).toBeLessThan(20);
    expect(Buffer.byteLength(typesDeclarations())).toBeLessThan(64 * 1024);
  });

  it('the reference line is the types file seen from the hooks folder, wherever each is', () => {
    expect(typesReference('/p/pb_hooks', '/p/pb_data')).toBe('/// <reference path="../pb_data/types.d.ts" />\n\n');
    expect(typesReference('/p/pb_hooks', '/srv/data')).toBe('/// <reference path="../../srv/data/types.d.ts" />\n\n');
  });
});

/** Names a run-time object answers to: own keys (a Proxy's target's), then its prototypes' up to Object's or Error's. */
function membersOf(value: object, skip: string[] = []): string[] {
  const names = new Set<string>(Object.keys(value));
  for (let p = Object.getPrototypeOf(value); p && p !== Object.prototype && p !== Error.prototype && p !== Function.prototype; p = Object.getPrototypeOf(p)) {
    for (const n of Object.getOwnPropertyNames(p)) if (n !== 'constructor') names.add(n);
  }
  return [...names].filter((n) => !skip.includes(n)).sort();
}

/** The declared members of each expression's type, by compiling them against the types file. */
function declaredMembers(expressions: Record<string, string>): { members: Record<string, string[]>; unknownGlobals: (names: string[]) => string[] } {
  const typesPath = '/virtual/pb_data/types.d.ts';
  const probePath = '/virtual/pb_hooks/probe.ts';
  const keys = Object.keys(expressions);
  const probe = [`/// <reference path="../pb_data/types.d.ts" />`, 'declare const c: echo.Context;', ...keys.map((k, i) => `const __probe${i} = ${expressions[k]};`)].join('\n');
  const options: ts.CompilerOptions = { noEmit: true, strict: true, target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [] };
  const host = ts.createCompilerHost(options);
  const files: Record<string, string> = { [typesPath]: `// 0\n${typesDeclarations()}`, [probePath]: probe };
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang) => (name in files ? ts.createSourceFile(name, files[name], lang) : getSourceFile(name, lang));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name in files || fileExists(name);
  const program = ts.createProgram([probePath], options, host);
  const checker = program.getTypeChecker();
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  expect(diagnostics).toEqual([]);
  const source = program.getSourceFile(probePath)!;
  const members: Record<string, string[]> = {};
  source.forEachChild((node) => {
    if (!ts.isVariableStatement(node)) return;
    const decl = node.declarationList.declarations[0];
    const at = /^__probe(\d+)$/.exec(decl.name.getText(source));
    if (!at) return;
    members[keys[Number(at[1])]] = checker.getPropertiesOfType(checker.getTypeAtLocation(decl.name)).map((p) => p.name).sort();
  });
  const globals = new Set(checker.getSymbolsInScope(source, ts.SymbolFlags.Value).map((s) => s.name));
  return { members, unknownGlobals: (names) => names.filter((n) => !globals.has(n)) };
}

describe.skipIf(BUILT)('contract: what runs is what the types file declares', () => {
  const g: Record<string, unknown> = {};
  installGlobals(g, { call: () => null, registry: new HookRegistry(), hooksDir: '/p/pb_hooks', dataDir: '/p/pb_data', dev: false });
  const app = g.$app as { store(): object; db(): { newQuery(sql: string): object }; logger(): object; newMailClient(): object; rootCmd: object };
  const make = (name: string, ...args: unknown[]) => new (g[name] as new (...a: unknown[]) => object)(...args);
  const c = routeContext({ method: 'GET', url: '/x?a=1', path: '/x', params: {}, query: {}, headers: {}, body: null, remoteIp: '127.0.0.1', realIp: '127.0.0.1', admin: null, authRecord: null });

  // run-time object, the expression whose type declares it, and members that are Outpost's own plumbing
  const surfaces: Array<{ name: string; expr: string; runtime: string[]; exact: boolean }> = [
    ...Object.keys(g)
      .filter((k) => k.startsWith('$') && typeof g[k] === 'object')
      .map((k) => ({ name: k, expr: k, runtime: membersOf(g[k] as object), exact: true })),
    { name: '$app.store()', expr: '$app.store()', runtime: membersOf(app.store()), exact: true },
    { name: '$app.db()', expr: '$app.db()', runtime: membersOf(app.db()), exact: true },
    { name: 'db.newQuery()', expr: '$app.db().newQuery("")', runtime: membersOf(app.db().newQuery('')), exact: true },
    // the executor's Dao forwards every name to the main thread's (a migration's) Dao
    { name: 'Dao', expr: '$app.dao()', runtime: membersOf(createDao({} as never, {} as never)), exact: true },
    { name: 'Record', expr: 'new Record()', runtime: membersOf(new JsRecord()), exact: true },
    { name: 'Collection', expr: 'new Collection()', runtime: membersOf(new Collection()), exact: true },
    { name: 'Admin', expr: 'new Admin()', runtime: membersOf(new Admin()), exact: true },
    { name: 'Schema', expr: 'new Schema()', runtime: membersOf(new Schema()), exact: true },
    { name: 'SchemaField', expr: 'new SchemaField()', runtime: membersOf(new SchemaField()), exact: true },
    { name: 'c (route context)', expr: 'c', runtime: membersOf(c, ['written']), exact: true },
    { name: 'c.request()', expr: 'c.request()', runtime: membersOf((c.request as () => object)()), exact: true },
    { name: 'c.response()', expr: 'c.response()', runtime: membersOf((c.response as () => object)()), exact: true },
    { name: '$app.logger()', expr: '$app.logger()', runtime: membersOf(app.logger()), exact: true },
    { name: '$app.newMailClient()', expr: '$app.newMailClient()', runtime: membersOf(app.newMailClient()), exact: true },
    { name: '$app.rootCmd', expr: '$app.rootCmd', runtime: membersOf(app.rootCmd), exact: true },
    { name: '$os.cmd()', expr: '$os.cmd("true")', runtime: membersOf((g.$os as { cmd(n: string): object }).cmd('true')), exact: true },
    { name: 'MailerMessage', expr: 'new MailerMessage()', runtime: membersOf(make('MailerMessage')), exact: true },
    { name: 'DateTime', expr: 'new DateTime()', runtime: membersOf(make('DateTime')), exact: true },
    { name: 'Cookie', expr: 'new Cookie()', runtime: membersOf(make('Cookie')), exact: true },
    { name: 'Command', expr: 'new Command()', runtime: membersOf(make('Command')), exact: true },
    // Error's own members (message, stack, name, cause) come from the lib
    { name: 'ApiError', expr: 'new ApiError()', runtime: membersOf(new ApiError(), ['name', 'message', 'stack']), exact: false },
    { name: 'ValidationError', expr: 'new ValidationError()', runtime: membersOf(new ValidationError(), ['name', 'message', 'stack']), exact: false },
  ];
  const { members, unknownGlobals } = declaredMembers(Object.fromEntries(surfaces.map((s) => [s.name, s.expr])));

  it('every global a hook file gets is declared (in the types file, or by TypeScript\'s ES and DOM libraries)', () => {
    const missing = unknownGlobals(Object.keys(g));
    expect(missing, `declare these globals in server/hooks/types-static.ts: ${missing.join(', ')}`).toEqual([]);
  });

  it.each(surfaces.map((s) => [s.name, s] as const))('%s: its members are declared, and only those', (_name, s) => {
    const declared = members[s.name];
    const undeclared = s.runtime.filter((m) => !declared.includes(m));
    expect(undeclared, `${s.name}: declare these in server/hooks/types-static.ts`).toEqual([]);
    if (s.exact) {
      const absent = declared.filter((m) => !s.runtime.includes(m));
      expect(absent, `${s.name}: declared in server/hooks/types-static.ts but not there at run time`).toEqual([]);
    }
  });

  it('every hook is declared with its event type; a hook Outpost fires has its event described', () => {
    const text = typesDeclarations();
    for (const name of [...TAGGED_HOOKS, ...UNTAGGED_HOOKS]) {
      const tags = TAGGED_HOOKS.includes(name) ? ', ...tags: string[]' : '';
      expect(text).toContain(`declare function ${name}(handler: (e: core.${eventTypeOf(name)}) => any${tags}): void;`);
    }
    const undescribed = [...FIRED].filter((h) => EVENT_FIELDS[eventTypeOf(h)] === undefined);
    expect(undescribed, 'describe the event fields of these fired hooks in EVENT_FIELDS (server/hooks/types-file.ts)').toEqual([]);
  });

  it("event types are 0.22's names", () => {
    const expected: Record<string, string> = {
      onRecordBeforeCreateRequest: 'RecordCreateEvent',
      onRecordsListRequest: 'RecordsListEvent',
      onRecordAfterRequestPasswordResetRequest: 'RecordRequestPasswordResetEvent',
      onRecordBeforeAuthWithPasswordRequest: 'RecordAuthWithPasswordEvent',
      onAdminAfterAuthRefreshRequest: 'AdminAuthRefreshEvent',
      onCollectionsBeforeImportRequest: 'CollectionsImportEvent',
      onModelAfterUpdate: 'ModelEvent',
      onMailerBeforeRecordVerificationSend: 'MailerRecordEvent',
      onMailerAfterAdminResetPasswordSend: 'MailerAdminEvent',
      onRealtimeBeforeMessageSend: 'RealtimeMessageEvent',
      onRealtimeConnectRequest: 'RealtimeConnectEvent',
      onAfterBootstrap: 'BootstrapEvent',
      onBeforeApiError: 'ApiErrorEvent',
      onTerminate: 'TerminateEvent',
      onFileDownloadRequest: 'FileDownloadEvent',
      onSettingsListRequest: 'SettingsListEvent',
    };
    for (const [hook, type] of Object.entries(expected)) expect(eventTypeOf(hook), hook).toBe(type);
  });
});
