// Which hook handlers may run on the main thread (server/hooks/inline-analysis.ts): the small,
// self-contained ones of 0.22 projects do; anything that may block, loop, reach $app or a file
// variable, or write a global does not.
import { describe, expect, it } from 'vitest';
import { EVERYTHING, inlineVerdict, shadowedGlobals, strictness, touchedGlobals } from '../../server/hooks/inline-analysis';
import { inlineRunner } from '../../server/hooks/inline-runner';
import type { Manifest } from '../../server/hooks/protocol';

const inline = (source: string) => inlineVerdict(source).inline;

describe('handlers that run on the main thread', () => {
  it.each([
    ['a no-op arrow', '(e) => {}'],
    ['a no-op function', 'function (e) {}'],
    ['an expression body', '(e) => e.record.set("slug", String(e.record.get("title")).toLowerCase().trim().split(" ").join("-"))'],
    ['a derived field', '(e) => { const t = e.record.getString("title"); e.record.set("words", t.split(" ").length) }'],
    ['a validation', '(e) => { if (!e.record.get("title")) throw new BadRequestError("A title is required.", { title: new ValidationError("required", "Missing.") }) }'],
    ['a constructor without new', '(e) => { throw BadRequestError("no") }'],
    ['return false', '(e) => { if (e.record.get("draft")) return false }'],
    ['a response', '(e) => e.httpContext.json(200, { ok: true, at: new Date().toISOString(), n: Math.max(1, 2) })'],
    ['an auth check', '(e) => { const a = e.httpContext.get("authRecord"); if (!a) throw new ForbiddenError() }'],
    ['console', '(e) => { console.log("created", e.record.id) }'],
    ['switch, try and destructuring', '({ record }) => { let n = 0; switch (record.get("kind")) { case "a": n = 1; break; default: n = 2 } try { n += JSON.parse(record.getString("meta")).x } catch (err) { n = -1 } const { a = 1, ...rest } = { a: n }; record.set("n", a + Object.keys(rest).length) }'],
    ['var hoisting', '(e) => { if (e.x) { var v = 1 } e.record.set("v", v) }'],
    ['optional chaining and templates', '(e) => { e.record.set("who", `${e.httpContext?.get("authRecord")?.id ?? "guest"}`) }'],
    ['a member by a literal or a number', '(e) => { const a = e.record.get("list"); const o = { x: 1 }; o["y"] = 2; e.record.set("v", [a[0], a[a.length - 1], o["x"], Math.PI, Number.MAX_SAFE_INTEGER, { [e.record.getString("k")]: 1 }]) }'],
    ['replace and JSON.stringify as they are usually written', '(e) => { e.record.set("s", e.record.getString("t").replace(" ", "-") + JSON.stringify(e.record.get("d"), null)) }'],
    ['its own variables written', '(e) => { const o = {}; o.a = 1; o["b"] = 2; let i = 0; i++; delete o.a; e.record.set("o", o) }'],
  ])('%s', (_, source) => {
    expect(inlineVerdict(source)).toMatchObject({ inline: true });
  });
});

