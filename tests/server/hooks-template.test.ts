// pb_hooks (issue 34): $template, $mails and $apis.staticDirectoryHandler in a hook project
// (tests/helpers/hooks-template-project.ts) run by `serve` (the built server in the 'server-built'
// project), started twice. Pages render from a layout and a page file with html/template's
// escaping; the four 0.22 mails reach a real SMTP server on loopback with their tokens (the
// verification one confirms on the API), the mailer hook changing one, and a mail inside
// runInTransaction is refused; a folder is served under routes as pb_public is (index.html, the
// SPA fallback, nothing outside the folder), behind JS and $apis middlewares, and from a handler.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http as call, tempDir } from '../helpers/server';
import { runCli, startCliServer } from '../helpers/cli';
import type { ServerProcess } from '../helpers/server-process';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { TEMPLATE_PROJECT_FILES } from '../helpers/hooks-template-project';

const ADMIN = { email: 'tpl@example.com', password: 'tpl-pass-1234' };
const work = tempDir('outpost-hooks-tpl-');
const dataDir = path.join(work, 'pb_data');
let srv: ServerProcess;
let smtp: TestSmtp;
let adminToken = '';
const members: Record<string, string> = {};

async function start(): Promise<void> {
  srv = await startCliServer([`--dir=${dataDir}`, '--automigrate=false'], work);
  adminToken = (await call(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: ADMIN.email, password: ADMIN.password } })).body.token;
}

/** A raw GET: status, headers and text (the JSON helper parses bodies). */
async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(srv.url + url, { headers, redirect: 'manual' });
  return { status: res.status, type: res.headers.get('content-type') ?? '', headers: res.headers, text: await res.text() };
}

