// /api/settings (admin only): read redacted, PATCH-merge, validate with the schema files and save,
// send a test email, test the S3 connection, sign an Apple client secret.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { sendRecordTemplateMail, type RecordMailTemplate } from '../services/mailer';
import { newTokenKey } from '../services/passwords';
import { appleClientSecret } from '../services/apple-secret';
import { s3ErrorMessage, testS3Connection } from '../services/s3';
import { mergePatch, SettingsPatchError } from '../services/settings-merge';
import { redact } from '../services/settings-redact';
import { schemaValidator } from '../core/schema-validator';
import { validateSettings } from '../services/settings-validate';
import { newRecordEmailChangeToken, newRecordPasswordResetToken, newRecordVerificationToken } from '../services/tokens';
import { badRequest } from '../core/errors';
import { validateBody } from '../core/body-validator';
import { bindForm, readBody, type FormSpec } from './form-bind';
import { requireAdmin } from './guards';

const LOAD_FAILED = 'An error occurred while loading the submitted data.';
const TEST_EMAIL_SCHEMA = 'settings/test-email';
const APPLE_SECRET_SCHEMA = 'settings/apple-client-secret';

export function registerSettings(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/settings', async (req) => {
    requireAdmin(req);
    return redact(ctx.settings.get());
  });

  app.patch('/api/settings', async (req) => {
    requireAdmin(req);
    const body = readBody(req, settingsForm(ctx), LOAD_FAILED) ?? {};
    let next;
    try {
      next = mergePatch(ctx.settings.get(), body);
    } catch (err) {
      if (err instanceof SettingsPatchError) throw badRequest(LOAD_FAILED, err.errors);
      throw err;
    }
    // Each section the patch touches is checked with its schema file; nothing is stored on errors.
    const errors = validateSettings(next, Object.keys(body as object));
    if (Object.keys(errors).length) throw badRequest('An error occurred while submitting the form.', errors);
    ctx.settings.save(next);
    return redact(next);
  });

  app.post('/api/settings/test/email', async (req, reply) => {
    requireAdmin(req);
    const form = bindForm(req, { email: 'string', template: 'string' }, LOAD_FAILED);
    const errors = schemaValidator(TEST_EMAIL_SCHEMA).validate(form);
    if (Object.keys(errors).length) throw badRequest('Failed to send the test email.', errors);

    // 0.22 mails a throw-away auth record, so the links carry well-formed but useless tokens.
    const settings = ctx.settings.get();
    const to = String(form.email);
    const fake = { id: '__pb_test_id__', tokenKey: newTokenKey(), collectionId: '__pb_test_collection_id__', email: to };
    const template = form.template as RecordMailTemplate;
    const token =
      template === 'verification'
        ? newRecordVerificationToken(settings, fake)
        : template === 'password-reset'
          ? newRecordPasswordResetToken(settings, fake)
          : newRecordEmailChangeToken(settings, fake, to);
    try {
      await sendRecordTemplateMail(settings, template, to, token);
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

/** 0.22's settings form: every top-level key is a struct, so a form sets it only through `@jsonPayload`. */
function settingsForm(ctx: AppContext): FormSpec {
  return Object.fromEntries(Object.keys(ctx.settings.get()).map((key) => [key, 'json']));
}