describe('handlers that stay in an executor', () => {
  it.each([
    ['a loop', '(e) => { for (let i = 0; i < 3; i++) {} }', 'ForStatement'],
    ['a while loop', '(e) => { while (true) {} }', 'WhileStatement'],
    ['a for-of loop', '(e) => { for (const x of e.records) {} }', 'ForOfStatement'],
    ['a nested function', '(e) => { e.records.map((r) => r.id) }', 'ArrowFunctionExpression'],
    ['an async handler', 'async (e) => {}', 'async'],
    ['$app', '(e) => { $app.dao().saveRecord(e.record) }', 'dao'],
    ['e.app', '(e) => { e.app.logger().info("x") }', '.app'],
    ['$http', '(e) => { $http.send({ url: "http://x" }) }', '$http'],
    ['sleep', '(e) => { sleep(100) }', 'sleep'],
    ['require', '(e) => { require("./x.js") }', 'require'],
    ['a file variable written', '(e) => { counter++ }', 'writes outside'],
    ['a file variable read', '(e) => { e.record.set("n", counter) }', 'counter'],
    ['a file function', '(e) => { helper(e) }', 'helper'],
    ['a password', '(e) => { e.record.setPassword("x") }', 'setPassword'],
    ['a regular expression', '(e) => { /a+/.test(e.record.get("t")) }', 'regular expression'],
    ['a pattern from text', '(e) => { e.record.getString("t").match("(a+)+$") }', 'match'],
    ['unbounded text', '(e) => { "x".repeat(1e9) }', 'repeat'],
    ['text replaced all over by request text', '(e) => { e.record.set("t", e.record.getString("a").replaceAll("x", e.record.getString("b"))) }', 'replaceAll'],
    ['a list joined by request text', '(e) => { e.record.set("t", e.record.get("tags").join(e.record.getString("sep"))) }', 'joins'],
    ['a computed call', '(e) => { e.record[e.k]() }', 'computed'],
    ['a global written', '(e) => { JSON.stringify = null }', 'writes'],
    ['a global passed around', '(e) => { const o = Object; o.assign = null }', 'passes Object'],
    ['a prototype reached', '(e) => { const p = Object.getPrototypeOf(e) }', 'getPrototypeOf'],
    ['this', 'function (e) { return this.x }', 'ThisExpression'],
    ['a getter defined', '(e) => { e.record.set("o", { get x() { return 1 } }) }', 'getter'],
    ['a class', '(e) => { class A {} }', 'ClassDeclaration'],
    ['a text that is not one function', '(e) => {}; (f) => {}', 'parse'],
    ['a text that is not a function', 'e.record', 'single function'],
    // review: request data that holds the main thread (its text: the client's field values)
    ['a backward search of request text for request text (naive: text times pattern, seconds for 1 MB)', '(e) => { e.record.set("at", e.record.getString("a").lastIndexOf(e.record.getString("b"))) }', 'lastIndexOf'],
    ['request text put in with replace ("$`" a thousand times copies the text before it a thousand times)', '(e) => { e.record.set("body", e.record.getString("template").replace("{name}", e.record.getString("name"))) }', 'replaces'],
    ['an index a request chose (a[4294967294] = x: a sparse list of billions the record copy walks)', '(e) => { const list = e.record.get("list"); list[e.record.getInt("at")] = e.record.get("value"); e.record.set("list", list) }', 'computes'],
    ['a length a request chose', '(e) => { const a = []; a.length = e.record.getInt("n"); e.record.set("x", a.join(",")) }', 'length'],
    ['Object.assign onto a list (a request\'s {"length": 4294967295})', '(e) => { const a = []; Object.assign(a, e.record.get("patch")); e.record.set("a", a) }', 'assigns onto'],
    ['JSON with a list of keys a request sent (its objects times its keys)', '(e) => { e.record.set("x", JSON.stringify(e.record.get("rows"), e.record.get("fields"))) }', 'replacer'],
    ['JSON indented (a deep request value: its lines times their depth)', '(e) => { e.record.set("x", JSON.stringify(e.record.get("data"), null, 2)) }', 'indent'],
    // review: the main thread's shared objects reached with a name a request chose ("__proto__")
    ['a member read by a name a request chose (m["__proto__"] is the main thread Object.prototype)', '(e) => { const m = { a: {}, b: {} }; const entry = m[e.record.getString("kind")]; if (entry) entry.seen = true }', 'computes'],
    ['a member written by names a request chose', '(e) => { const p = {}; p[e.record.getString("s")][e.record.getString("k")] = e.record.get("v") }', 'computes'],
    ['a destructured member a request named', '(e) => { const { [e.record.getString("k")]: p } = {}; p.x = 1 }', 'computes'],
    ['a builtin function passed around (Object.freeze(JSON.parse) freezes the main thread one)', '(e) => { Object.freeze(JSON.parse) }', 'JSON.parse'],
    // review: the runner's console has six methods (console.dir threw "not a function" there, printed in an executor)
    ['console.dir', '(e) => { console.dir(e.record) }', 'console.dir'],
    // review: the main thread's stack is smaller than an executor's (150k arguments overflow one only)
    ['a request list spread into arguments', '(e) => { e.record.set("max", Math.max(...e.record.get("scores"))) }', 'spreads'],
  ])('%s', (_, source, reason) => {
    const verdict = inlineVerdict(source);
    expect(verdict.inline).toBe(false);
    expect(verdict.inline === false && verdict.reason).toContain(reason);
  });

  it('a handler using a global its file declares again (the file variable is what it means)', () => {
    expect(shadowedGlobals('const JSON = { parse: (s) => s }; function f(Math) {}\nonRecordAfterCreateRequest((e) => {})')).toEqual(new Set(['JSON', 'Math']));
    expect(shadowedGlobals('onRecordAfterCreateRequest((e) => {})').size).toBe(0);
    // a file that cannot be read is taken to declare every one of them
    expect(shadowedGlobals('const = ;').has('BadRequestError')).toBe(true);
  });

  it('block scopes: a let of another block is not the handler own variable', () => {
    expect(inline('(e) => { if (e.x) { let v = 1 } e.record.set("v", v) }')).toBe(false);
    expect(inline('(e) => { try {} catch (err) {} err.x = 1 }')).toBe(false);
  });
});

