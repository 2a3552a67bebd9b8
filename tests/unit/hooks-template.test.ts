// `$template` (pb_hooks, 0.22's tools/template over Go's html/template): the engine on its own,
// against Go's behaviour. The escaping cases come from Go's html/template tests (TestEscape,
// TestEscapeSet: input, data, output), run on Outpost's parser and runner; then text/template's
// execution (truth, range over maps in key order, variables, pipelines, the built-in functions),
// 0.22's registry (files, the first one run, later definitions replacing earlier ones unless
// empty, the cache, addFuncs, raw) and Go's error messages.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { templateNamespace } from '../../server/hooks/worker/namespaces/template/index';
import { Safe } from '../../server/hooks/worker/namespaces/template/values';

interface Registry {
  loadString(text: string): { render(data?: unknown): string };
  loadFiles(...files: string[]): { render(data?: unknown): string };
  addFuncs(map: Record<string, unknown>): Registry;
}

const registry = () => templateNamespace() as Registry;
const render = (text: string, data?: unknown) => registry().loadString(text).render(data);
const failure = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected an error');
};

// Go's TestEscape data
const DATA = {
  F: false,
  T: true,
  C: '<Cincinnati>',
  G: '<Goodbye>',
  H: '<Hello>',
  A: ['<a>', '<b>'],
  E: [],
  N: 42,
  U: null,
  W: new Safe('HTML', `&iexcl;<b class="foo">Hello</b>, <textarea>O'World</textarea>!`),
  I: '${ asd `` }',
};

