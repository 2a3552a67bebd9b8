// Email verification: the mail with a verification token, and its confirmation.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import type { AuthRow } from '../../records/auth-store';
import { saveAuthRecord } from '../../records/auth-writes';
import { recordFromRow } from '../../records/model';
import { findAuthRecordByToken } from '../../records/auth-tokens';
import { decodeJwtUnverified } from '../../services/tokens';
import { badRequest } from '../../core/errors';
import { bodyErrors, fieldFailure, validateBody } from '../../core/body-validator';
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
  sendVerification,
  VALIDATE_FAILED,
  verificationTarget,
} from './shared';

export function registerVerification(app: FastifyInstance, ctx: AppContext): void {
  const base = AUTH_ROUTES;

  app.post(`${base}/request-verification`, async (req, reply) => {
    const collection = loadAuthCollection(ctx, req);
    const form = bindForm(req, { email: 'string' }, LOAD_FAILED);
    validateBody('requests/records/request-verification', form, {}, VALIDATE_FAILED);

    const row = verificationTarget(ctx, collection, String(form.email));
    return answerMailRequest(ctx, req, reply, collection, row, 'Verification', sendVerification, 'Failed to send verification email');
  });

  app.post(`${base}/confirm-verification`, async (req, reply) => {
    const collection = loadAuthCollection(ctx, req);
    const form = bindForm(req, { token: 'string' }, LOAD_FAILED);
    let found: { row: AuthRow } | null = null;
    const errors = bodyErrors('requests/records/confirm-verification', form, {
      token: (value) => {
        const token = String(value);
        const claims = decodeJwtUnverified(token);
        const claimEmail = typeof claims?.email === 'string' ? claims.email : '';
        if (!claimEmail) return fieldFailure('validation_invalid_token_claims', 'Missing email token claim.');
        const record = findAuthRecordByToken(ctx, token, 'recordVerificationToken');
        if (!record) return INVALID_TOKEN;
        if (record.collection.id !== collection.id) return COLLECTION_MISMATCH;
        if (String(record.row.email ?? '') !== claimEmail) {
          return fieldFailure('validation_token_email_mismatch', "The record email doesn't match with the requested token claims.");
        }
        found = { row: record.row };
        return null;
      },
    });
    const target = found as { row: AuthRow } | null;
    if (Object.keys(errors).length || !target) throw badRequest(undefined, errors);

    // the record as the hooks see it (verified); the save (and the drop of its OAuth2 links) only
    // when it was not verified yet
    const wasVerified = isVerified(target.row);
    const record = recordFromRow(collection, target.row);
    record.data.verified = true;
    const hooks = new AuthHooks(ctx, req, collection);
    return hooks.guard(async () => {
      await hooks.run('onRecordBeforeConfirmVerificationRequest', { record });
      if (!wasVerified) {
        await saveAuthRecord(ctx, record, target.row, 'An error occurred while submitting the form.', () => ctx.externalAuths.deleteOf(collection.id, target.row.id));
      }
      await hooks.run('onRecordAfterConfirmVerificationRequest', { record });
      hooks.answerIfWritten();
      return reply.status(204).send();
    });
  });
}
