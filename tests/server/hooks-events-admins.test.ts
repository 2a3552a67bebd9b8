// pb_hooks (issue 34): the admins and settings APIs fire the hook events 0.22's fire, as many
// times, in the order 0.22's code fixes (apis/admin.go, apis/settings.go, forms/admin_*.go,
// daos/admin.go and SaveSettings, mails/admin.go). The specification is 0.22.12's apis/admin_test.go
// and apis/settings_test.go: their scenarios replayed on a copy of the same data (the 0.22.12
// fixture, its pre-signed tokens) against a server whose hooks folder notes every hook as it fires
// (tests/helpers/hooks-events-project.ts; the runner: tests/helpers/hooks-events-runner.ts), plus
// what the events give their handlers and what a handler may do (change e.admin, e.token,
// e.result, e.redactedSettings, e.newSettings, e.message; return false; write the answer; throw),
// through a second hook file of this test's (admins-events.pb.js). Scenarios run in order on one
// server, those that change the admins put them back. The built server in 'server-built', started
// twice (on a fresh copy of the fixture each time).
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliServer } from '../helpers/cli';
import { EVENTS_HOOK_FILES } from '../helpers/hooks-events-project';
import { chain, eventsClient, type Scenario as EventScenario } from '../helpers/hooks-events-runner';
import { T } from '../helpers/record-auth-fixture';
import { FIXTURE_DIR, FIXTURE_PASSWORD, http, tempDir } from '../helpers/server';
import type { ServerProcess } from '../helpers/server-process';
import { startSmtp, type TestSmtp } from '../helpers/smtp';

const work = tempDir('outpost-hooks-events-admins-');
const dataDir = path.join(work, 'pb_data');
let srv: ServerProcess;
let smtp: TestSmtp;
let admins: Record<string, unknown>[] = [];

const call = (method: string, p: string, opts: Parameters<typeof http>[3] = {}) => http(srv.url, method, p, opts);
const { recorded, act, probe, waitFor, restoreRows, check } = eventsClient(call);

type Scenario = EventScenario<'_admins'>;

// the admins of 0.22's test data, and its other tokens (apis/admin_test.go)
const ADMIN1 = 'sywbhecnh46rhm0';
const ADMIN2 = 'sbmbsdb40jyxf7h';
const ADMIN_EXPIRED = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6InN5d2JoZWNuaDQ2cmhtMCIsInR5cGUiOiJhZG1pbiIsImV4cCI6MTY0MDk5MTY2MX0.I7w8iktkleQvC7_UIRpD7rNzcU4OnF7i7SFIUu6lD_4';
const ADMIN_OTHER = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6InN5d2JoZWNuaDQ2cmhtMCIsInR5cGUiOiJhZG1pbiIsImV4cCI6MjIwODk4MTYwMH0.han3_sG65zLddpcX2ic78qgy7FKecuPfOpFa8Dvi5Bg';
const RESET = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6InN5d2JoZWNuaDQ2cmhtMCIsInR5cGUiOiJhZG1pbiIsImVtYWlsIjoidGVzdEBleGFtcGxlLmNvbSIsImV4cCI6MjIwODk4MTYwMH0.kwFEler6KSMKJNstuaSDvE1QnNdCta5qSnjaIQ0hhhc';
const RESET_EXPIRED = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6InN5d2JoZWNuaDQ2cmhtMCIsInR5cGUiOiJhZG1pbiIsImVtYWlsIjoidGVzdEBleGFtcGxlLmNvbSIsImV4cCI6MTY0MDk5MTY2MX0.GLwCOsgWTTEKXTK-AyGW838de1OeZGIjfHH0FoRLqZg';

/**
 * This test's own hook file: headers name the hook whose handler probes its event (X-Admin-Probe:
 * kept in the store), changes it (X-Admin-Change) or puts another admin in it (X-Admin-Swap: a
 * valid one: X-Admin-Swap, or a string: X-Admin-Garble); a hook without a request (a model's, a
 * mailer's) does so, or returns false (Stop), when POST /__admins/mode/:mode/:name named it (until
 * the events are cleared: DELETE /__events empties the store). Raw
 * SQL through POST /__admins/sql (no hook fires). This file loads first: its handlers run before
 * the recording ones.
 */
