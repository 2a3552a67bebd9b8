// Email change: the signed-in record asks for a new address, the mail to it confirms the change
// (and drops the account's OAuth2 links).
import { logBackgroundError } from '../../services/request-log';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { isEmailTaken, type AuthRow } from '../../records/auth-store';
import { saveAuthRecord } from '../../records/auth-writes';
import { findAuthRecordByToken } from '../../records/auth-tokens';
import { MailerDisabledError } from '../../services/mailer';
import { mailRecordEmailChange } from '../../records/auth-mails';
import { recordFromRow } from '../../records/model';
import { newTokenKey, verifyPassword } from '../../services/passwords';
import { decodeJwtUnverified } from '../../services/tokens';
import { badRequest } from '../../core/errors';
import { bodyErrors, fieldFailure, validateBody, type FieldError } from '../../core/body-validator';
import { sortErrorTree } from '../../../src/lib/schema/error-tree';
import { bindForm } from '../form-bind';
import {
  AUTH_ROUTES,
  AuthHooks,
  COLLECTION_MISMATCH,
  dummyHash,
  emailDomainError,
  INVALID_TOKEN,
  LOAD_FAILED,
  loadAuthCollection,
  requireSameCollectionRecord,
} from './shared';

export function registerEmailChange(app: FastifyInstance, ctx: AppContext): void {
  const base = AUTH_ROUTES;

  app.post(`${base}/request-email-change`, async (req, reply) => {
    const collection = loadAuthCollection(ctx, req);
    const row = requireSameCollectionRecord(ctx, req, collection);
    const form = bindForm(req, { newEmail: 'string' }, LOAD_FAILED);
    validateBody('requests/records/request-email-change', form, {
      newEmail: (v) =>
        emailDomainError(collection, String(v)) ??
        (isEmailTaken(ctx, collection, String(v)) ? fieldFailure('validation_record_email_invalid', 'User email already exists or it is invalid.') : null),
    });

    const newEmail = String(form.newEmail);
    const record = recordFromRow(collection, row);
    const hooks = new AuthHooks(ctx, req, collection);
    return hooks.guard(async () => {
      await hooks.run('onRecordBeforeRequestEmailChangeRequest', { record });
      try {
        await mailRecordEmailChange(ctx, record, newEmail);
      } catch (err) {
        // SMTP off: 0.22 hands the mail to the local sendmail and answers 204; we have no sendmail,
        // so the failure is logged (console and logs.db) rather than made the client's problem
        if (!(err instanceof MailerDisabledError)) throw badRequest('Failed to request email change.', {}, err instanceof Error ? err.message : String(err));
        logBackgroundError(ctx, 'Failed to send email change email', err, { type: 'mail' });
      }
      await hooks.run('onRecordAfterRequestEmailChangeRequest', { record });
      hooks.answerIfWritten();
      return reply.status(204).send();
    });
  });

  app.post(`${base}/confirm-email-change`, async (req, reply) => {
    const collection = loadAuthCollection(ctx, req);
    const form = bindForm(req, { token: 'string', password: 'string' }, LOAD_FAILED);
    const token = typeof form.token === 'string' ? form.token : '';

    // token checks (0.22's parseToken), in 0.22's order
    let tokenError: FieldError | null = null;
    let row: AuthRow | null = null;
    let newEmail = '';
    if (token !== '') {
      const claims = decodeJwtUnverified(token);
      newEmail = typeof claims?.newEmail === 'string' ? claims.newEmail : '';
      if (!newEmail) {
        tokenError = fieldFailure('validation_invalid_token_payload', 'Invalid token payload - newEmail must be set.');
      } else if (isEmailTaken(ctx, collection, newEmail)) {
        tokenError = fieldFailure('validation_existing_token_email', `The new email address is already registered: ${newEmail}`);
      } else {
        const record = findAuthRecordByToken(ctx, token, 'recordEmailChangeToken');
        if (!record) tokenError = INVALID_TOKEN;
        else if (record.collection.id !== collection.id) tokenError = COLLECTION_MISMATCH;
        else row = record.row;
      }
    }
    const errors = bodyErrors('requests/records/confirm-email-change', form, { token: () => tokenError });
    if (!errors.password && typeof form.password === 'string' && form.password !== '') {
      const hash = row ? row.passwordHash : await dummyHash();
      const ok = (await verifyPassword(form.password, hash)) && row !== null;
      if (!ok) errors.password = fieldFailure('validation_invalid_password', 'Missing or invalid auth record password.');
    }
    const target = row as AuthRow | null;
    if (Object.keys(errors).length || !target) throw badRequest(undefined, sortErrorTree(errors));

    // the record as the hooks see it: the new address, verified, its old tokens revoked
    const record = recordFromRow(collection, target);
    record.data.email = newEmail;
    record.data.verified = true;
    record.data.tokenKey = newTokenKey();
    const hooks = new AuthHooks(ctx, req, collection);
    return hooks.guard(async () => {
      await hooks.run('onRecordBeforeConfirmEmailChangeRequest', { record });
      await saveAuthRecord(ctx, record, target, 'Failed to confirm email change.', () => {
        if (isEmailTaken(ctx, collection, String(record.data.email ?? ''), target.id)) {
          throw badRequest(undefined, {
            token: fieldFailure('validation_existing_token_email', `The new email address is already registered: ${newEmail}`),
          });
        }
        ctx.externalAuths.deleteOf(collection.id, target.id);
      });
      await hooks.run('onRecordAfterConfirmEmailChangeRequest', { record });
      hooks.answerIfWritten();
      return reply.status(204).send();
    });
  });
}