describe('contextual escaping, as Go html/template escapes (cases from its tests)', () => {
  const cases: Array<[string, string, string]> = [
    ['if', '{{if .T}}Hello{{end}}, {{.C}}!', 'Hello, &lt;Cincinnati&gt;!'],
    ['overescaping', 'Hello, {{.C | html}}! {{html .C}}', 'Hello, &lt;Cincinnati&gt;! &lt;Cincinnati&gt;'],
    ['assignment', '{{if $x := .H}}{{$x}}{{end}}', '&lt;Hello&gt;'],
    ['rangeElse', '{{range .E}}{{.}}{{else}}{{.H}}{{end}}', '&lt;Hello&gt;'],
    ['untyped nil', '{{.U}}', ''],
    ['url query constant', `<a href="/search?q={{"'a<b'"}}">`, `<a href="/search?q=%27a%3cb%27">`],
    ['unquoted attr', '<a b=1 c={{.H}}>', '<a b=1 c=&lt;Hello&gt;>'],
    ['url start', `<a href='{{"/foo/bar?a=b&c=d"}}'>`, `<a href='/foo/bar?a=b&amp;c=d'>`],
    ['dangerous url', `<a href='{{"javascript:alert(%22pwned%22)"}}'>`, `<a href='#ZgotmplZ'>`],
    ['mailto', `<a href={{"mailto:Muhammed \\"The Greatest\\" Ali <m.ali@example.com>"}}>`, `<a href=mailto:Muhammed%20%22The%20Greatest%22%20Ali%20%3cm.ali@example.com%3e>`],
    ['url fragment', `<a href='/faq#{{.H}}'>`, `<a href='/faq#%3cHello%3e'>`],
    ['js string value', "<button onclick='alert({{.H}})'>", `<button onclick='alert(&#34;\\u003cHello\\u003e&#34;)'>`],
    ['js number', "<button onclick='alert({{.N}})'>", `<button onclick='alert( 42 )'>`],
    ['js nil', "<button onclick='alert(typeof{{.U}})'>", `<button onclick='alert(typeof null )'>`],
    ['js list in script', '<script>alert({{.A}})</script>', `<script>alert(["\\u003ca\\u003e","\\u003cb\\u003e"])</script>`],
    ['js string literal', "<button onclick='alert(&quot;{{.H}}&quot;)'>", `<button onclick='alert(&quot;\\u003cHello\\u003e&quot;)'>`],
    ['urlquery then js', "<button onclick='alert({{.C | urlquery}})'>", `<button onclick='alert(&#34;%3CCincinnati%3E&#34;)'>`],
    ['js regexp', `<button onclick='alert(/{{"foo+bar"}}/.test(""))'>`, `<button onclick='alert(/foo\\u002bbar/.test(""))'>`],
    ['css expression', `<p style="width: {{"expression(alert(1337))"}}">`, `<p style="width: ZgotmplZ">`],
    ['css string', `<a style="background: '{{"http://oreilly.com/O'Reilly Animals(1)<2>;{}.html"}}'">`, `<a style="background: 'http\\3a\\2f\\2foreilly.com\\2fO\\27Reilly Animals\\28 1\\29\\3c 2\\3e\\3b\\7b\\7d.html'">`],
    ['css url', `<p style="background: url(/img?name={{"O'Reilly Animal(1)<2>.png"}})">`, `<p style="background: url(/img?name=O%27Reilly%20Animal%281%29%3c2%3e.png)">`],
    ['html comment', '<b>Hello, <!-- name of world -->{{.C}}</b>', '<b>Hello, &lt;Cincinnati&gt;</b>'],
    ['stray <', 'a << b <!DOCTYPE html>', 'a &lt;&lt; b <!DOCTYPE html>'],
    ['js line comment', '<script>for (;;) { if (c()) break// foo not a label\nfoo({{.T}});}</script>', '<script>for (;;) { if (c()) break\nfoo( true );}</script>'],
    ['js block comments', '<script>var a/*b*//c\nd</script><script>for (;;) { if (c()) break/* x\n */foo;}</script>', '<script>var a /c\nd</script><script>for (;;) { if (c()) break\nfoo;}</script>'],
    ['special tags in js strings', `<script>var a = "asd <!-- 456 <script jkl </script"</script>`, `<script>var a = "asd \\x3C!-- 456 \\x3Cscript jkl \\x3C/script"</script>`],
    ['css comments', '<style>p// paragraph\n{border: 1px/* color */{{"#00f"}}}</style>', '<style>p\n{border: 1px #00f}</style>'],
    ['comment escaper', "<!--{{.}}--><script>/*{{.}}*///{{.}}\n</script><a onclick='/*{{.}}*///{{.}}'>", "<script> \n</script><a onclick='/**///'>"],
    ['typed HTML', `{{.W}}|<div title="{{.W}}">|<textarea>{{.W}}</textarea>`, `&iexcl;<b class="foo">Hello</b>, <textarea>O'World</textarea>!|<div title="&iexcl;Hello, O&#39;World!">|<textarea>&iexcl;&lt;b class=&#34;foo&#34;&gt;Hello&lt;/b&gt;, &lt;textarea&gt;O&#39;World&lt;/textarea&gt;!</textarea>`],
    ['no tag injection', `{{"10$"}}<{{"script src,evil.org/pwnd.js"}}...`, `10$&lt;script src,evil.org/pwnd.js...`],
    ['optional attrs', `<img class="{{"iconClass"}}"{{if .T}} id="{{"<iconId>"}}"{{end}} src={{if .T}}"?{{"<iconPath>"}}"{{else}}"images/cleardot.gif"{{end}}{{if .T}}title="{{"<title>"}}"{{end}} alt="{{if .T}}{{"<alt>"}}{{else}}{{if .F}}{{"<title>"}}{{end}}{{end}}">`, `<img class="iconClass" id="&lt;iconId&gt;" src="?%3ciconPath%3e"title="&lt;title&gt;" alt="&lt;alt&gt;">`],
    ['dynamic attr names', `<img on{{"load"}}="alert({{"loaded"}})"><input {{"onchange"}}="{{"doEvil()"}}"><input checked {{""}}="x">`, `<img onload="alert(&#34;loaded&#34;)"><input ZgotmplZ="doEvil()"><input checked ZgotmplZ="x">`],
    ['dynamic element names', `<h{{3}}>…</h{{3}}><{{"script"}}>{{"doEvil()"}}</{{"script"}}>`, `<h3>…</h3>&lt;script>doEvil()&lt;/script>`],
    ['srcset', `<img srcset="{{"/not-an-image#,javascript:alert(1)"}}">`, `<img srcset="/not-an-image#,#ZgotmplZ">`],
    ['empty unquoted value', '<p name={{.U}}> <p name="{{.U}}">', '<p name=ZgotmplZ> <p name="">'],
    ['js template literal', '<script>var a = `{{.I}}`; var b = `${ `{{.I}}` }`</script>', '<script>var a = `\\u0024\\u007b asd \\u0060\\u0060 \\u007d`; var b = `${ `\\u0024\\u007b asd \\u0060\\u0060 \\u007d` }`</script>'],
    ['one template, two contexts', `{{define "h"}}{{11}} of {{"<100>"}}{{end}}<button onclick="title='{{template "h"}}'; ...">{{template "h"}}</button>`, `<button onclick="title='11 of \\u003c100\\u003e'; ...">11 of &lt;100&gt;</button>`],
    ['helper ending in another js context', `{{define "h"}}{{126}}{{end}}<script>var x={{template "h"}}/{{"42"}};</script>`, `<script>var x= 126 /"42";</script>`],
  ];
  it.each(cases)('%s', (_name, input, output) => {
    expect(render(input, DATA)).toBe(output);
  });

  it("the corpus projects' contexts: a JS string in a script and in onclick, a URL attribute, text in a title", () => {
    const out = render(`<title>{{.t}}</title><script>const pb = new PocketBase('{{.appUrl}}')</script><button onclick="putDetails('{{.id}}', '{{.col}}')"></button><img src="{{.url}}/a.png">`, {
      t: 'A <b> & "c"',
      appUrl: 'http://127.0.0.1:8090',
      id: "ab'c",
      col: 'student',
      url: 'https://x.dev',
    });
    expect(out).toBe(`<title>A &lt;b&gt; &amp; &#34;c&#34;</title><script>const pb = new PocketBase('http:\\/\\/127.0.0.1:8090')</script><button onclick="putDetails('ab\\u0027c', 'student')"></button><img src="https://x.dev/a.png">`);
  });
});