beforeAll(async () => {
  for (const [name, text] of Object.entries(TEMPLATE_PROJECT_FILES)) {
    fs.mkdirSync(path.dirname(path.join(work, name)), { recursive: true });
    fs.writeFileSync(path.join(work, name), text);
  }
  // links pointing out of the served folder
  fs.symlinkSync(path.join(work, 'secret.txt'), path.join(work, 'pb_hooks/public/out.txt'));
  fs.symlinkSync(work, path.join(work, 'pb_hooks/public/up'));
  smtp = await startSmtp();
  expect((await runCli(['admin', 'create', ADMIN.email, ADMIN.password, `--dir=${dataDir}`], work)).stdout).toContain('Successfully created');
  await start();
  const settings = await call(srv.url, 'PATCH', '/api/settings', {
    token: adminToken,
    body: { meta: { appName: 'Tpl', appUrl: 'http://app.test', senderAddress: 'noreply@app.test', senderName: 'Tpl' }, smtp: { enabled: true, host: '127.0.0.1', port: smtp.port, tls: false } },
  });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  const schema = [
    { name: 'name', type: 'text' },
    { name: 'role', type: 'text' },
  ];
  const coll = await call(srv.url, 'POST', '/api/collections', { token: adminToken, body: { name: 'members', type: 'auth', schema } });
  expect(coll.status, JSON.stringify(coll.body)).toBe(200);
  for (const [name, role] of [['Zoë <z>', 'admin'], ["O'Hara", 'member']]) {
    const email = `${role}@members.test`;
    const res = await call(srv.url, 'POST', '/api/collections/members/records', { token: adminToken, body: { name, role, email, password: 'pass-12345', passwordConfirm: 'pass-12345' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    members[role] = res.body.id;
  }
});

afterAll(async () => {
  await srv?.stop();
  await smtp?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe.each(['first', 'second'])('$template, $mails, staticDirectoryHandler (%s start)', (startName) => {
  beforeAll(async () => {
    if (startName === 'second') {
      await srv.stop();
      await start();
    }
  });

  it('$template.loadFiles: a layout and a page, each value escaped for where it lands', async () => {
    const res = await get(`/tpl/page?title=${encodeURIComponent('A & <B>')}&note=${encodeURIComponent('<em>raw</em>')}`);
    expect(res.status).toBe(200);
    expect(res.type).toBe('text/html; charset=UTF-8');
    expect(res.text).toBe(page(members.member, members.admin));
  });

  it('$template.loadString with addFuncs; errors as Go words them', async () => {
    expect((await get(`/tpl/string?v=${encodeURIComponent('a"b')}`)).text).toBe('<b title="a&#34;b">A&#34;B!</b>');
    const errors = (await call(srv.url, 'GET', '/tpl/errors')).body;
    expect(errors).toEqual({
      missing: { error: `open ${path.join(work, 'pb_hooks/views/nope.html')}: no such file or directory` },
      parse: { error: 'template: broken.html:3: unexpected EOF' },
      exec: { error: 'template: :1:2: executing "" at <index .list 3>: error calling index: index out of range: 3' },
      func: { error: 'template: :1: function "nope" not defined' },
      fs: { error: "$template.loadFS() is not supported by Outpost's pb_hooks" },
    });
  });

  it('$mails: the four mails of 0.22 reach the SMTP server with working tokens, the mailer hook applied', async () => {
    const before = smtp.mails.length;
    expect((await call(srv.url, 'POST', '/mail/verification', { body: { id: members.member } })).body).toEqual({ sent: 'verification' });
    const verify = await smtp.waitFor((m) => smtp.mails.indexOf(m) >= before && m.to.includes('member@members.test'));
    expect(verify.subject).toBe('[hooked] Verify your Tpl email');
    const token = /confirm-verification\/([\w.-]+)/.exec(verify.html)?.[1] ?? '';
    expect(token).not.toBe('');
    expect((await call(srv.url, 'POST', '/api/collections/members/confirm-verification', { body: { token } })).status).toBe(204);
    expect((await call(srv.url, 'GET', `/api/collections/members/records/${members.member}`, { token: adminToken })).body.verified).toBe(true);

    expect((await call(srv.url, 'POST', '/mail/reset', { body: { id: members.admin } })).body).toEqual({ sent: 'reset' });
    const reset = await smtp.waitFor((m) => smtp.mails.indexOf(m) >= before && m.subject === 'Reset your Tpl password');
    expect(reset.to).toEqual(['admin@members.test']);
    expect(reset.html).toMatch(/confirm-password-reset\/[\w.-]+/);

    const newEmail = `new-${startName}@members.test`;
    expect((await call(srv.url, 'POST', '/mail/change', { body: { id: members.admin, newEmail } })).body).toEqual({ sent: 'change' });
    const change = await smtp.waitFor((m) => m.to.includes(newEmail));
    expect(change.subject).toBe('Confirm your Tpl new email address');

    expect((await call(srv.url, 'POST', '/mail/admin', { body: { email: ADMIN.email } })).body).toEqual({ sent: 'admin' });
    const admin = await smtp.waitFor((m) => smtp.mails.indexOf(m) >= before && m.to.includes(ADMIN.email));
    expect(admin.subject).toBe('Reset admin password');
    expect(admin.html).toContain('http://app.test/_/#/confirm-password-reset/');
  });

  it('$mails inside runInTransaction, or for an unsaved record, fails with a message saying why', async () => {
    const tx = (await call(srv.url, 'POST', '/mail/tx', { body: { id: members.member } })).body;
    expect(tx.error).toBe('$mails.sendRecordVerification() cannot be used inside runInTransaction: the transaction cannot wait for the mail server (send it after the transaction)');
    const unsaved = (await call(srv.url, 'POST', '/mail/unsaved', { body: {} })).body;
    expect(unsaved.error).toBe('$mails.sendRecordVerification(): the record must be saved first (no members record with id "")');
    // the server goes on serving, the transaction released
    expect((await call(srv.url, 'GET', '/api/health')).status).toBe(200);
    expect((await call(srv.url, 'PATCH', `/api/collections/members/records/${members.member}`, { token: adminToken, body: { role: 'member' } })).status).toBe(200);
  });

  it('staticDirectoryHandler: files, index.html, the SPA fallback, nothing outside the folder', async () => {
    const js = await get('/assets/app.js');
    expect([js.status, js.type, js.text]).toEqual([200, 'text/javascript; charset=utf-8', 'console.log("app");\n']);
    expect((await get('/assets/')).text).toBe('<!doctype html><p>public index</p>\n');
    expect((await get('/assets/sub')).text).toBe('<p>sub index</p>\n');
    expect((await get('/assets/sub/')).text).toBe('<p>sub index</p>\n');
    const missing = await get('/assets/nope.js');
    expect([missing.status, JSON.parse(missing.text)]).toEqual([404, { code: 404, message: 'Not Found.', data: {} }]);
    expect((await get('/spa/some/client/route')).text).toBe('<!doctype html><p>public index</p>\n');
    expect((await get('/spa/app.js')).text).toBe('console.log("app");\n');
    // a link out of the folder, a linked parent folder: 404, fallback or not (as pb_public); '..' stays inside
    for (const p of ['/assets/out.txt', '/assets/up/secret.txt', '/spa/out.txt', '/spa/up/secret.txt', '/assets/..%2fsecret.txt', '/assets/%2e%2e/%2e%2e/secret.txt']) {
      const res = await get(p);
      expect([p, res.status, JSON.parse(res.text)]).toEqual([p, 404, { code: 404, message: 'Not Found.', data: {} }]);
    }
    expect((await get('/spa/..%2f..%2fsecret.txt')).text).toBe('<!doctype html><p>public index</p>\n');
  });

  it('staticDirectoryHandler behind a JS middleware, requireAdminAuth, or called from a handler', async () => {
    const denied = await get('/guarded/app.js');
    expect([denied.status, JSON.parse(denied.text)]).toEqual([403, { denied: true }]);
    expect((await get('/guarded/app.js?key=k')).text).toBe('console.log("app");\n');
    expect((await get('/admin-assets/app.js')).status).toBe(401);
    expect((await get('/admin-assets/app.js', { Authorization: adminToken })).text).toBe('console.log("app");\n');
    const called = await get('/called/sub/');
    expect([called.status, called.headers.get('x-from'), called.text]).toEqual([200, 'handler', '<p>sub index</p>\n']);
    expect(called.headers.get('x-outpost-static-directory')).toBeNull();
  });
});

/** /tpl/page as Go's html/template writes it (comments dropped, each value escaped for its place). */
const page = (member: string, admin: string) => `<!DOCTYPE html>
<html>
<head>
  <title>A &amp; &lt;B&gt; | Members</title>
  
  <script>
    
    const pb = new PocketBase('http:\\/\\/127.0.0.1:8090')
    const page = {"title":"A \\u0026 \\u003cB\\u003e"};
  </script>
</head>
<body class="dark">
  <h1>A &amp; &lt;B&gt;</h1>
  
  <p id="m0" onclick="select('O\\u0027Hara')"><a href="/members/${member}?q=O%27Hara">O&#39;Hara</a> ✓</p>
  
  <p id="m1" onclick="select('Zoë \\u003cz\\u003e')"><a href="/members/${admin}?q=Zo%c3%ab%20%3cz%3e">Zoë &lt;z&gt;</a> (admin)</p>
  
  <div class="note"><em>raw</em></div>
  <ul><li>alpha: 012</li><li>zeta: 001</li></ul>
  <p>2 members, first: O&#39;Hara</p>
<footer>&copy; 2024</footer>
</body>
</html>
`;
