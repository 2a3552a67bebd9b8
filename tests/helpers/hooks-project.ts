// A pb_hooks folder in the style of real 0.22 projects (our own): routes with $apis middlewares and
// JS middlewares, record request hooks with collection tags, a before-create check throwing 0.22's
// error classes, `return false`, $app.store(), the Dao (finders, saveRecord, runInTransaction),
// onAfterBootstrap, a cron job, require of a module of the hooks folder, a *.pb.ts file, a blocking
// handler and a runaway one.
export const HOOK_FILES: Record<string, string> = {
  'utils.js': `module.exports = { shout: (s) => String(s).toUpperCase() + "!" };\n`,
  'main.pb.js': `/// <reference path="../pb_data/types.d.ts" />
const greeting = "hello"; // handlers see their file's variables (0.22's could not)
const { shout } = require(\`\${__hooks}/utils.js\`);

onBeforeBootstrap((e) => {
  $app.store().set("beforeBoot", true);
});
// (after onBeforeBootstrap: "yes" says both ran, in that order)
onAfterBootstrap((e) => {
  $app.store().set("booted", $app.store().get("beforeBoot") ? "yes" : "before-bootstrap did not run first");
});

routerAdd("GET", "/hello/:name", (c) => {
  return c.json(200, { message: greeting + " " + c.pathParam("name"), loud: shout(c.queryParam("q")), booted: $app.store().get("booted") });
});

routerAdd("GET", "/api/mine", (c) => {
  const me = c.get("authRecord");
  return c.json(200, { id: me.id, email: me.email() });
}, $apis.requireRecordAuth("users"));

routerAdd("GET", "/admin-only", (c) => c.string(200, "admin " + c.get("admin").email), $apis.requireAdminAuth());
routerAdd("GET", "/logged", (c) => c.string(200, "logged"), $apis.activityLogger($app));
// an npm package of the project folder's node_modules (written by the test) and a Node built-in
routerAdd("GET", "/npm", (c) => {
  const pad = require("pad-three");
  const crypto = require("node:crypto");
  return c.json(200, { padded: pad("7"), sha1: crypto.createHash("sha1").update("x").digest("hex").slice(0, 8) });
});
routerAdd("GET", "/ip", (c) => c.json(200, { real: c.realIP(), remote: c.request().remoteAddr }));
routerAdd("POST", "/mail-now", (c) => {
  const message = new MailerMessage({ from: { address: "hooks@example.com" }, to: [{ address: "slow@example.com" }], subject: "From a hook", html: "<p>hi</p>" });
  $app.newMailClient().send(message);
  return c.json(200, { sent: true });
});
routerAdd("GET", "/streamed", (c) => {
  c.response().header().set("Content-Type", "text/csv");
  c.response().writeHeader(201);
  c.response().write("a,b\\n");
  c.response().write([49, 44, 50, 10]);
});
onTerminate((e) => { $os.writeFile(__hooks + "/../terminated.json", JSON.stringify({ isRestart: e.isRestart })); });

// a JS middleware in 0.22's shape: (next) => (c) => ...
const stamp = (next) => (c) => { c.response().header().set("X-Stamp", "1"); return next(c); };
routerAdd("POST", "/notes-count", (c) => {
  const body = {};
  c.bind(body);
  const found = $app.dao().findRecordsByFilter("notes", "title ~ {:q}", "", 0, 0, { q: body.q || "" });
  return c.json(200, { count: found.length });
}, stamp);

routerAdd("POST", "/tx/:mode", (c) => {
  const notes = $app.dao().findCollectionByNameOrId("notes");
  try {
    $app.dao().runInTransaction((txDao) => {
      const r = new Record(notes, { title: "in tx" });
      txDao.saveRecord(r);
      if (c.pathParam("mode") === "fail") throw new Error("undo");
    });
  } catch (e) {
    return c.json(200, { rolledBack: true, count: $app.dao().findRecordsByFilter("notes", "title = 'in tx'").length });
  }
  return c.json(200, { rolledBack: false, count: $app.dao().findRecordsByFilter("notes", "title = 'in tx'").length });
});

routerAdd("GET", "/slow", (c) => { sleep(700); return c.string(200, "slept"); });
routerAdd("GET", "/forever", (c) => { for (;;) {} });
routerAdd("GET", "/boom", (c) => { throw new Error("secret detail"); });
routerAdd("GET", "/missing", (c) => $app.dao().findRecordById("notes", "nope"));

onRecordBeforeCreateRequest((e) => {
  const title = e.record.get("title");
  if (title === "stop") return false;
  if (title.startsWith("bad")) throw new BadRequestError("Invalid title", { title: new ValidationError("invalid_title", "Bad words") });
  e.record.set("title", title.trim() + " (checked)");
}, "notes");

onRecordAfterCreateRequest((e) => {
  $app.store().set("lastNote", e.record.id);
}, "notes");

// a hook for another collection does not run for notes
onRecordBeforeCreateRequest((e) => {
  throw new BadRequestError("not for notes");
}, "other");

onRecordViewRequest((e) => {
  if (e.record.get("title") === "custom (checked)") return e.httpContext.json(200, { custom: true });
}, "notes");

cronAdd("tick", "*/5 * * * *", () => { $app.store().set("ticked", true); });
`,
  'models.pb.js': `/// <reference path="../pb_data/types.d.ts" />
// model hooks around the API's record writes, tagged with the collection
onModelBeforeUpdate((e) => {
  if (e.model.get("title") === "renamed") e.model.set("title", "renamed by a model hook");
  if (e.model.get("title") === "frozen") throw new Error("no");
}, "notes");
onModelAfterCreate((e) => { $app.store().set("modelCreated", e.model.id); }, "notes");
onModelAfterDelete((e) => { $app.store().set("modelDeleted", e.model.id); }, "notes");
routerAdd("GET", "/model-events", (c) => c.json(200, { created: $app.store().get("modelCreated"), deleted: $app.store().get("modelDeleted"), seenInTx: $app.store().get("seenInTx") }));

// the model hooks of a hook's own Dao writes (0.22's Dao fires them too)
onModelBeforeCreate((e) => {
  const title = e.model.get("title");
  if (title === "dao refuse") throw new BadRequestError("Refused by a model hook.");
  if (title === "dao skip") return false;
  if (title.startsWith("dao")) e.model.set("title", title + " (model hook)");
  // inside a transaction, the hook's Dao is the transaction's: it sees the writes made so far
  if (title === "in tx") $app.store().set("seenInTx", e.dao.findRecordsByFilter("notes", "title = 'in tx'").length);
}, "notes");
routerAdd("POST", "/dao-write/:mode", (c) => {
  const r = new Record($app.dao().findCollectionByNameOrId("notes"), { title: "dao " + c.pathParam("mode") });
  try {
    $app.dao().saveRecord(r);
  } catch (err) {
    return c.json(400, { error: err.message });
  }
  const stored = $app.dao().findRecordsByFilter("notes", "id = {:id}", "", 1, 0, { id: r.id }).length;
  return c.json(200, { id: r.id, title: r.get("title"), stored, lastCreated: $app.store().get("modelCreated") });
});
`,
  'auth.pb.js': `/// <reference path="../pb_data/types.d.ts" />
// a custom identity: the before hook finds the record itself (0.22's docs' phone sign-in)
onRecordBeforeAuthWithPasswordRequest((e) => {
  if (e.identity === "alias") e.record = $app.dao().findAuthRecordByEmail("users", "u@example.com");
}, "users");
onRecordAuthRequest((e) => {
  $app.store().set("lastAuth", e.record.id + " " + (e.token ? "with token" : "without"));
}, "users");
routerAdd("GET", "/last-auth", (c) => c.string(200, $app.store().get("lastAuth") || ""));
`,
  'mail.pb.js': `/// <reference path="../pb_data/types.d.ts" />
// mailer hooks: change a mail, or keep it from being sent
onMailerBeforeRecordResetPasswordSend((e) => {
  e.message.subject = "Custom reset for " + e.record.email() + (e.meta.token ? " (token given)" : "");
}, "users");
onMailerBeforeRecordVerificationSend((e) => false, "users");
onMailerAfterRecordResetPasswordSend((e) => { $app.store().set("resetSent", e.message.to[0].address); });
routerAdd("GET", "/reset-sent", (c) => c.string(200, $app.store().get("resetSent") || ""));
`,
  'compat.pb.js': `/// <reference path="../pb_data/types.d.ts" />
// what 0.22 hook code does that V8 alone would not take, and members real projects use
$app.rootCmd.addCommand(new Command({ use: "hello", run: () => {} }));

// echo adds the missing leading slash
routerAdd("GET", "no-slash", (c) => {
  const notes = $app.dao().findCollectionByNameOrId("notes");
  const draft = Record(notes, { title: "made without new" });
  $app.logger().info("compat route", "title", draft.get("title"));
  const info = $apis.requestInfo(c);
  return c.json(200, { title: draft.get("title"), q: info.query.q, agent: info.headers.user_agent ? "yes" : "no" });
});

// routerUse: around every route, the built-in ones too
routerUse((next) => (c) => {
  if (c.request().header.get("X-Block") === "1") return c.json(403, { blocked: true });
  return next(c);
});
`,
  'realtime.pb.js': `/// <reference path="../pb_data/types.d.ts" />
// realtime: a subscription a handler adds, one it refuses, and the disconnect it hears of
onRealtimeBeforeSubscribeRequest((e) => {
  if (e.subscriptions.includes("forbidden")) throw new ForbiddenError("Not that one.");
  e.subscriptions.push("notes");
});
onRealtimeAfterSubscribeRequest((e) => { $app.store().set("subscribed", e.client.id() + ":" + e.client.subscriptions().join(",")); });
onRealtimeDisconnectRequest((e) => { $app.store().set("disconnected", e.client.id()); });
routerAdd("GET", "/realtime-events", (c) => c.json(200, { subscribed: $app.store().get("subscribed"), disconnected: $app.store().get("disconnected") }));
`,
  'typed.pb.ts': `/// <reference path="../pb_data/types.d.ts" />
interface Answer { typed: boolean; last: string | null }
routerAdd("GET", "/typed", (c: any) => {
  const answer: Answer = { typed: true, last: $app.store().get("lastNote") };
  return c.json(200, answer);
});
`,
};