const ADMIN_HOOKS = ['onAdminsListRequest', 'onAdminViewRequest', 'onAdminBeforeCreateRequest', 'onAdminAfterCreateRequest', 'onAdminBeforeUpdateRequest', 'onAdminAfterUpdateRequest', 'onAdminBeforeDeleteRequest', 'onAdminAfterDeleteRequest', 'onAdminAuthRequest', 'onAdminBeforeAuthWithPasswordRequest', 'onAdminAfterAuthWithPasswordRequest', 'onAdminBeforeAuthRefreshRequest', 'onAdminAfterAuthRefreshRequest', 'onAdminBeforeRequestPasswordResetRequest', 'onAdminAfterRequestPasswordResetRequest', 'onAdminBeforeConfirmPasswordResetRequest', 'onAdminAfterConfirmPasswordResetRequest', 'onMailerBeforeAdminResetPasswordSend', 'onMailerAfterAdminResetPasswordSend', 'onSettingsListRequest', 'onSettingsBeforeUpdateRequest', 'onSettingsAfterUpdateRequest', 'onModelBeforeCreate', 'onModelAfterCreate', 'onModelBeforeUpdate', 'onModelAfterUpdate', 'onModelBeforeDelete', 'onModelAfterDelete'];
const ADMINS_HOOK_FILE = `/// <reference path="../pb_data/types.d.ts" />
const adminOf = (a) => (a ? { id: a.id, email: a.email, avatar: a.avatar, isNew: a.isNew(), created: a.created !== "", hashed: a.passwordHash.startsWith("$2"), password: a.validatePassword("${FIXTURE_PASSWORD}") } : a);
const probe = (e) => ({
  admin: e.admin === undefined ? "absent" : adminOf(e.admin),
  admins: e.admins === undefined ? "absent" : e.admins.map((a) => a.email),
  result: e.result === undefined ? "absent" : { totalItems: e.result.totalItems, items: e.result.items.map((a) => a.email) },
  token: typeof e.token === "string" ? e.token.length > 0 : "absent",
  identity: e.identity === undefined ? "absent" : e.identity,
  password: e.password === undefined ? "absent" : e.password,
  redactedSettings: e.redactedSettings === undefined ? "absent" : { appName: e.redactedSettings.meta.appName, secret: e.redactedSettings.adminAuthToken.secret },
  oldSettings: e.oldSettings === undefined ? "absent" : e.oldSettings.meta.appName,
  newSettings: e.newSettings === undefined ? "absent" : e.newSettings.meta.appName,
  model: e.model === undefined ? "absent" : e.model.key ? { key: e.model.key, appName: e.model.value.meta.appName } : adminOf(e.model),
  message: e.message === undefined ? "absent" : { to: e.message.to.map((t) => t.address), subject: e.message.subject },
  meta: e.meta === undefined ? "absent" : Object.keys(e.meta),
});
const change = (e) => {
  if (e.admin) e.admin.email = "changed-by-a-hook@example.com";
  if (e.model && e.model.email) e.model.avatar = 9;
  if (typeof e.token === "string") e.token = "token-from-a-hook";
  if (e.result) e.result.totalItems = 99;
  if (e.admins) e.admins = e.admins.filter((a) => a.email !== "test2@example.com");
  if (e.redactedSettings) e.redactedSettings.meta.appName = "Named by a hook";
  if (e.newSettings) e.newSettings.meta.appName = "Saved by a hook";
  if (e.message) e.message.subject = "Subject from a hook";
};
const act = (name) => (e) => {
  const c = e.httpContext;
  const is = (mode) => (c ? c.request().header.get("X-Admin-" + mode) === name : $app.store().get("admin-" + mode) === name);
  if (is("Probe")) $app.store().set("probe", probe(e));
  if (is("Change")) change(e);
  if (is("Swap")) {
    const a = new Admin({ id: "${ADMIN2}", email: "test2@example.com", avatar: 2 });
    a.markAsNotNew();
    a.setPassword(e.password);
    e.admin = a;
  }
  if (is("Garble")) e.admin = "not an admin";
  if (is("Stop")) return false;
};
${ADMIN_HOOKS.map((name) => `${name}(act(${JSON.stringify(name)}));`).join('\n')}

routerAdd("POST", "/__admins/mode/:mode/:name", (c) => {
  $app.store().set("admin-" + c.pathParam("mode"), c.pathParam("name"));
  return c.noContent(204);
});

routerAdd("POST", "/__admins/sql", (c) => {
  $app.dao().db().newQuery($apis.requestInfo(c).data.sql).execute();
  return c.noContent(204);
});
`;

const sql = async (statement: string) => expect((await call('POST', '/__admins/sql', { body: { sql: statement } })).status).toBe(204);

/** The admins as the fixture has them (and no other). */
async function restoreAdmins(): Promise<void> {
  await sql('DELETE FROM _admins');
  await restoreRows('_admins', admins);
}

const SIGN_IN = chain('OnAdminBeforeAuthWithPasswordRequest', 'OnAdminAfterAuthWithPasswordRequest', 'OnAdminAuthRequest');
const CREATE = chain('OnAdminBeforeCreateRequest', 'OnModelBeforeCreate', 'OnModelAfterCreate', 'OnAdminAfterCreateRequest');
const UPDATE = chain('OnAdminBeforeUpdateRequest', 'OnModelBeforeUpdate', 'OnModelAfterUpdate', 'OnAdminAfterUpdateRequest');
const DELETE = chain('OnAdminBeforeDeleteRequest', 'OnModelBeforeDelete', 'OnModelAfterDelete', 'OnAdminAfterDeleteRequest');
const CONFIRM = chain('OnAdminBeforeConfirmPasswordResetRequest', 'OnModelBeforeUpdate', 'OnModelAfterUpdate', 'OnAdminAfterConfirmPasswordResetRequest');
const SETTINGS = chain('OnSettingsBeforeUpdateRequest', 'OnModelBeforeUpdate', 'OnModelAfterUpdate', 'OnSettingsAfterUpdateRequest');
const NEW_ADMIN = { email: 'testnew@example.com', password: '1234567890', passwordConfirm: '1234567890', avatar: 3 };
const BAD_ADMIN = { email: 'test@example.com', password: '1234', passwordConfirm: '4321', avatar: 99 };
const UPDATED_ADMIN = { email: 'testnew@example.com', password: '1234567891', passwordConfirm: '1234567891', avatar: 5 };