describe('what other hook files change for the executors (review)', () => {
  it.each([
    ['a builtin prototype extended (a handler calls it on any text)', 'String.prototype.capitalize = function () { return this[0].toUpperCase() + this.slice(1) }'],
    ['Array.prototype extended', 'Array.prototype.last = function () { return this[this.length - 1] }'],
    ['a prototype through defineProperty', 'Object.defineProperty(Date.prototype, "fmt", { value() {} })'],
    ['a builtin member written (the server event code calls JSON.stringify)', 'JSON.stringify = (v) => "x"'],
    ['a builtin assigned onto', 'Object.assign(Math, { clamp: 1 })'],
    ['a builtin through a variable', 'const M = Math; M.clamp = 1'],
    ['a prototype through a value', '"".__proto__.x = 1'],
    ['globalThis', 'globalThis.JSON = 1'],
    ['a module that may patch builtins', 'onRecordAfterCreateRequest((e) => { const u = require(`${__hooks}/utils.js`) })'],
    ['a .pb.ts text that imports', 'import x from "y"; const a: number = 1'],
  ])('%s: no handler runs on the main thread', (_, file) => {
    expect(touchedGlobals(file).has(EVERYTHING)).toBe(true);
  });

  it.each([
    ['handlers only', 'onRecordAfterCreateRequest((e) => { e.record.set("a", JSON.stringify(1)) })'],
    ['its own class', 'function Foo() {}\nFoo.prototype.bar = function () {}'],
    ['Node modules', 'const fs = require("fs"); const p = require("node:path")'],
    ['globals passed to a call', 'onBootstrap((e) => { const xs = [1, 0].filter(Boolean).map(String) })'],
    ['a .pb.ts text', 'const a: number = 1; onRecordAfterCreateRequest((e: any) => { e.record.set("a", JSON.stringify(a)) })'],
  ])('%s: they may', (_, file) => {
    expect(touchedGlobals(file).has(EVERYTHING)).toBe(false);
  });

  it('a named function or class expression shadows the global it is named after', () => {
    expect(shadowedGlobals('(function Math() { onRecordAfterCreateRequest((e) => e.record.set("n", Math.max(1, 2))) })()').has('Math')).toBe(true);
    expect(shadowedGlobals('(class JSON { static { onRecordAfterCreateRequest((e) => JSON.parse("1")) } })').has('JSON')).toBe(true);
  });

  it('a strict file: strict; strict in parts: mixed', () => {
    expect(strictness('"use strict";\nonX((e) => {})')).toBe('strict');
    expect(strictness('onX((e) => {})')).toBe('sloppy');
    expect(strictness('function f() { "use strict" }\nonX((e) => {})')).toBe('mixed');
  });
});

