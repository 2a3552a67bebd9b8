// Password reset by mail: the reset mail and its confirmation with a new password.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { authOptions, findAuthRowById, type AuthRow } from '../../records/auth-store';
import { saveAuthRecord } from '../../records/auth-writes';
import { recordFromRow } from '../../records/model';
import { findAuthRecordByToken } from '../../records/auth-tokens';
import { hashPassword, newTokenKey } from '../../services/passwords';
import { badRequest } from '../../core/errors';
import { bodyErrorsWithMinLength, validateBody } from '../../core/body-validator';
import { bindForm } from '../form-bind';
import {
  answerMailRequest,
  AUTH_ROUTES,
  AuthHooks,
  COLLECTION_MISMATCH,
  INVALID_TOKEN,
  isVerified,
  LOAD_FAILED,
  loadAuthCollection,
  passwordResetTarget,
  sendPasswordReset,
  VALIDATE_FAILED,
} from './shared';

/** bcrypt reads no more of a password than this. */
const BCRYPT_MAX_BYTES = 72;

export function registerPasswordReset(app: FastifyInstance, ctx: AppContext): void {
  const base = AUTH_ROUTES;

  app.post(`${base}/request-password-reset`, async (req, reply) => {
    const collection = loadAuthCollection(ctx, req);
    const opts = authOptions(collection);
    if (!opts.allowEmailAuth && !opts.allowUsernameAuth) {
      throw badRequest('The collection is not configured to allow password authentication.');
    }
    const form = bindForm(req, { email: 'string' }, LOAD_FAILED);
    validateBody('requests/records/request-password-reset', form, {}, VALIDATE_FAILED);

    const row = passwordResetTarget(ctx, collection, String(form.email));
    return answerMailRequest(ctx, req, reply, collection, row, 'PasswordReset', sendPasswordReset, 'Failed to send password reset email');
  });

  app.post(`${base}/confirm-password-reset`, async (req, reply) => {
    const collection = loadAuthCollection(ctx, req);
    const form = bindForm(req, { token: 'string', password: 'string', passwordConfirm: 'string' }, LOAD_FAILED);
    let target: AuthRow | null = null;
    let tokenEmail = '';
    // the password's minimum is the collection's (0.22: Length(minPasswordLength, 100))
    const minimum = { property: 'password', min: authOptions(collection).minPasswordLength };
    const errors = bodyErrorsWithMinLength('requests/records/confirm-password-reset', form, minimum, {
      token: (value) => {
        const record = findAuthRecordByToken(ctx, String(value), 'recordPasswordResetToken');
        if (!record) return INVALID_TOKEN;
        if (record.collection.id !== collection.id) return COLLECTION_MISMATCH;
        target = record.row;
        tokenEmail = typeof record.claims.email === 'string' ? record.claims.email : '';
        return null;
      },
    });
    const row = target as AuthRow | null;
    if (Object.keys(errors).length || !row) throw badRequest(undefined, errors);

    // 0.22 accepts up to 100 characters here, then its bcrypt refuses more than 72 bytes (a plain
    // 400); a longer password is never stored silently truncated
    if (Buffer.byteLength(String(form.password)) > BCRYPT_MAX_BYTES) throw badRequest(undefined, {}, 'bcrypt: password length exceeds 72 bytes');
    // the record as the hooks see it: the new password set, verified when the reset mail reached
    // the address in the token (that proves it, if it is still the record's)
    const record = recordFromRow(collection, row);
    record.data.passwordHash = await hashPassword(String(form.password));
    record.data.tokenKey = newTokenKey();
    record.data.lastResetSentAt = '';
    const verifyNow = !isVerified(row) && tokenEmail !== '' && String(row.email ?? '') === tokenEmail;
    if (verifyNow) record.data.verified = true;

    const hooks = new AuthHooks(ctx, req, collection);
    return hooks.guard(async () => {
      await hooks.run('onRecordBeforeConfirmPasswordResetRequest', { record });
      await saveAuthRecord(ctx, record, row, 'Failed to set new password.', () => {
        const fresh = findAuthRowById(ctx, collection, row.id);
        if (!fresh || fresh.tokenKey !== row.tokenKey) throw badRequest(undefined, { token: INVALID_TOKEN });
        if (verifyNow) ctx.externalAuths.deleteOf(collection.id, row.id);
      });
      await hooks.run('onRecordAfterConfirmPasswordResetRequest', { record });
      hooks.answerIfWritten();
      return reply.status(204).send();
    });
  });
}