const SCENARIOS: Scenario[] = [
  // ---- apis/admin_test.go ---------------------------------------------------------------------
  { area: 'TestAdminAuthWithPassword', name: 'empty data', method: 'POST', url: '/api/admins/auth-with-password', raw: '', status: 400, events: {} },
  { area: 'TestAdminAuthWithPassword', name: 'invalid data', method: 'POST', url: '/api/admins/auth-with-password', raw: '{', status: 400, events: {} },
  { area: 'TestAdminAuthWithPassword', name: 'wrong email', method: 'POST', url: '/api/admins/auth-with-password', body: { identity: 'missing@example.com', password: '1234567890' }, status: 400, events: { OnAdminBeforeAuthWithPasswordRequest: 1 } },
  { area: 'TestAdminAuthWithPassword', name: 'wrong password', method: 'POST', url: '/api/admins/auth-with-password', body: { identity: 'test@example.com', password: 'invalid' }, status: 400, events: { OnAdminBeforeAuthWithPasswordRequest: 1 } },
  { area: 'TestAdminAuthWithPassword', name: 'valid email/password (guest)', method: 'POST', url: '/api/admins/auth-with-password', body: { identity: 'test@example.com', password: '1234567890' }, status: 200, ...SIGN_IN },
  { area: 'TestAdminAuthWithPassword', name: 'valid email/password (already authorized)', method: 'POST', url: '/api/admins/auth-with-password', token: ADMIN_OTHER, body: { identity: 'test@example.com', password: '1234567890' }, status: 200, ...SIGN_IN },
  { area: 'TestAdminAuthWithPassword', name: 'OnAdminAfterAuthWithPasswordRequest error response', method: 'POST', url: '/api/admins/auth-with-password', token: ADMIN_OTHER, body: { identity: 'test@example.com', password: '1234567890' }, fail: 'OnAdminAfterAuthWithPasswordRequest', status: 400, ...chain('OnAdminBeforeAuthWithPasswordRequest', 'OnAdminAfterAuthWithPasswordRequest') },

  { area: 'TestAdminRequestPasswordReset', name: 'empty data', method: 'POST', url: '/api/admins/request-password-reset', raw: '', status: 400, events: {} },
  { area: 'TestAdminRequestPasswordReset', name: 'invalid data', method: 'POST', url: '/api/admins/request-password-reset', raw: '{"email', status: 400, events: {} },
  { area: 'TestAdminRequestPasswordReset', name: 'missing admin', method: 'POST', url: '/api/admins/request-password-reset', body: { email: 'missing@example.com' }, background: true, status: 204, events: {} },
  {
    area: 'TestAdminRequestPasswordReset',
    name: 'existing admin',
    method: 'POST',
    url: '/api/admins/request-password-reset',
    body: { email: 'test@example.com' },
    background: true,
    status: 204,
    events: { OnModelBeforeUpdate: 1, OnModelAfterUpdate: 1, OnMailerBeforeAdminResetPasswordSend: 1, OnMailerAfterAdminResetPasswordSend: 1, OnAdminBeforeRequestPasswordResetRequest: 1, OnAdminAfterRequestPasswordResetRequest: 1 },
    order: [
      ['OnAdminBeforeRequestPasswordResetRequest', 'OnAdminAfterRequestPasswordResetRequest'],
      ['OnAdminBeforeRequestPasswordResetRequest', 'OnMailerBeforeAdminResetPasswordSend', 'OnMailerAfterAdminResetPasswordSend', 'OnModelBeforeUpdate', 'OnModelAfterUpdate'],
    ],
  },
  // (the previous scenario's mail is the recent one)
  { area: 'TestAdminRequestPasswordReset', name: 'existing admin (after already sent)', method: 'POST', url: '/api/admins/request-password-reset', body: { email: 'test@example.com' }, background: true, status: 204, events: {}, restore: ['_admins'] },

  { area: 'TestAdminConfirmPasswordReset', name: 'empty data', method: 'POST', url: '/api/admins/confirm-password-reset', raw: '', status: 400, events: {} },
  { area: 'TestAdminConfirmPasswordReset', name: 'invalid data', method: 'POST', url: '/api/admins/confirm-password-reset', raw: '{"password', status: 400, events: {} },
  { area: 'TestAdminConfirmPasswordReset', name: 'expired token', method: 'POST', url: '/api/admins/confirm-password-reset', body: { token: RESET_EXPIRED, password: '1234567890', passwordConfirm: '1234567890' }, status: 400, events: {} },
  { area: 'TestAdminConfirmPasswordReset', name: 'valid token + invalid password', method: 'POST', url: '/api/admins/confirm-password-reset', body: { token: RESET, password: '123456', passwordConfirm: '123456' }, status: 400, events: {} },
  { area: 'TestAdminConfirmPasswordReset', name: 'valid token + valid password', method: 'POST', url: '/api/admins/confirm-password-reset', body: { token: RESET, password: '1234567891', passwordConfirm: '1234567891' }, status: 204, ...CONFIRM, restore: ['_admins'] },
  { area: 'TestAdminConfirmPasswordReset', name: 'OnAdminAfterConfirmPasswordResetRequest error response', method: 'POST', url: '/api/admins/confirm-password-reset', body: { token: RESET, password: '1234567891', passwordConfirm: '1234567891' }, fail: 'OnAdminAfterConfirmPasswordResetRequest', status: 400, ...CONFIRM, restore: ['_admins'] },

  { area: 'TestAdminRefresh', name: 'unauthorized', method: 'POST', url: '/api/admins/auth-refresh', status: 401, events: {} },
  { area: 'TestAdminRefresh', name: 'authorized as user', method: 'POST', url: '/api/admins/auth-refresh', token: T.user1, status: 401, events: {} },
  { area: 'TestAdminRefresh', name: 'authorized as admin (expired token)', method: 'POST', url: '/api/admins/auth-refresh', token: ADMIN_EXPIRED, status: 401, events: {} },
  { area: 'TestAdminRefresh', name: 'authorized as admin (valid token)', method: 'POST', url: '/api/admins/auth-refresh', token: T.admin, status: 200, ...chain('OnAdminBeforeAuthRefreshRequest', 'OnAdminAfterAuthRefreshRequest', 'OnAdminAuthRequest') },
  { area: 'TestAdminRefresh', name: 'OnAdminAfterAuthRefreshRequest error response', method: 'POST', url: '/api/admins/auth-refresh', token: T.admin, fail: 'OnAdminAfterAuthRefreshRequest', status: 400, ...chain('OnAdminBeforeAuthRefreshRequest', 'OnAdminAfterAuthRefreshRequest') },

  { area: 'TestAdminsList', name: 'unauthorized', method: 'GET', url: '/api/admins', status: 401, events: {} },
  { area: 'TestAdminsList', name: 'authorized as user', method: 'GET', url: '/api/admins', token: T.user1, status: 401, events: {} },
  { area: 'TestAdminsList', name: 'authorized as admin', method: 'GET', url: '/api/admins', token: T.admin, status: 200, events: { OnAdminsListRequest: 1 } },
  { area: 'TestAdminsList', name: 'authorized as admin + paging and sorting', method: 'GET', url: '/api/admins?page=2&perPage=1&sort=-created', token: T.admin, status: 200, events: { OnAdminsListRequest: 1 } },
  { area: 'TestAdminsList', name: 'authorized as admin + invalid filter', method: 'GET', url: "/api/admins?filter=invalidfield~'test2'", token: T.admin, status: 400, events: {} },
  { area: 'TestAdminsList', name: 'authorized as admin + valid filter', method: 'GET', url: "/api/admins?filter=email~'test3'", token: T.admin, status: 200, events: { OnAdminsListRequest: 1 } },

  { area: 'TestAdminView', name: 'unauthorized', method: 'GET', url: `/api/admins/${ADMIN2}`, status: 401, events: {} },
  { area: 'TestAdminView', name: 'authorized as user', method: 'GET', url: `/api/admins/${ADMIN2}`, token: T.user1, status: 401, events: {} },
  { area: 'TestAdminView', name: 'authorized as admin + nonexisting admin id', method: 'GET', url: '/api/admins/nonexisting', token: T.admin, status: 404, events: {} },
  { area: 'TestAdminView', name: 'authorized as admin + existing admin id', method: 'GET', url: `/api/admins/${ADMIN2}`, token: T.admin, status: 200, events: { OnAdminViewRequest: 1 } },

  { area: 'TestAdminDelete', name: 'unauthorized', method: 'DELETE', url: `/api/admins/${ADMIN2}`, status: 401, events: {} },
  { area: 'TestAdminDelete', name: 'authorized as user', method: 'DELETE', url: `/api/admins/${ADMIN2}`, token: T.user1, status: 401, events: {} },
  { area: 'TestAdminDelete', name: 'authorized as admin + missing admin id', method: 'DELETE', url: '/api/admins/missing', token: T.admin, status: 404, events: {} },
  { area: 'TestAdminDelete', name: 'authorized as admin + existing admin id', method: 'DELETE', url: `/api/admins/${ADMIN2}`, token: T.admin, status: 204, ...DELETE, restore: ['_admins'] },
  {
    area: 'TestAdminDelete',
    name: 'authorized as admin - try to delete the only remaining admin',
    method: 'DELETE',
    url: `/api/admins/${ADMIN1}`,
    token: T.admin,
    prepare: async () => (await sql(`DELETE FROM _admins WHERE id != '${ADMIN1}'`), {}),
    status: 400,
    events: { OnAdminBeforeDeleteRequest: 1 },
    restore: ['_admins'],
  },
  { area: 'TestAdminDelete', name: 'OnAdminAfterDeleteRequest error response', method: 'DELETE', url: `/api/admins/${ADMIN2}`, token: T.admin, fail: 'OnAdminAfterDeleteRequest', status: 400, ...DELETE, restore: ['_admins'] },

  { area: 'TestAdminCreate', name: 'unauthorized (while having at least 1 existing admin)', method: 'POST', url: '/api/admins', status: 401, events: {} },
  { area: 'TestAdminCreate', name: 'unauthorized (while having 0 existing admins)', method: 'POST', url: '/api/admins', body: NEW_ADMIN, prepare: async () => (await sql('DELETE FROM _admins'), {}), status: 200, ...CREATE, restore: ['_admins'] },
  { area: 'TestAdminCreate', name: 'authorized as user', method: 'POST', url: '/api/admins', token: T.user1, status: 401, events: {} },
  { area: 'TestAdminCreate', name: 'authorized as admin + empty data', method: 'POST', url: '/api/admins', token: T.admin, raw: '', status: 400, events: {} },
  { area: 'TestAdminCreate', name: 'authorized as admin + invalid data format', method: 'POST', url: '/api/admins', token: T.admin, raw: '{', status: 400, events: {} },
  { area: 'TestAdminCreate', name: 'authorized as admin + invalid data', method: 'POST', url: '/api/admins', token: T.admin, body: BAD_ADMIN, status: 400, events: {} },
  { area: 'TestAdminCreate', name: 'authorized as admin + valid data', method: 'POST', url: '/api/admins', token: T.admin, body: NEW_ADMIN, status: 200, ...CREATE, restore: ['_admins'] },
  // (0.22 lists no events for it: its harness checks them only when some are listed; these are the ones its code fires)
  { area: 'TestAdminCreate', name: 'OnAdminAfterCreateRequest error response', method: 'POST', url: '/api/admins', token: T.admin, body: NEW_ADMIN, fail: 'OnAdminAfterCreateRequest', status: 400, ...CREATE, restore: ['_admins'] },

  { area: 'TestAdminUpdate', name: 'unauthorized', method: 'PATCH', url: `/api/admins/${ADMIN2}`, status: 401, events: {} },
  { area: 'TestAdminUpdate', name: 'authorized as user', method: 'PATCH', url: `/api/admins/${ADMIN2}`, token: T.user1, status: 401, events: {} },
  { area: 'TestAdminUpdate', name: 'authorized as admin + missing admin', method: 'PATCH', url: '/api/admins/missing', token: T.admin, raw: '', status: 404, events: {} },
  { area: 'TestAdminUpdate', name: 'authorized as admin + empty data', method: 'PATCH', url: `/api/admins/${ADMIN2}`, token: T.admin, raw: '', status: 200, ...UPDATE, restore: ['_admins'] },
  { area: 'TestAdminUpdate', name: 'authorized as admin + invalid formatted data', method: 'PATCH', url: `/api/admins/${ADMIN2}`, token: T.admin, raw: '{', status: 400, events: {} },
  { area: 'TestAdminUpdate', name: 'authorized as admin + invalid data', method: 'PATCH', url: `/api/admins/${ADMIN2}`, token: T.admin, body: BAD_ADMIN, status: 400, events: {} },
  { area: 'TestAdminUpdate', name: 'authorized as admin + valid data', method: 'PATCH', url: `/api/admins/${ADMIN2}`, token: T.admin, body: UPDATED_ADMIN, status: 200, ...UPDATE, restore: ['_admins'] },
  { area: 'TestAdminUpdate', name: 'OnAdminAfterUpdateRequest error response', method: 'PATCH', url: `/api/admins/${ADMIN2}`, token: T.admin, body: UPDATED_ADMIN, fail: 'OnAdminAfterUpdateRequest', status: 400, ...UPDATE, restore: ['_admins'] },

  // ---- apis/settings_test.go ------------------------------------------------------------------
  { area: 'TestSettingsList', name: 'unauthorized', method: 'GET', url: '/api/settings', status: 401, events: {} },
  { area: 'TestSettingsList', name: 'authorized as auth record', method: 'GET', url: '/api/settings', token: T.user1, status: 401, events: {} },
  { area: 'TestSettingsList', name: 'authorized as admin', method: 'GET', url: '/api/settings', token: T.admin, status: 200, events: { OnSettingsListRequest: 1 } },
  { area: 'TestSettingsSet', name: 'unauthorized', method: 'PATCH', url: '/api/settings', body: { meta: { appName: 'update_test' } }, status: 401, events: {} },
  { area: 'TestSettingsSet', name: 'authorized as auth record', method: 'PATCH', url: '/api/settings', token: T.user1, body: { meta: { appName: 'update_test' } }, status: 401, events: {} },
  { area: 'TestSettingsSet', name: 'authorized as admin submitting empty data', method: 'PATCH', url: '/api/settings', token: T.admin, raw: '', status: 200, ...SETTINGS },
  { area: 'TestSettingsSet', name: 'authorized as admin submitting invalid data', method: 'PATCH', url: '/api/settings', token: T.admin, body: { meta: { appName: '' } }, status: 400, events: {} },
  { area: 'TestSettingsSet', name: 'authorized as admin submitting valid data', method: 'PATCH', url: '/api/settings', token: T.admin, body: { meta: { appName: 'update_test' } }, status: 200, ...SETTINGS },
  { area: 'TestSettingsSet', name: 'OnSettingsAfterUpdateRequest error response', method: 'PATCH', url: '/api/settings', token: T.admin, body: { meta: { appName: 'update_test' } }, fail: 'OnSettingsAfterUpdateRequest', status: 400, ...SETTINGS },
  { area: 'TestSettingsTestS3', name: 'authorized as admin (valid filesystem and no s3)', method: 'POST', url: '/api/settings/test/s3', token: T.admin, body: { filesystem: 'storage' }, status: 400, events: {} },
  { area: 'TestSettingsTestEmail', name: 'authorized as admin (invalid body)', method: 'POST', url: '/api/settings/test/email', token: T.admin, raw: '{', status: 400, events: {} },
  { area: 'TestSettingsTestEmail', name: 'authorized as admin (verifiation template)', method: 'POST', url: '/api/settings/test/email', token: T.admin, body: { template: 'verification', email: 'test@example.com' }, status: 204, ...chain('OnMailerBeforeRecordVerificationSend', 'OnMailerAfterRecordVerificationSend') },
  { area: 'TestSettingsTestEmail', name: 'authorized as admin (password reset template)', method: 'POST', url: '/api/settings/test/email', token: T.admin, body: { template: 'password-reset', email: 'test@example.com' }, status: 204, ...chain('OnMailerBeforeRecordResetPasswordSend', 'OnMailerAfterRecordResetPasswordSend') },
  { area: 'TestSettingsTestEmail', name: 'authorized as admin (email change)', method: 'POST', url: '/api/settings/test/email', token: T.admin, body: { template: 'email-change', email: 'test@example.com' }, status: 204, ...chain('OnMailerBeforeRecordChangeEmailSend', 'OnMailerAfterRecordChangeEmailSend') },
];

