// A pb_hooks folder that listens to every hook of 0.22's JS API (the 88 of
// server/hooks/hook-names.ts, untagged): each handler notes its hook's name in $app.store() as it
// fires (one "ev:" key per event; the store keeps them in the order they were set, from any
// executor). A request's headers name the hook whose handler acts on it: X-Fail-Hook returns an
// error (0.22's API tests' "... error response" scenarios), X-Throw-Hook throws a ForbiddenError,
// X-Probe-Hook keeps what the handler sees of its event, X-Change-Hook changes the event (e.record,
// e.token, e.meta, e.oAuth2User, e.externalAuths, e.error, e.model, e.servedPath and e.servedName,
// e.idleTimeout, a realtime e.message), X-Answer-Hook writes a response, X-Stop-Hook
// returns false; a hook without a request (a model's) fails when POST /__events/fail/:name named it. Routes read and clear the list and the probe, and put fixture rows back as they
// were (raw SQL: no hook fires) between scenarios.
import { TAGGED_HOOKS, UNTAGGED_HOOKS } from '../../server/hooks/hook-names';

export const ALL_HOOKS: readonly string[] = [...TAGGED_HOOKS, ...UNTAGGED_HOOKS];

export const EVENTS_HOOK_FILES: Record<string, string> = {
  'events.pb.js': `/// <reference path="../pb_data/types.d.ts" />
const probe = (e) => ({
  collection: e.collection ? e.collection.name : null,
  record: e.record ? { id: e.record.id, email: e.record.email(), verified: e.record.verified(), name: e.record.getString("name") } : null,
  token: typeof e.token === "string" ? e.token.length > 0 : "absent",
  meta: e.meta === undefined ? "absent" : e.meta,
  identity: e.identity === undefined ? "absent" : e.identity,
  providerName: e.providerName === undefined ? "absent" : e.providerName,
  providerClient: e.providerClient ? e.providerClient.displayName() : "absent",
  oAuth2User: e.oAuth2User ? e.oAuth2User.email : "absent",
  isNewRecord: e.isNewRecord === undefined ? "absent" : e.isNewRecord,
  externalAuths: e.externalAuths ? e.externalAuths.map((a) => a.provider) : "absent",
  externalAuth: e.externalAuth ? e.externalAuth.provider + " of " + e.externalAuth.recordId : "absent",
  error: e.error ? { code: e.error.code, message: e.error.message, data: e.error.data, text: e.error.error() } : "absent",
  model: e.model === undefined ? "absent" : e.model === null ? null : e.model.id,
  fileField: e.fileField ? e.fileField.name : "absent",
  servedPath: e.servedPath === undefined ? "absent" : e.servedPath,
  servedName: e.servedName === undefined ? "absent" : e.servedName,
  client: e.client ? e.client.id() : "absent",
  idleTimeout: e.idleTimeout === undefined ? "absent" : e.idleTimeout,
  sse: e.message && typeof e.message.name === "string" ? { name: e.message.name, data: e.message.data } : "absent",
});

const change = (e) => {
  if (e.record) e.record.set("name", "changed by a hook");
  if (typeof e.token === "string") e.token = "token-from-a-hook";
  if (e.meta) e.meta = { ...e.meta, fromHook: true };
  if (e.oAuth2User) e.oAuth2User.name = "Named by a hook";
  if (e.externalAuths) e.externalAuths = e.externalAuths.filter((a) => a.provider !== "google");
  if (e.error) {
    e.error.code = 409;
    e.error.message = "Changed by a hook.";
    e.error.data = { by: "a hook" };
  }
  // a guest's file token: a model and a token (0.22's "unauthorized with model and token via hook")
  if (e.model === null && typeof e.token === "string") e.model = $app.dao().findAuthRecordByEmail("users", "test@example.com");
  if (typeof e.servedName === "string") {
    e.servedPath = "_pb_users_auth_/oap640cot4yru2s/test_kfd2wYLxkz.txt";
    e.servedName = "renamed-by-a-hook.txt";
  }
  if (typeof e.idleTimeout === "number") e.idleTimeout = 300 * 1000 * 1000;
  if (e.message && typeof e.message.name === "string") e.message.data = JSON.stringify({ changedBy: "a hook", name: e.message.name });
};

const note = (name) => (e) => {
  $app.store().set("ev:" + Date.now() + ":" + Math.random(), name);
  const c = e && e.httpContext;
  if (!c) {
    if ($app.store().get("fail") === name) throw new Error("error");
    return;
  }
  const is = (header) => c.request().header.get(header) === name;
  if (is("X-Fail-Hook")) throw new Error("error");
  if (is("X-Throw-Hook")) throw new ForbiddenError("Refused by " + name + ".");
  if (is("X-Probe-Hook")) $app.store().set("probe", probe(e));
  if (is("X-Change-Hook")) change(e);
  if (is("X-Answer-Hook")) return c.json(418, { answeredBy: name });
  if (is("X-Stop-Hook")) return false;
};
${ALL_HOOKS.map((name) => `${name}(note(${JSON.stringify(name)}));`).join('\n')}

routerAdd("GET", "/__events", (c) => {
  const all = $app.store().getAll();
  return c.json(200, Object.keys(all).filter((k) => k.startsWith("ev:")).map((k) => all[k]));
});

routerAdd("POST", "/__events/fail/:name", (c) => {
  $app.store().set("fail", c.pathParam("name"));
  return c.noContent(204);
});

routerAdd("GET", "/__events/probe", (c) => c.json(200, $app.store().get("probe")));

routerAdd("DELETE", "/__events", (c) => {
  $app.store().removeAll();
  return c.noContent(204);
});

// { table, rows }: each row (every column) written back by id, inserted when it is gone
routerAdd("POST", "/__events/restore", (c) => {
  const { table, rows } = $apis.requestInfo(c).data;
  for (const row of rows) {
    const cols = Object.keys(row);
    const params = {};
    cols.forEach((col, i) => { params["p" + i] = row[col]; });
    const sets = cols.map((col, i) => '"' + col + '" = {:p' + i + '}').join(", ");
    const updated = $app.dao().db().newQuery('UPDATE "' + table + '" SET ' + sets + ' WHERE id = {:id}').bind({ ...params, id: row.id }).execute();
    if (updated.rowsAffected() === 0) {
      const names = cols.map((col) => '"' + col + '"').join(", ");
      const values = cols.map((_, i) => "{:p" + i + "}").join(", ");
      $app.dao().db().newQuery('INSERT INTO "' + table + '" (' + names + ") VALUES (" + values + ")").bind(params).execute();
    }
  }
  return c.noContent(204);
});
`,
};