describe("text/template's execution", () => {
  it('truth, else if, with, range over lists, maps (key order) and ints, break and continue, variables', () => {
    const data = { list: ['a', 'b'], m: { b: 2, a: 1 }, empty: {}, zero: 0, s: '', user: { name: 'Ann' }, n: [1, 2, 3, 4, 5] };
    expect(render('{{if .zero}}x{{else if .s}}y{{else if .empty}}z{{else}}none{{end}}', data)).toBe('none');
    expect(render('{{with .user}}{{.name}}{{end}}|{{with .s}}x{{else}}empty{{end}}', data)).toBe('Ann|empty');
    expect(render('{{range $i, $v := .list}}{{$i}}={{$v}};{{end}}{{range $k, $v := .m}}{{$k}}:{{$v}};{{end}}{{range 3}}{{.}}{{end}}', data)).toBe('0=a;1=b;a:1;b:2;012');
    expect(render('{{range .n}}{{if eq . 2}}{{continue}}{{end}}{{if eq . 4}}{{break}}{{end}}{{.}}{{end}}', data)).toBe('13');
    expect(render('{{$x := 1}}{{if true}}{{$x = 2}}{{$y := 3}}{{end}}{{$x}} {{$}}', 'root')).toBe('2 root');
  });

  it('fields: map keys, methods with arguments, a Go name for a JS one, missing keys empty, nil in the chain an error', () => {
    const record = { getString: (k: string) => `value of ${k}`, id: 'r1' };
    expect(render('{{.r.GetString "title"}} {{.r.Id}} {{.r.id}} [{{.missing}}] [{{.missing.deeper}}]', { r: record })).toBe('value of title r1 r1 [] []');
    expect(failure(() => render('{{.x.y}}', { x: null }))).toBe('template: :1:2: executing "" at <.x.y>: nil pointer evaluating interface {}.y');
    expect(failure(() => render('{{.x.y}}', { x: 'text' }))).toBe('template: :1:2: executing "" at <.x.y>: can\'t evaluate field y in type interface {}');
  });

  it('the built-in functions, with Go\'s results and errors', () => {
    const data = { a: [1, 2, 3], m: { k: 'v' }, s: 'héllo', price: 12.5, n: 42 };
    expect(render('{{len .a}} {{len .s}} {{len .m}} {{index .a 1}} {{index .m "k"}} {{index .s 0}} {{slice .s 1 3}} {{slice .a 1}}', data)).toBe('3 6 1 2 v 104 é [2 3]');
    expect(render('{{and 1 0 2}} {{or 0 "" "z"}} {{not .a}} {{eq 1 2 3 1}} {{ne "a" "b"}} {{lt 1 2}} {{le 2 2}} {{gt "b" "a"}} {{ge 1 2}}', data)).toBe('0 z false true true true true true false');
    expect(render(`{{printf "%.2f|%5d|%-4s|%q|%x|%t|%v|%05.1f|%+d" .price .n "hi" "hi" 255 true .a 3.14159 5}}`, data)).toBe('12.50|   42|hi  |&#34;hi&#34;|ff|true|[1 2 3]|003.1|&#43;5');
    expect(render(`{{printf "%d %s" "x"}} {{print 1 2 "a" "b" 3}} {{println "x" 1}}`, data)).toBe('%!d(string=x) %!s(MISSING) 1 2ab3 x 1\n');
    expect(render('{{html "<a>"}} {{js "it\'s <b>"}} {{urlquery "a b&c"}} {{"x" | printf "%s-%s" "y"}}', data)).toBe("&lt;a&gt; it\\&#39;s \\u003Cb\\u003E a&#43;b%26c y-x");
    expect(render('{{1234567.5}} {{0.00001}} {{100}} {{1.5}}', data)).toBe('1.2345675e&#43;06 1e-05 100 1.5');
    expect(failure(() => render('{{index .a 5}}', data))).toBe('template: :1:2: executing "" at <index .a 5>: error calling index: index out of range: 5');
    expect(failure(() => render('{{lt 1 "a"}}', data))).toBe('template: :1:2: executing "" at <lt 1 "a">: error calling lt: incompatible types for comparison');
    expect(failure(() => render('{{len 3}}', data))).toBe('template: :1:2: executing "" at <len 3>: error calling len: len of type int64');
    expect(failure(() => render('{{not 1 2}}', data))).toBe('template: :1:2: executing "" at <not>: wrong number of args for not: want 1 got 2');
  });

  it('trim markers, comments, raw strings, parenthesized pipelines and chains', () => {
    expect(render('a  {{- /* a comment */ -}}  b {{- 3 -}} c {{`raw\\n`}} {{(len "abc")}} {{(index .m "x").y}}', { m: { x: { y: 'deep' } } })).toBe('ab3c raw\\n 3 deep');
  });

  it("parse errors as Go's parser words them", () => {
    expect(failure(() => render('{{foo}}'))).toBe('template: :1: function "foo" not defined');
    expect(failure(() => render('{{if}}'))).toBe('template: :1: missing value for if');
    expect(failure(() => render('x\n{{end}}'))).toBe('template: :2: unexpected {{end}}');
    expect(failure(() => render('{{if .x}}\n'))).toBe('template: :2: unexpected EOF');
    expect(failure(() => render('{{$x}}'))).toBe('template: :1: undefined variable "$x"');
    expect(failure(() => render('{{break}}'))).toBe('template: :1: {{break}} outside {{range}}');
    expect(failure(() => render('{{.a'))).toBe('template: :1: unclosed action');
    expect(failure(() => render('{{template "nope"}}'))).toBe('html/template::1:11: no such template "nope"');
    expect(failure(() => render('<script>foo();'))).toMatch(/^html\/template:: ends in a non-text context: \{stateJS /);
  });
});

describe("0.22's registry: loadFiles, loadString, addFuncs, raw", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-template-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    fs.writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  };

  it('runs the first file; blocks take the later definitions, an empty one keeps the earlier; the set is cached', () => {
    const layout = file('layout.html', '<title>{{block "title" .}}Default{{end}}</title><main>{{block "body" .}}{{end}}</main>{{template "footer" .}}');
    const page = file('page.html', '{{define "body"}}<p>{{.name}}</p>{{end}}{{define "footer"}}<footer>{{.year}}</footer>{{end}}{{define "title"}}{{end}}');
    const r = registry();
    const renderer = r.loadFiles(layout, page);
    expect(renderer.render({ name: 'A & B', year: 2024 })).toBe('<title>Default</title><main><p>A &amp; B</p></main><footer>2024</footer>');
    expect(r.loadFiles(layout, page)).toBe(renderer);
    const titled = file('titled.html', '{{define "title"}}{{.name}} | site{{end}}{{define "footer"}}{{end}}');
    expect(r.loadFiles(layout, page, titled).render({ name: 'Page' })).toBe('<title>Page | site</title><main><p>Page</p></main><footer></footer>');
  });

  it('a missing file and a parse error fail as Go fails, on every render', () => {
    const missing = path.join(dir, 'nope.html');
    const r = registry();
    expect(failure(() => r.loadFiles(missing).render({}))).toBe(`open ${missing}: no such file or directory`);
    const bad = file('bad.html', '<p>\n{{if .x}}\n');
    expect(failure(() => r.loadFiles(bad).render({}))).toBe('template: bad.html:3: unexpected EOF');
    expect(failure(() => r.loadFiles(bad).render({}))).toBe('template: bad.html:3: unexpected EOF');
    const exec = file('exec.html', '<p>\n  {{index .a 9}}</p>');
    expect(failure(() => r.loadFiles(exec).render({ a: [] }))).toBe('template: exec.html:2:4: executing "exec.html" at <index .a 9>: error calling index: index out of range: 9');
  });

  it('addFuncs adds functions for what is parsed after it; raw writes HTML as is', () => {
    const r = registry();
    expect(failure(() => r.loadString('{{upper .}}').render('x'))).toBe('template: :1: function "upper" not defined');
    expect(r.addFuncs({ upper: (s: string) => s.toUpperCase(), fail: () => { throw new Error('nope'); } })).toBe(r);
    expect(r.loadString('{{upper .}}!').render('<x>')).toBe('&lt;X&gt;!');
    expect(r.loadString('{{. | upper | raw}}').render('<b>x</b>')).toBe('<B>X</B>');
    expect(failure(() => r.loadString('{{fail}}').render())).toBe('template: :1:2: executing "" at <fail>: error calling fail: nope');
  });
});