async function start(): Promise<void> {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.cpSync(FIXTURE_DIR, dataDir, { recursive: true });
  srv = await startCliServer([`--dir=${dataDir}`, '--automigrate=false'], work);
  const settings = await call('PATCH', '/api/settings', { token: T.admin, body: { smtp: { enabled: true, host: '127.0.0.1', port: smtp.port, tls: false } } });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
}

beforeAll(async () => {
  smtp = await startSmtp();
  fs.mkdirSync(path.join(work, 'pb_hooks'), { recursive: true });
  for (const [name, text] of Object.entries({ ...EVENTS_HOOK_FILES, 'admins-events.pb.js': ADMINS_HOOK_FILE })) fs.writeFileSync(path.join(work, 'pb_hooks', name), text);
  // the admins as the fixture has them (read from a copy: the fixture stays as it is)
  const copy = path.join(work, 'fixture-copy');
  fs.cpSync(FIXTURE_DIR, copy, { recursive: true });
  const db = new Database(path.join(copy, 'data.db'), { readonly: true });
  try {
    admins = db.prepare('SELECT * FROM _admins').all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
});

afterAll(async () => {
  await srv?.stop();
  await smtp?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe.each(['first', 'second'])('0.22 admins and settings API scenarios, the hook events they fire (%s start)', () => {
  beforeAll(async () => {
    if (srv) await srv.stop();
    await start();
  });

  for (const s of SCENARIOS) {
    it(`${s.area} › ${s.name}`, async () => {
      try {
        await check(s);
      } finally {
        if (s.restore) await restoreAdmins();
      }
    });
  }

  describe('what the admin and settings hooks give their handlers, and what the handlers may do', () => {
    const signIn = (identity = 'test@example.com', password = FIXTURE_PASSWORD) => ({ body: { identity, password } });
    const mode = async (what: string, hook: string) => expect((await call('POST', `/__admins/mode/${what}/${hook}`)).status).toBe(204);
    const adminRow = async (id: string) => (await call('GET', `/api/admins/${id}`, { token: T.admin })).body;
    const appName = async () => (await call('GET', '/api/settings', { token: T.admin })).body.meta.appName as string;

    it("e.admin is 0.22's Admin (its password hash included), with each event's own fields", async () => {
      await act('X-Admin-Probe', 'onAdminBeforeAuthWithPasswordRequest', 'POST', '/api/admins/auth-with-password', signIn());
      expect(await probe()).toMatchObject({ admin: { id: ADMIN1, email: 'test@example.com', isNew: false, hashed: true, password: true }, identity: 'test@example.com', password: FIXTURE_PASSWORD });
      await act('X-Admin-Probe', 'onAdminBeforeAuthWithPasswordRequest', 'POST', '/api/admins/auth-with-password', signIn('missing@example.com'));
      expect(await probe()).toMatchObject({ admin: null, identity: 'missing@example.com' });
      await act('X-Admin-Probe', 'onAdminAuthRequest', 'POST', '/api/admins/auth-refresh', { token: T.admin });
      expect(await probe()).toMatchObject({ admin: { id: ADMIN1 }, token: true });
      await act('X-Admin-Probe', 'onAdminsListRequest', 'GET', '/api/admins?sort=email', { token: T.admin });
      expect(await probe()).toMatchObject({ admins: ['test2@example.com', 'test3@example.com', 'test@example.com'], result: { totalItems: 3, items: ['test2@example.com', 'test3@example.com', 'test@example.com'] } });
      await act('X-Admin-Probe', 'onAdminViewRequest', 'GET', `/api/admins/${ADMIN2}`, { token: T.admin });
      expect(await probe()).toMatchObject({ admin: { id: ADMIN2, email: 'test2@example.com', avatar: 2 } });
      // a new admin: no id, no dates before the save; its model hook sees them
      await act('X-Admin-Probe', 'onAdminBeforeCreateRequest', 'POST', '/api/admins', { token: T.admin, body: NEW_ADMIN });
      expect(await probe()).toMatchObject({ admin: { id: '', email: 'testnew@example.com', avatar: 3, isNew: true, created: false, password: true } });
      await restoreAdmins();
      await mode('Probe', 'onModelBeforeCreate');
      await call('POST', '/api/admins', { token: T.admin, body: NEW_ADMIN });
      expect((await probe()).model).toMatchObject({ email: 'testnew@example.com', isNew: true, created: true });
      await mode('Probe', 'none');
      await restoreAdmins();
      // the settings: the answer redacted, the old and the new ones whole; the _params row
      await act('X-Admin-Probe', 'onSettingsListRequest', 'GET', '/api/settings', { token: T.admin });
      expect(await probe()).toMatchObject({ redactedSettings: { secret: '******' } });
      const before = await appName();
      await act('X-Admin-Probe', 'onSettingsBeforeUpdateRequest', 'PATCH', '/api/settings', { token: T.admin, body: { meta: { appName: 'probed' } } });
      expect(await probe()).toMatchObject({ oldSettings: before, newSettings: 'probed' });
      await mode('Probe', 'onModelAfterUpdate');
      await call('PATCH', '/api/settings', { token: T.admin, body: { meta: { appName: before } } });
      expect((await probe()).model).toEqual({ key: 'settings', appName: before });
      await mode('Probe', 'none');
    });

    it('the admin reset mail: e.admin, e.message (a before-handler may change it) and e.meta', async () => {
      smtp.mails.length = 0;
      await call('DELETE', '/__events');
      await mode('Probe', 'onMailerBeforeAdminResetPasswordSend');
      await mode('Change', 'onMailerBeforeAdminResetPasswordSend');
      expect((await call('POST', '/api/admins/request-password-reset', { body: { email: 'test2@example.com' } })).status).toBe(204);
      expect((await smtp.waitFor((m) => m.to.includes('test2@example.com'))).subject).toBe('Subject from a hook');
      await waitFor('onModelAfterUpdate');
      expect(await probe()).toMatchObject({ admin: { id: ADMIN2 }, message: { to: ['test2@example.com'], subject: 'Reset admin password' }, meta: ['token'] });
      await mode('Probe', 'none');
      await mode('Change', 'none');
      await restoreAdmins();
    });

    it("a handler's changes: e.admin and e.token in the answer, saved where 0.22 saves them (unvalidated); e.result and e.admins; the settings", async () => {
      const signedIn = await act('X-Admin-Change', 'onAdminAfterAuthWithPasswordRequest', 'POST', '/api/admins/auth-with-password', signIn());
      expect(signedIn.body.admin.email).toBe('changed-by-a-hook@example.com');
      expect((await adminRow(ADMIN1)).email).toBe('test@example.com');
      expect((await act('X-Admin-Change', 'onAdminAuthRequest', 'POST', '/api/admins/auth-refresh', { token: T.admin })).body.token).toBe('token-from-a-hook');
      // a custom admin look-up in the before hook: its admin is the one whose password is checked
      const swapped = await act('X-Admin-Swap', 'onAdminBeforeAuthWithPasswordRequest', 'POST', '/api/admins/auth-with-password', signIn('missing@example.com', 'any password at all'));
      expect([swapped.status, swapped.body.admin?.id]).toEqual([200, ADMIN2]);
      const listed = await act('X-Admin-Change', 'onAdminsListRequest', 'GET', '/api/admins?sort=email', { token: T.admin });
      expect(listed.body.totalItems).toBe(99);
      expect(listed.body.items.map((a: { email: string }) => a.email)).toEqual(['test3@example.com', 'test@example.com']);
      // before the save: written (not validated again, as in 0.22); a model hook's change too
      const updated = await act('X-Admin-Change', 'onAdminBeforeUpdateRequest', 'PATCH', `/api/admins/${ADMIN2}`, { token: T.admin, body: { avatar: 4 } });
      expect(updated.body).toMatchObject({ id: ADMIN2, email: 'changed-by-a-hook@example.com', avatar: 4 });
      expect(await adminRow(ADMIN2)).toMatchObject({ email: 'changed-by-a-hook@example.com' });
      await mode('Change', 'onModelBeforeUpdate');
      expect((await call('PATCH', `/api/admins/${ADMIN2}`, { token: T.admin, body: { avatar: 4 } })).body.avatar).toBe(9);
      expect((await adminRow(ADMIN2)).avatar).toBe(9);
      await mode('Change', 'none');
      await restoreAdmins();
      // the settings: the answer, and what is saved
      const name = await appName();
      expect((await act('X-Admin-Change', 'onSettingsListRequest', 'GET', '/api/settings', { token: T.admin })).body.meta.appName).toBe('Named by a hook');
      expect(await appName()).toBe(name);
      const saved = await act('X-Admin-Change', 'onSettingsBeforeUpdateRequest', 'PATCH', '/api/settings', { token: T.admin, body: { meta: { appName: 'from the request' } } });
      expect(saved.body.meta.appName).toBe('Saved by a hook');
      expect(await appName()).toBe('Saved by a hook');
      await call('PATCH', '/api/settings', { token: T.admin, body: { meta: { appName: name } } });
    });

    it('return false: nothing after it runs (no save, no mail); the answer is 200 with no body (204 for the reset request)', async () => {
      const stopped = await act('X-Stop-Hook', 'onAdminBeforeCreateRequest', 'POST', '/api/admins', { token: T.admin, body: NEW_ADMIN });
      expect([stopped.status, stopped.body]).toEqual([200, null]);
      expect(await recorded()).toEqual(['onAdminBeforeCreateRequest']);
      expect((await call('GET', '/api/admins', { token: T.admin })).body.totalItems).toBe(3);
      const name = await appName();
      const settings = await act('X-Stop-Hook', 'onSettingsBeforeUpdateRequest', 'PATCH', '/api/settings', { token: T.admin, body: { meta: { appName: 'not saved' } } });
      expect([settings.status, settings.body]).toEqual([200, null]);
      expect(await appName()).toBe(name);
      const reset = await act('X-Stop-Hook', 'onAdminBeforeRequestPasswordResetRequest', 'POST', '/api/admins/request-password-reset', { body: { email: 'test3@example.com' } });
      expect(reset.status).toBe(204);
      await new Promise((r) => setTimeout(r, 300));
      expect(await recorded()).toEqual(['onAdminBeforeRequestPasswordResetRequest']);
      // a model hook's false skips the write; the flow goes on as if it was made (0.22's Dao)
      await call('DELETE', '/__events');
      await mode('Stop', 'onModelBeforeDelete');
      expect((await call('DELETE', `/api/admins/${ADMIN2}`, { token: T.admin })).status).toBe(204);
      expect(await recorded()).toEqual(['onAdminBeforeDeleteRequest', 'onAdminAfterDeleteRequest']);
      expect((await adminRow(ADMIN2)).id).toBe(ADMIN2);
      await mode('Stop', 'none');
      await restoreAdmins();
    });

    it('a response a handler writes is the answer; the flow still runs to its end', async () => {
      const refreshed = await act('X-Answer-Hook', 'onAdminAfterAuthRefreshRequest', 'POST', '/api/admins/auth-refresh', { token: T.admin });
      expect([refreshed.status, refreshed.body]).toEqual([418, { answeredBy: 'onAdminAfterAuthRefreshRequest' }]);
      expect(await recorded()).toEqual(['onAdminBeforeAuthRefreshRequest', 'onAdminAfterAuthRefreshRequest', 'onAdminAuthRequest']);
      const deleted = await act('X-Answer-Hook', 'onAdminBeforeDeleteRequest', 'DELETE', `/api/admins/${ADMIN2}`, { token: T.admin });
      expect(deleted.status).toBe(418);
      expect((await call('GET', `/api/admins/${ADMIN2}`, { token: T.admin })).status).toBe(404);
      await restoreAdmins();
      const settings = await act('X-Answer-Hook', 'onSettingsListRequest', 'GET', '/api/settings', { token: T.admin });
      expect([settings.status, settings.body]).toEqual([418, { answeredBy: 'onSettingsListRequest' }]);
      const reset = await act('X-Answer-Hook', 'onAdminBeforeRequestPasswordResetRequest', 'POST', '/api/admins/request-password-reset', { body: { email: 'test3@example.com' } });
      expect(reset.status).toBe(418);
      await waitFor('onModelAfterUpdate');
      await restoreAdmins();
    });

    it("a thrown error answers as 0.22 answers it (the reset request 204 whatever); a model hook's error fails the write with the flow's message", async () => {
      const refused = await act('X-Throw-Hook', 'onAdminBeforeUpdateRequest', 'PATCH', `/api/admins/${ADMIN2}`, { token: T.admin, body: { avatar: 4 } });
      expect([refused.status, refused.body]).toEqual([403, { code: 403, message: 'Refused by onAdminBeforeUpdateRequest.', data: {} }]);
      expect((await adminRow(ADMIN2)).avatar).toBe(2);
      const name = await appName();
      const settings = await act('X-Throw-Hook', 'onSettingsBeforeUpdateRequest', 'PATCH', '/api/settings', { token: T.admin, body: { meta: { appName: 'not saved' } } });
      expect([settings.status, settings.body.message]).toEqual([403, 'Refused by onSettingsBeforeUpdateRequest.']);
      expect(await appName()).toBe(name);
      const reset = await act('X-Throw-Hook', 'onAdminBeforeRequestPasswordResetRequest', 'POST', '/api/admins/request-password-reset', { body: { email: 'test3@example.com' } });
      expect(reset.status).toBe(204);
      await call('DELETE', '/__events');
      await call('POST', '/__events/fail/onModelBeforeCreate');
      const created = await call('POST', '/api/admins', { token: T.admin, body: NEW_ADMIN });
      expect(created.body).toEqual({ code: 400, message: 'Failed to create admin.', data: {} });
      await call('POST', '/__events/fail/onModelBeforeUpdate');
      const saved = await call('PATCH', '/api/settings', { token: T.admin, body: { meta: { appName: 'not saved' } } });
      expect(saved.body).toEqual({ code: 400, message: 'An error occurred while submitting the form.', data: {} });
      await call('POST', '/__events/fail/onModelAfterDelete');
      // (0.22's Dao.Delete ignores an after-delete error)
      expect((await call('DELETE', `/api/admins/${ADMIN2}`, { token: T.admin })).status).toBe(204);
      await call('POST', '/__events/fail/none');
      expect((await call('GET', '/api/admins', { token: T.admin })).body.totalItems).toBe(2);
      expect(await appName()).toBe(name);
      await restoreAdmins();
    });

    it('a handler that puts something other than an admin in e.admin gets a clean 400 (nothing created)', async () => {
      for (const [hook, method, url, body, token] of [
        ['onAdminBeforeAuthWithPasswordRequest', 'POST', '/api/admins/auth-with-password', signIn().body, undefined],
        ['onAdminBeforeCreateRequest', 'POST', '/api/admins', NEW_ADMIN, T.admin],
        ['onAdminAfterUpdateRequest', 'PATCH', `/api/admins/${ADMIN2}`, { avatar: 4 }, T.admin],
        ['onAdminViewRequest', 'GET', `/api/admins/${ADMIN2}`, undefined, T.admin],
      ] as const) {
        const res = await act('X-Admin-Garble', hook, method, url, { body, token });
        expect([res.status, res.body], hook).toEqual([400, { code: 400, message: 'Something went wrong while processing your request.', data: {} }]);
      }
      expect((await call('GET', '/api/admins', { token: T.admin })).body.totalItems).toBe(3);
      await restoreAdmins();
    });
  });
});
