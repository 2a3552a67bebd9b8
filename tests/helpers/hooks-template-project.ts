// A pb_hooks folder (our own, in the style of the corpus projects' hooks) for $template, $mails and
// $apis.staticDirectoryHandler: pages rendered from a layout and a page file (blocks, ranges over
// records' data, conditions, a script and attributes taking values), a string template with a
// function added, the errors Go gives; the four 0.22 mails sent from routes (a mailer hook changes
// the verification subject), one inside runInTransaction; a folder served under routes with and
// without index fallback, behind a JS middleware, behind requireAdminAuth, and from a handler.
// Paths are relative to the project folder; tests/server/hooks-template.test.ts writes them.
export const TEMPLATE_PROJECT_FILES: Record<string, string> = {
  'pb_hooks/views/layout.html': `<!DOCTYPE html>
<html>
<head>
  <title>{{block "title" .}}Members{{end}}</title>
  <!-- the layout's own comment, dropped as Go drops it -->
  <script>
    // the app's address, in a JS string
    const pb = new PocketBase('{{.appUrl}}')
    const page = {{.page}};
  </script>
</head>
<body class="{{.theme}}">
  {{- block "body" . -}}{{- end -}}
  <footer>{{template "footer" .}}</footer>
</body>
</html>
`,
  'pb_hooks/views/page.html': `{{define "title"}}{{.page.title}} | Members{{end}}
{{define "body"}}
  <h1>{{.page.title}}</h1>
  {{range $i, $m := .members}}
  <p id="m{{$i}}" onclick="select('{{$m.name}}')"><a href="/members/{{$m.id}}?q={{$m.name}}">{{$m.name}}</a>{{if eq $m.role "admin"}} (admin){{else if eq $m.role "member"}} ✓{{end}}</p>
  {{else}}
  <p>Nobody yet.</p>
  {{end}}
  {{with .note}}<div class="note">{{raw .}}</div>{{end}}
  <ul>{{range $key, $value := .counts}}<li>{{$key}}: {{printf "%03d" $value}}</li>{{end}}</ul>
  <p>{{len .members}} member{{if ne (len .members) 1}}s{{end}}, first: {{(index .members 0).name}}</p>
{{end}}
{{define "footer"}}&copy; {{.year}}{{end}}
`,
  'pb_hooks/views/broken.html': `<p>
{{if .x}}
`,
  'pb_hooks/template.pb.js': `/// <reference path="../pb_data/types.d.ts" />
const attempt = (fn) => { try { return { value: fn() }; } catch (e) { return { error: String(e.message || e) }; } };

routerAdd("GET", "/tpl/page", (c) => {
  const members = $app.dao().findRecordsByFilter("members", "id != ''", "name", 10, 0).map((r) => ({
    id: r.getId(), name: r.getString("name"), role: r.getString("role"),
  }));
  const html = $template.loadFiles(\`\${__hooks}/views/layout.html\`, \`\${__hooks}/views/page.html\`).render({
    appUrl: "http://127.0.0.1:8090",
    page: { title: c.queryParam("title") },
    theme: "dark",
    members,
    note: c.queryParam("note"),
    counts: { zeta: 1, alpha: 12 },
    year: 2024,
  });
  return c.html(200, html);
});

routerAdd("GET", "/tpl/string", (c) => {
  $template.addFuncs({ shout: (s) => String(s).toUpperCase() + "!" });
  const out = $template.loadString('<b title="{{.}}">{{shout .}}</b>{{/* a comment */}}').render(c.queryParam("v"));
  return c.string(200, out);
});

routerAdd("GET", "/tpl/errors", (c) => c.json(200, {
  missing: attempt(() => $template.loadFiles(\`\${__hooks}/views/nope.html\`).render({})),
  parse: attempt(() => $template.loadFiles(\`\${__hooks}/views/broken.html\`).render({})),
  exec: attempt(() => $template.loadString("{{index .list 3}}").render({ list: [1] })),
  func: attempt(() => $template.loadString("{{nope .}}").render({})),
  fs: attempt(() => $template.loadFS(null, "*.html")),
}));
`,
  'pb_hooks/mails.pb.js': `/// <reference path="../pb_data/types.d.ts" />
onMailerBeforeRecordVerificationSend((e) => {
  e.message.subject = "[hooked] " + e.message.subject;
}, "members");

routerAdd("POST", "/mail/:kind", (c) => {
  const body = $apis.requestInfo(c).data;
  const kind = c.pathParam("kind");
  try {
    const record = () => $app.dao().findRecordById("members", body.id);
    if (kind === "admin") $mails.sendAdminPasswordReset($app, $app.dao().findAdminByEmail(body.email));
    if (kind === "verification") $mails.sendRecordVerification($app, record());
    if (kind === "reset") $mails.sendRecordPasswordReset($app, record());
    if (kind === "change") $mails.sendRecordChangeEmail($app, record(), body.newEmail);
    if (kind === "unsaved") $mails.sendRecordVerification($app, new Record($app.dao().findCollectionByNameOrId("members")));
    if (kind === "tx") {
      const member = record();
      $app.dao().runInTransaction((tx) => { $mails.sendRecordVerification($app, member); });
    }
    return c.json(200, { sent: kind });
  } catch (e) {
    return c.json(200, { error: String(e.message || e) });
  }
});
`,
  'pb_hooks/static.pb.js': `/// <reference path="../pb_data/types.d.ts" />
routerAdd("GET", "/assets/*", $apis.staticDirectoryHandler(\`\${__hooks}/public\`, false));
routerAdd("GET", "/spa/*", $apis.staticDirectoryHandler(\`\${__hooks}/public\`, true));
routerAdd("GET", "/guarded/*", $apis.staticDirectoryHandler(\`\${__hooks}/public\`, false), (next) => (c) => {
  if (c.queryParam("key") !== "k") return c.json(403, { denied: true });
  return next(c);
});
routerAdd("GET", "/admin-assets/*", $apis.staticDirectoryHandler(\`\${__hooks}/public\`, false), $apis.requireAdminAuth());
routerAdd("GET", "/called/*", (c) => {
  c.response().header().set("X-From", "handler");
  return $apis.staticDirectoryHandler(\`\${__hooks}/public\`, false)(c);
});
`,
  'pb_hooks/public/index.html': '<!doctype html><p>public index</p>\n',
  'pb_hooks/public/app.js': 'console.log("app");\n',
  'pb_hooks/public/sub/index.html': '<p>sub index</p>\n',
  'secret.txt': 'outside the folder\n',
};
