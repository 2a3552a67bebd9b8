// /api/settings (admin only): read redacted, PATCH-merge, validate with the schema files and save,
// send a test email, test the S3 connection, sign an Apple client secret. Reading and saving fire
// 0.22's request hooks (onSettingsListRequest with e.redactedSettings, which its handlers may
// change; onSettings{Before,After}UpdateRequest with e.oldSettings and e.newSettings, what a
// before-handler changes in e.newSettings being saved, unvalidated as in 0.22), the save the model
// hooks of its `_params` row (../services/settings-save.ts), the test email the mailer hooks.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { RecordMailTemplate } from '../services/mailer';
import { newTokenKey } from '../services/passwords';
import { appleClientSecret } from '../services/apple-secret';
import { s3ErrorMessage, testS3Connection } from '../services/s3';
import { mergePatch, SettingsPatchError } from '../services/settings-merge';
import { redact } from '../services/settings-redact';
import { schemaValidator } from '../core/schema-validator';
import { validateSettings } from '../services/settings-validate';
import { saveSettings } from '../services/settings-save';
import type { Settings } from '../services/settings';
import { mailRecordEmailChange, mailRecordPasswordReset, mailRecordVerification } from '../records/auth-mails';
import { recordFromRow, type RecordModel } from '../records/model';
import type { Collection } from '../collections/model';
import { newCollection } from '../../src/lib/collections/payload';
import { isObject } from '../../src/lib/json';
import { badRequest, fieldError, forbidden } from '../core/errors';
import { mayPatchSettings, visibleSettings } from '../roles/settings-areas';
import { secretsSentElsewhere } from '../roles/secret-destinations';
import { settingsSections } from '../services/settings-index';
import { requireArea, scopedAccess } from './permissions';
import { validateBody } from '../core/body-validator';
import { bindForm, readBody, type FormSpec } from './form-bind';
import { requireAdmin } from './guards';
import { RequestHooks } from './request-hooks';

const LOAD_FAILED = 'An error occurred while loading the submitted data.';
const TEST_EMAIL_SCHEMA = 'settings/test-email';
const APPLE_SECRET_SCHEMA = 'settings/apple-client-secret';
const SUBMIT_FAILED = 'An error occurred while submitting the form.';

