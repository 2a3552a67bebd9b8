// Which hook handlers may run on the main thread (server/hooks/inline-analysis.ts): the small,
// self-contained ones of 0.22 projects do; anything that may block, loop, reach $app or a file
// variable, or write a global does not.
import { describe, expect, it } from 'vitest';
import { inlineVerdict, shadowedGlobals } from '../../server/hooks/inline-analysis';

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
