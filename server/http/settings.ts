// /api/settings (admin only): read redacted, PATCH-merge and save, and send a test email.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { sendRecordTemplateMail, type RecordMailTemplate } from '../services/mailer';
import { newTokenKey } from '../services/passwords';
import { mergePatch, redact, SettingsPatchError } from '../services/settings';
import { validateSettings } from '../services/settings-validate';
import { newRecordEmailChangeToken, newRecordPasswordResetToken, newRecordVerificationToken } from '../services/tokens';
import { badRequest } from './errors';
import { email, length, oneOf, required, validateFields } from './field-rules';
import { bindForm } from './form-bind';
import { requireAdmin } from './guards';

const LOAD_FAILED = 'An error occurred while loading the submitted data.';
const TEST_TEMPLATES: RecordMailTemplate[] = ['verification', 'password-reset', 'email-change'];

export function registerSettings(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/settings', async (req) => {
    requireAdmin(req);
    return redact(ctx.settings.get());
  });

  app.patch('/api/settings', async (req) => {
    requireAdmin(req);
    let next;
    try {
      next = mergePatch(ctx.settings.get(), req.body ?? {});
    } catch (err) {
      if (err instanceof SettingsPatchError) throw badRequest(LOAD_FAILED, err.errors);
      throw err;
    }
    const errors = validateSettings(next);
    if (Object.keys(errors).length) throw badRequest(undefined, errors);
    ctx.settings.save(next);
    return redact(next);
  });

  app.post('/api/settings/test/email', async (req, reply) => {
    requireAdmin(req);
    const form = bindForm(req, { email: 'string', template: 'string' }, LOAD_FAILED);
    const errors = validateFields(form, {
      email: [required, length(1, 255), email],
      template: [required, oneOf(TEST_TEMPLATES)],
    });
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
}