export function registerSettings(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/settings', async (req) => {
    requireAdmin(req);
    const redacted = redact(ctx.settings.get());
    const hooks = new RequestHooks(ctx, req);
    if (!hooks.has('onSettingsListRequest')) return forAccess(req, redacted);
    const left = await hooks.run('onSettingsListRequest', { redactedSettings: redacted });
    hooks.answerIfWritten();
    const answer = left?.redactedSettings ?? redacted;
    // goja refuses to put anything but settings there (a handler's error: a plain 400)
    if (!isObject(answer)) throw badRequest(undefined, {}, 'a hook handler set e.redactedSettings to a value that is not settings');
    return forAccess(req, answer);
  });

  app.patch('/api/settings', async (req) => {
    requireAdmin(req);
    const body = readBody(req, settingsForm(ctx), LOAD_FAILED) ?? {};
    const access = scopedAccess(req);
    if (access && !mayPatchSettings(settingsSections(), body as Record<string, unknown>, access)) throw forbidden();
    let next;
    try {
      next = mergePatch(ctx.settings.get(), body);
    } catch (err) {
      if (err instanceof SettingsPatchError) throw badRequest(LOAD_FAILED, err.errors);
      throw err;
    }
    // Each section the patch touches is checked with its schema file; nothing is stored on errors.
    const errors = validateSettings(next, Object.keys(body as object));
    if (Object.keys(errors).length) throw badRequest(SUBMIT_FAILED, errors);
    if (access) requireSecretsRetyped(ctx.settings.get(), next);
    const oldSettings = ctx.settings.get();
    const hooks = new RequestHooks(ctx, req);
    return hooks.guard(async () => {
      const before = await hooks.run('onSettingsBeforeUpdateRequest', { oldSettings, newSettings: next });
      const newSettings = before && 'newSettings' in before ? settingsLeft(next, before.newSettings) : next;
      await saveSettings(ctx, newSettings, SUBMIT_FAILED);
      await hooks.run('onSettingsAfterUpdateRequest', { oldSettings, newSettings });
      hooks.answerIfWritten();
      return forAccess(req, redact(ctx.settings.get()));
    });
  });

  app.post('/api/settings/test/email', async (req, reply) => {
    requireAdmin(req);
    const form = bindForm(req, { email: 'string', template: 'string' }, LOAD_FAILED);
    const errors = schemaValidator(TEST_EMAIL_SCHEMA).validate(form);
    if (Object.keys(errors).length) throw badRequest('Failed to send the test email.', errors);

    // 0.22 mails a throw-away auth record, so the links carry well-formed but useless tokens (and
    // the record mailer hooks fire for it)
    const to = String(form.email);
    const record = testRecord(to);
    const template = form.template as RecordMailTemplate;
    try {
      if (template === 'verification') await mailRecordVerification(ctx, record);
      else if (template === 'password-reset') await mailRecordPasswordReset(ctx, record);
      else await mailRecordEmailChange(ctx, record, to);
    } catch (err) {
      throw badRequest(`Failed to send the test email. Raw error: \n${err instanceof Error ? err.message : String(err)}`);
    }
    return reply.status(204).send();
  });

  app.post('/api/settings/apple/generate-client-secret', async (req) => {
    requireAdmin(req);
    const form = bindForm(req, { clientId: 'string', teamId: 'string', keyId: 'string', privateKey: 'string', duration: 'int' }, LOAD_FAILED);
    // Go's Required treats a 0 duration as blank; the key is trimmed only for parsing, as in 0.22
    const errors = schemaValidator(APPLE_SECRET_SCHEMA).validate({ ...form, duration: form.duration === 0 ? undefined : form.duration });
    if (Object.keys(errors).length) throw badRequest('Invalid client secret data.', errors);
    try {
      const secret = await appleClientSecret({
        clientId: String(form.clientId),
        teamId: String(form.teamId),
        keyId: String(form.keyId),
        privateKey: String(form.privateKey).trim(),
        duration: Number(form.duration),
      });
      return { secret };
    } catch (err) {
      throw badRequest(`Failed to generate client secret. Raw error: \n${err instanceof Error ? err.message : String(err)}`);
    }
  });

  app.post('/api/settings/test/s3', async (req, reply) => {
    requireAdmin(req);
    const form = bindForm(req, { filesystem: 'string' }, LOAD_FAILED);
    validateBody('requests/settings/test-s3', form, {}, 'Failed to test the S3 filesystem.');
    requireArea(req, form.filesystem === 'backups' ? 'backups' : 'storage');

    const settings = ctx.settings.get();
    const backups = form.filesystem === 'backups';
    const cfg = backups ? settings.backups.s3 : settings.s3;
    const fail = (raw: string) => badRequest(`Failed to test the S3 filesystem. Raw error: \n${raw}`);
    if (!cfg.enabled) throw fail(`S3 ${backups ? 'backups' : 'storage'} filesystem is not enabled.`);
    try {
      await testS3Connection(cfg);
    } catch (err) {
      throw fail(s3ErrorMessage(err));
    }
    return reply.status(204).send();
  });
}

/**
 * e.newSettings as the handlers left it, over `next` (each key of the settings keeps its type);
 * a value that is no settings document is a handler's mistake, answered with a plain 400.
 */
function settingsLeft(next: Settings, left: unknown): Settings {
  if (!isObject(left)) throw badRequest(undefined, {}, 'a hook handler set e.newSettings to a value that is not settings');
  try {
    return mergePatch(next, left);
  } catch (err) {
    if (err instanceof SettingsPatchError) throw badRequest(SUBMIT_FAILED, err.errors);
    throw err;
  }
}

/** The throw-away auth record of 0.22's test email (forms/test_email_send.go). */
function testRecord(email: string): RecordModel {
  const collection: Collection = { ...newCollection('auth'), id: '__pb_test_collection_id__', name: '__pb_test_collection_name__', options: {} };
  return recordFromRow(collection, { id: '__pb_test_id__', username: 'pb_test', email, tokenKey: newTokenKey() });
}

/** 0.22's settings form: every top-level key is a struct, so a form sets it only through `@jsonPayload`. */
function settingsForm(ctx: AppContext): FormSpec {
  return Object.fromEntries(Object.keys(ctx.settings.get()).map((key) => [key, 'json']));
}

/** The settings a scoped admin's role shows (all of them for everyone else). */
function forAccess(req: FastifyRequest, doc: Record<string, unknown>): Record<string, unknown> {
  const access = scopedAccess(req);
  return access ? visibleSettings(settingsSections(), doc, access) : doc;
}

const SECRET_AGAIN = fieldError('validation_secret_required', 'Enter it again: your admin role may not send the stored secret to a new address.');

/** 400 on each secret a scoped admin's change would carry, unchanged, to a new host, endpoint or URL (roles/secret-destinations.ts). */
function requireSecretsRetyped(before: Settings, after: Settings): void {
  const paths = secretsSentElsewhere(before, after);
  if (!paths.length) return;
  const errors: Record<string, unknown> = {};
  for (const path of paths) {
    let node = errors;
    for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
    node[path[path.length - 1]] = SECRET_AGAIN;
  }
  throw badRequest(SUBMIT_FAILED, errors);
}
