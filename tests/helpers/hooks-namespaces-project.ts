// A pb_hooks folder (our own) whose routes exercise 0.22's namespaces from a handler: $http.send
// (to a server of the test, to a slow one, to the same Outpost), FormData, mail through
// $app.newMailClient(), $security's JWTs and AES, $os (files, folders, commands), $filepath,
// $dbx with findRecordsByExpr, DateTime and Cookie, and the calls that stay unsupported.
export const NAMESPACE_HOOK_FILES: Record<string, string> = {
  'namespaces.pb.js': `/// <reference path="../pb_data/types.d.ts" />
routerAdd("GET", "/ns/hello", (c) => c.json(200, { hello: "world" }));

const attempt = (fn) => { try { return { value: fn() }; } catch (e) { return { error: String(e.message || e) }; } };

routerAdd("GET", "/ns/http", (c) => {
  const base = c.queryParam("base");
  const pick = (r) => ({ statusCode: r.statusCode, headers: r.headers, cookies: Object.keys(r.cookies), json: r.json, raw: r.raw });
  const errorStatus = $http.send({ url: base + "/echo?status=400" });
  const basic = $http.send({ method: "post", url: base + "/echo", headers: { header1: "123", header2: "456" }, body: "789" });
  const typed = $http.send({ url: base + "/echo", headers: { "content-type": "text/plain" } });
  const form = new FormData();
  form.append("title", "123");
  form.append("tags", "a");
  form.append("tags", "b");
  const multipart = $http.send({ method: "POST", url: base + "/echo", body: form, headers: { "content-type": "text/plain" } });
  const legacy = $http.send({ method: "PUT", url: base + "/echo", data: { b: 2, a: "<x>" } });
  const redirected = $http.send({ method: "POST", url: base + "/redirect", body: "dropped" });
  const gzip = $http.send({ url: base + "/gzip" });
  const timeout = attempt(() => $http.send({ url: base + "/slow?ms=3000", timeout: 1 }));
  const refused = attempt(() => $http.send({ url: "http://127.0.0.1:1/x" }));
  const scheme = attempt(() => $http.send({ url: "ftp://127.0.0.1/x" }));
  return c.json(200, {
    errorStatus: pick(errorStatus), basic: pick(basic), typed: pick(typed), multipart: pick(multipart), legacy: pick(legacy),
    redirected: pick(redirected), gzip: pick(gzip), timeout, refused, scheme,
    sessionCookie: basic.cookies.sessionId.string(), cookieValue: basic.cookies.sessionId.value,
    form: { keys: form.keys(), values: form.values(), entries: form.entries(), get: form.get("tags"), getAll: form.getAll("tags"), has: form.has("title"), none: form.get("none") },
  });
});

routerAdd("GET", "/ns/http/slow", (c) => {
  const started = Date.now();
  const r = $http.send({ url: c.queryParam("base") + "/slow?ms=2000" });
  return c.json(200, { raw: r.raw, ms: Date.now() - started });
});

// the handler calls its own server: another executor answers, nothing waits on this one
routerAdd("GET", "/ns/http/self", (c) => {
  const r = $http.send({ url: "http://" + c.request().host + "/ns/hello" });
  return c.json(200, { statusCode: r.statusCode, json: r.json });
});

routerAdd("POST", "/ns/mail", (c) => {
  const body = {};
  c.bind(body);
  const message = new MailerMessage({
    from: { address: "hooks@example.com", name: "Hooks" },
    to: [{ address: body.to, name: "Reader" }],
    cc: [{ address: "cc@example.com" }],
    subject: body.subject,
    html: "<p>Hello <b>" + body.name + "</b>, <a href='https://example.com'>link</a></p>",
    headers: { "X-Hook": "yes" },
  });
  $app.newMailClient().send(message);
  return c.json(200, { sent: true });
});

routerAdd("GET", "/ns/security", (c) => {
  const key = "abcdabcdabcdabcdabcdabcdabcdabcd";
  const token = $security.createJWT({ id: "u1", role: "<admin>" }, "secret-key", 60);
  const fixed = $security.createJWT({ exp: 123 }, "test", 0);
  const sample = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0.aXzC7q7z1lX_hxk5P0R368xEU7H1xRwnBQQcLAmG0EY";
  const cipher = $security.encrypt("secret text", key);
  return c.json(200, {
    parsed: $security.parseJWT(token, "secret-key"),
    unverified: $security.parseUnverifiedJWT(sample),
    sample: $security.parseJWT(sample, "test"),
    fixed,
    wrongKey: attempt(() => $security.parseJWT(token, "other-key")),
    expired: attempt(() => $security.parseJWT($security.createJWT({}, "k", -5), "k")),
    cipherIsNew: cipher !== $security.encrypt("secret text", key),
    decrypted: $security.decrypt(cipher, key),
    badKey: attempt(() => $security.decrypt(cipher, "x".repeat(32))),
    shortKey: attempt(() => $security.encrypt("a", "short")),
    sha256: $security.sha256("abc"),
  });
});

routerAdd("GET", "/ns/os", (c) => {
  const dir = $filepath.join(c.queryParam("dir"), "work");
  $os.mkdirAll($filepath.join(dir, "a", "b"), 0o755);
  $os.writeFile($filepath.join(dir, "a", "one.txt"), "first", 0o644);
  $os.writeFile($filepath.join(dir, "a", "b", "two.txt"), [104, 105], 0o644);
  $os.rename($filepath.join(dir, "a", "one.txt"), $filepath.join(dir, "a", "uno.txt"));
  const listed = $os.readDir($filepath.join(dir, "a")).map((e) => ({ name: e.name(), dir: e.isDir(), size: e.isDir() ? null : e.info().size() }));
  const read = String.fromCharCode(...$os.readFile($filepath.join(dir, "a", "b", "two.txt")));
  const mkdirTwice = attempt(() => $os.mkdir($filepath.join(dir, "a"), 0o755));
  const removeFull = attempt(() => $os.remove($filepath.join(dir, "a")));
  $os.remove($filepath.join(dir, "a", "uno.txt"));
  const missing = attempt(() => $os.readFile($filepath.join(dir, "nope.txt")));
  const out = String.fromCharCode(...$os.cmd("sh", "-c", "echo out; echo err 1>&2").output());
  const combined = String.fromCharCode(...$os.cmd("sh", "-c", "echo out; echo err 1>&2").combinedOutput());
  const cmd = $os.cmd("sh", "-c", "pwd; echo $GREETING");
  cmd.dir = dir;
  cmd.env = ["GREETING=hi"];
  const withDirEnv = String.fromCharCode(...cmd.output());
  const failed = attempt(() => $os.cmd("sh", "-c", "exit 3").run());
  const notFound = attempt(() => $os.exec("outpost-no-such-command").output());
  const exit = attempt(() => $os.exit(1));
  $os.removeAll(dir);
  return c.json(200, {
    listed, read, mkdirTwice, removeFull, missing, out, combined, withDirEnv, failed, notFound, exit,
    gone: attempt(() => $os.readDir(dir)), tempDir: typeof $os.tempDir(), env: $os.getenv("HOME") !== "",
  });
});

routerAdd("GET", "/ns/filepath", (c) => {
  const root = $filepath.join(c.queryParam("dir"), "tree");
  $os.mkdirAll($filepath.join(root, "x", "y"), 0o755);
  for (const f of ["a.js", "b.txt", "x/c.js", "x/y/d.js"]) $os.writeFile($filepath.join(root, f), "1", 0o644);
  const walked = [];
  $filepath.walk(root, (p, info, err) => { walked.push($filepath.rel(root, p) + (info.isDir() ? "/" : "")); });
  const walkedDir = [];
  $filepath.walkDir(root, (p, d, err) => { walkedDir.push($filepath.rel(root, p) + (d.isDir() ? "/" : "")); });
  const stopped = attempt(() => $filepath.walk(root, (p) => (p.endsWith("b.txt") ? new Error("stop here") : undefined)));
  const globbed = $filepath.glob($filepath.join(root, "*", "*.js")).map((p) => $filepath.rel(root, p));
  $os.removeAll(root);
  return c.json(200, {
    walked, walkedDir, stopped, globbed,
    clean: [$filepath.clean(""), $filepath.clean("a/../../b/./c/"), $filepath.clean("//x//")],
    base: [$filepath.base(""), $filepath.base("/"), $filepath.base("a/b/")],
    dir: [$filepath.dir("a/b/c"), $filepath.dir("")],
    ext: [$filepath.ext(".bashrc"), $filepath.ext("a/b.tar.gz")],
    join: [$filepath.join("a", "", "../b"), $filepath.join()],
    split: $filepath.split("a/b/c.txt"),
    splitList: [$filepath.splitList(""), $filepath.splitList("/a:/b")],
    rel: [$filepath.rel("/a/b", "/a/c/d"), attempt(() => $filepath.rel("/a", "b"))],
    match: [$filepath.match("*.js", "a.js"), $filepath.match("*.js", "x/a.js"), $filepath.match("[a-c]?", "bz"), attempt(() => $filepath.match("[", "a"))],
    isAbs: [$filepath.isAbs("/a"), $filepath.isAbs("a")],
  });
});

routerAdd("GET", "/ns/dbx", (c) => {
  const built = (e) => { const p = {}; return [e.build(null, p), p]; };
  const titles = (list) => list.map((r) => r.get("title")).sort();
  return c.json(200, {
    built: [
      built($dbx.hashExp({ a: 1, b: null, c: [1, 2, 3] })),
      built($dbx.and($dbx.exp("a = 1"), $dbx.or($dbx.exp("b = {:b}", { b: 2 }), $dbx.not($dbx.exp("c = 3"))))),
      built($dbx.like("a", "x%y").match(false, true)),
      built($dbx.notBetween("n", 1, 2)),
      built($dbx.in("a")),
    ],
    byHash: titles($app.dao().findRecordsByExpr("dbx_items", $dbx.hashExp({ kind: "fruit" }))),
    byTwo: titles($app.dao().findRecordsByExpr("dbx_items", $dbx.hashExp({ kind: "fruit" }), $dbx.exp("LOWER(title) LIKE {:t}", { t: "a%" }))),
    byLike: titles($app.dao().findRecordsByExpr("dbx_items", $dbx.orLike("title", "rot", "ana"))),
    byIn: titles($app.dao().findRecordsByExpr("dbx_items", $dbx.in("title", "apple", "carrot"), null)),
    byBetween: titles($app.dao().findRecordsByExpr("dbx_items", $dbx.between("qty", 2, 3))),
    all: titles($app.dao().findRecordsByExpr("dbx_items")),
    injection: titles($app.dao().findRecordsByExpr("dbx_items", $dbx.hashExp({ title: "x' OR 1=1 --" }))),
    isRecord: $app.dao().findRecordsByExpr("dbx_items", $dbx.hashExp({ title: "apple" }))[0].collection().name,
  });
});

routerAdd("GET", "/ns/values", (c) => {
  const dt = new DateTime("2023-01-01 00:00:00.000Z");
  const cookie = new Cookie({ name: "example_name", value: "example_value", path: "/example_path", domain: "example.com", maxAge: 10, secure: true, httpOnly: true, sameSite: 3 });
  return c.json(200, {
    string: dt.string(), unix: dt.unix(), timeUnix: dt.time().unix(), isZero: dt.isZero(), nowIsZero: new DateTime().isZero(),
    zero: [new DateTime("not a date").isZero(), new DateTime("not a date").string()],
    parsed: new DateTime("2024-05-06T07:08:09Z").string(),
    cookie: cookie.string(),
    spaced: new Cookie({ name: "n", value: "a b", maxAge: -1 }).string(),
  });
});

routerAdd("GET", "/ns/unsupported", (c) => c.json(200, {
  dirFS: attempt(() => $os.dirFS("/")),
  start: attempt(() => $os.cmd("true").start()),
  template: attempt(() => $template.loadFS(null, "*.html")),
}));
`,
};