describe('the inline runner over hook files (review)', () => {
  const FILE = '/hooks/main.pb.js';
  const runnerOf = (files: Record<string, string>, source: string) => {
    const file = Object.keys(files)[0];
    const manifest: Manifest = { files: Object.keys(files), registrations: [{ kind: 'hook', id: 'h1', name: 'onRecordBeforeCreateRequest', tags: [], source, file }] };
    return inlineRunner(manifest, new Map(Object.entries(files)), () => {});
  };

  it('a handler calling a String.prototype method another file adds stays in the executors', () => {
    const handler = '(e) => { e.record.set("t", e.record.getString("t").capitalize()) }';
    expect(runnerOf({ [FILE]: `onRecordBeforeCreateRequest(${handler})` }, handler).ids.has('h1')).toBe(true);
    expect(runnerOf({ [FILE]: `onRecordBeforeCreateRequest(${handler})`, '/hooks/util.pb.js': 'String.prototype.capitalize = function () { return this.toUpperCase() }' }, handler).ids.has('h1')).toBe(false);
  });

  it('a console line is formatted when the handler writes it (an object changed afterwards prints as it was, as in an executor)', () => {
    const handler = '(e) => { const o = { n: 1 }; console.log("o", o); o.n = 2 }';
    const event = { fields: {}, record: { collection: null, data: { id: 'r1' }, isNew: true } } as unknown as Parameters<ReturnType<typeof inlineRunner>['run']>[2];
    const printed: unknown[][] = [];
    const log = console.log;
    console.log = (...args: unknown[]) => void printed.push(args);
    try {
      expect(runnerOf({ [FILE]: `onRecordBeforeCreateRequest(${handler})` }, handler).run('onRecordBeforeCreateRequest', [], event)?.outcome).toBe('continue');
    } finally {
      console.log = log;
    }
    expect(printed).toEqual([['%s', 'o { n: 1 }']]);
  });

  it('a run dropped for an executor leaves the event wire as it came (the executor reruns it from there)', () => {
    const handler = '(e) => { e.result.totalItems = e.result.totalItems + 1; e.records[0].set("password", "secret-1") }';
    const manifest: Manifest = { files: [FILE], registrations: [{ kind: 'hook', id: 'h1', name: 'onRecordsListRequest', tags: [], source: handler, file: FILE }] };
    const runner = inlineRunner(manifest, new Map([[FILE, `onRecordsListRequest(${handler})`]]), () => {});
    const event = { fields: { result: { page: 1, perPage: 30, totalItems: 1, totalPages: 1 } }, records: [{ collection: null, data: { id: 'r1' }, isNew: false }] } as unknown as Parameters<ReturnType<typeof inlineRunner>['run']>[2];
    expect(runner.ids.has('h1')).toBe(true);
    expect(runner.run('onRecordsListRequest', [], event)).toBeNull();
    expect((event.fields as { result: { totalItems: number } }).result.totalItems).toBe(1);
  });

  it('a run that overflows the main thread stack goes to an executor (whose stack is four times deeper)', () => {
    const handler = '(e) => { e.record.set("copy", e.record.get("deep")) }';
    const deep = JSON.parse('['.repeat(300_000) + ']'.repeat(300_000)) as unknown;
    const event = { fields: {}, record: { collection: null, data: { id: 'r1', deep }, isNew: true } } as unknown as Parameters<ReturnType<typeof inlineRunner>['run']>[2];
    expect(runnerOf({ [FILE]: `onRecordBeforeCreateRequest(${handler})` }, handler).run('onRecordBeforeCreateRequest', [], event)).toBeNull();
  });

  it('a strict file\'s handler runs strict on the main thread too (a property set on a text throws)', () => {
    const handler = '(e) => { const s = "text"; s.x = 1 }';
    const event = { fields: {}, record: { collection: null, data: { id: 'r1' }, isNew: true } } as unknown as Parameters<ReturnType<typeof inlineRunner>['run']>[2];
    const sloppy = runnerOf({ [FILE]: `onRecordBeforeCreateRequest(${handler})` }, handler).run('onRecordBeforeCreateRequest', [], event);
    expect(sloppy?.outcome).toBe('continue');
    const strict = runnerOf({ [FILE]: `"use strict";\nonRecordBeforeCreateRequest(${handler})` }, handler).run('onRecordBeforeCreateRequest', [], event);
    expect(strict?.outcome).toBe('error');
  });
});
