// A pb_hooks folder (our own) whose routes and commands use the rest of 0.22's namespaces:
// $filesystem files on a record's file field (saved by the Dao, in and out of a transaction, or by
// a form), $tokens for records and admins, RecordUpsertForm and RecordPasswordLoginForm,
// $apis.recordAuthResponse and enrichRecord, dbx's select() builder and Dao.recordQuery, and two
// custom commands. Collections (made by the test): docs {title text required max 20, attachment
// file single}, vault {secret file protected, signed-in viewers}, items {title, kind, qty}, people {name},
// posts {title, author relation → people}.
export const MORE_HOOK_FILES: Record<string, string> = {
  'more.pb.js': `/// <reference path="../pb_data/types.d.ts" />
const attempt = (fn) => { try { return { value: fn() }; } catch (e) { return { error: String(e.message || e) }; } };

// a file on a record's file field, stored by the Dao as an API upload is
routerAdd("POST", "/more/files", (c) => {
  const body = $apis.requestInfo(c).data;
  const record = new Record($app.dao().findCollectionByNameOrId("docs"));
  record.set("title", body.title);
  const file = body.path ? $filesystem.fileFromPath(body.path) : $filesystem.fileFromBytes(body.text, body.name);
  record.set("attachment", file);
  $app.dao().saveRecord(record);
  return c.json(200, { id: record.id, attachment: record.get("attachment"), name: file.name, originalName: file.originalName, size: file.size, text: readerToString(file.reader.open()) });
});

// a Dao save with files fires the model hooks as any Dao save does
onModelBeforeCreate((e) => {
  if (e.model.get("title") === "hooked") e.model.set("title", "hooked: " + e.model.get("attachment"));
}, "docs");

// another file for the same field: the record keeps the new one, the old one is deleted
routerAdd("POST", "/more/files/:id", (c) => {
  const record = $app.dao().findRecordById("docs", c.pathParam("id"));
  record.set("attachment", $filesystem.fileFromBytes("second version", "second.txt"));
  $app.dao().saveRecord(record);
  return c.json(200, { attachment: record.get("attachment") });
});

// inside a transaction: stored once it commits, never when it rolls back
routerAdd("POST", "/more/files-tx", (c) => {
  const fail = $apis.requestInfo(c).data.fail === true;
  let id = "";
  const r = attempt(() => $app.dao().runInTransaction((tx) => {
    const record = new Record(tx.findCollectionByNameOrId("docs"));
    record.set("title", "in a transaction");
    record.set("attachment", $filesystem.fileFromBytes("transaction content", "in-tx.txt"));
    tx.saveRecord(record);
    id = record.id;
    if (fail) throw new Error("rolled back on purpose");
  }));
  return c.json(200, { id, error: r.error || null });
});

// the 0.22 way: a form's addFiles (validated as an API upload)
routerAdd("POST", "/more/form-files", (c) => {
  const record = new Record($app.dao().findCollectionByNameOrId("docs"));
  const form = new RecordUpsertForm($app, record);
  form.loadData({ title: "with a form" });
  form.addFiles("attachment", $filesystem.fileFromBytes("from the form", "Form File.TXT"));
  form.submit();
  return c.json(200, { id: record.id, attachment: record.get("attachment"), isNew: record.isNew() });
});

// a protected file, served with a file token
routerAdd("POST", "/more/vault", (c) => {
  const record = new Record($app.dao().findCollectionByNameOrId("vault"));
  record.set("secret", $filesystem.fileFromBytes("top secret", "secret.txt"));
  $app.dao().saveRecord(record);
  return c.json(200, { id: record.id, secret: record.get("secret") });
});

routerAdd("GET", "/more/files-misc", (c) => c.json(200, {
  missing: attempt(() => $filesystem.fileFromPath("/nonexistent/outpost/x.txt")),
  empty: attempt(() => $filesystem.fileFromBytes([], "e.txt")),
  sniffed: $filesystem.fileFromBytes('{"a":1}', "data").name,
  fromUrl: attempt(() => { const f = $filesystem.fileFromUrl(c.queryParam("url")); return { name: f.name, originalName: f.originalName, text: readerToString(f.reader.open()) }; }),
  notFound: attempt(() => $filesystem.fileFromUrl(c.queryParam("url") + "-nope")),
}));

routerAdd("GET", "/more/tokens/:id", (c) => {
  const user = $app.dao().findRecordById("users", c.pathParam("id"));
  const admin = $app.dao().findAdminByEmail(c.queryParam("admin"));
  return c.json(200, {
    auth: $tokens.recordAuthToken($app, user),
    verify: $tokens.recordVerifyToken($app, user),
    reset: $tokens.recordResetPasswordToken($app, user),
    changeEmail: $tokens.recordChangeEmailToken($app, user, "changed@example.com"),
    file: $tokens.recordFileToken($app, user),
    adminAuth: $tokens.adminAuthToken($app, admin),
    adminReset: $tokens.adminResetPasswordToken($app, admin),
    adminFile: $tokens.adminFileToken($app, admin),
    notAuth: attempt(() => $tokens.recordAuthToken($app, new Record($app.dao().findCollectionByNameOrId("docs")))),
  });
});

// a form: the API's validation; uncaught, its field errors answer
routerAdd("POST", "/more/form", (c) => {
  const record = new Record($app.dao().findCollectionByNameOrId("docs"));
  const form = new RecordUpsertForm($app, record);
  form.loadData($apis.requestInfo(c).data);
  if (c.queryParam("catch")) {
    try { form.validate(); } catch (e) { return c.json(200, { caught: String(e.message) }); }
  }
  form.submit();
  return c.json(200, { id: record.id, title: record.get("title"), isNew: record.isNew() });
});

// a user made with a form (password, manage access), then signed in as a sign-in answers
routerAdd("POST", "/more/signup", (c) => {
  const data = $apis.requestInfo(c).data;
  const user = new Record($app.dao().findCollectionByNameOrId("users"));
  const form = new RecordUpsertForm($app, user);
  form.setFullManageAccess(true);
  form.loadData({ email: data.email, password: data.password, passwordConfirm: data.password, verified: true, name: data.name });
  form.submit();
  return c.json(200, { id: user.id, username: user.username(), verified: user.verified() });
});

routerAdd("POST", "/more/login", (c) => {
  const data = $apis.requestInfo(c).data;
  const form = new RecordPasswordLoginForm($app, "users");
  form.identity = data.identity;
  form.password = data.password;
  const user = form.submit();
  return $apis.recordAuthResponse($app, c, user, { via: "hook" });
});

onRecordAuthRequest((e) => {
  if (e.httpContext.queryParam("stop")) return false;
  e.meta = Object.assign({}, e.meta, { seen: true });
}, "users");

// the admin, settings and collection forms: the API's validation and save
routerAdd("POST", "/more/admin-form", (c) => {
  const data = $apis.requestInfo(c).data;
  const admin = data.id ? $app.dao().findAdminById(data.id) : new Admin();
  const form = new AdminUpsertForm($app, admin);
  form.email = data.email;
  if (data.password) {
    form.password = data.password;
    form.passwordConfirm = data.password;
  }
  form.submit();
  return c.json(200, { id: admin.id, email: admin.email, isNew: admin.isNew() });
}, $apis.requireAdminAuth());

routerAdd("POST", "/more/settings-form", (c) => {
  const form = new SettingsUpsertForm($app);
  form.meta = Object.assign({}, form.meta, $apis.requestInfo(c).data.meta);
  form.submit();
  return c.json(200, { appName: $app.settings().meta.appName });
}, $apis.requireAdminAuth());

routerAdd("POST", "/more/collection-form", (c) => {
  const collection = new Collection();
  const form = new CollectionUpsertForm($app, collection);
  form.name = $apis.requestInfo(c).data.name;
  form.schema = [{ name: "title", type: "text" }];
  form.listRule = "";
  form.submit();
  return c.json(200, { id: collection.id, name: collection.name, isNew: collection.isNew(), fields: collection.schema.fields().map((f) => f.name) });
}, $apis.requireAdminAuth());

routerAdd("GET", "/more/enrich/:id", (c) => {
  const post = $app.dao().findRecordById("posts", c.pathParam("id"));
  $apis.enrichRecord(c, $app.dao(), post, "author");
  const all = $app.dao().findRecordsByFilter("posts", "id != ''", "title");
  $apis.enrichRecords(c, $app.dao(), all);
  return c.json(200, { author: post.expandedOne("author") && post.expandedOne("author").getString("name"), post, listed: all.map((p) => Object.keys(p.expand())) });
});

routerAdd("GET", "/more/select", (c) => {
  const rows = arrayOf(new DynamicModel({ id: "", title: "", qty: 0 }));
  $app.dao().db().select("id", "title", "qty").from("items").where($dbx.exp("qty >= {:min}", { min: 2 })).andWhere($dbx.like("title", "a")).orderBy("qty DESC").limit(10).all(rows);
  const count = new DynamicModel({ total: 0 });
  $app.db().select("count(*) as total").from("items").one(count);
  const titles = [];
  $app.db().select("title").from("items").where($dbx.hashExp({ kind: "veg" })).column(titles);
  const records = arrayOf(new Record);
  $app.dao().recordQuery("items").where($dbx.hashExp({ kind: "fruit" })).orderBy("title").all(records);
  const first = new Record();
  $app.dao().recordQuery("items").where($dbx.exp("title = {:t}", { t: "banana" })).one(first);
  const built = $app.db().select("a.id", "b.title AS t").from("items a").leftJoin("items b", $dbx.exp("b.id = a.id")).where($dbx.in("a.kind", "x", "y")).groupBy("a.id").having($dbx.exp("count(*) > 0")).orderBy("a.id ASC").limit(5).offset(2).build();
  return c.json(200, {
    rows, total: count.total, titles,
    records: records.map((r) => [r.collection().name, r.getString("title"), r.getInt("qty"), r.isNew()]),
    first: { title: first.getString("title"), collection: first.collection() && first.collection().name, isNew: first.isNew() },
    built,
    noRow: attempt(() => $app.dao().recordQuery("items").where($dbx.hashExp({ title: "none" })).one(new Record())),
    unknown: attempt(() => $app.dao().recordQuery("nope").all(arrayOf(new Record))),
  });
});

$app.rootCmd.addCommand(new Command({
  use: "seed-items [count]",
  short: "adds items",
  run: (cmd, args) => {
    const n = parseInt(args[0] || "1", 10);
    const items = $app.dao().findCollectionByNameOrId("items");
    $app.dao().runInTransaction((tx) => {
      for (let i = 1; i <= n; i++) tx.saveRecord(new Record(items, { title: "seeded " + i, kind: "cmd", qty: i }));
    });
    const seeded = arrayOf(new DynamicModel({ title: "" }));
    $app.db().select("title").from("items").where($dbx.hashExp({ kind: "cmd" })).orderBy("qty").all(seeded);
    console.log("seeded " + n + " via " + cmd.use.split(" ")[0] + ": " + seeded.map((s) => s.title).join(", "));
  },
}));

$app.rootCmd.addCommand(new Command({ use: "fail-cmd", run: () => { throw new Error("the command failed on purpose"); } }));
`,
};
