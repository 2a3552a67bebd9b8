// Email verification: the mail with a verification token, and its confirmation.
import { logBackgroundError } from '../../services/request-log';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { updateAuthRow, type AuthRow } from '../../records/auth-store';
import { findAuthRecordByToken } from '../../records/auth-tokens';
import { decodeJwtUnverified } from '../../services/tokens';
import { badRequest } from '../../core/errors';
import { bodyErrors, fieldFailure, validateBody } from '../../core/body-validator';
import { bindForm } from '../form-bind';
import {
  AUTH_ROUTES,
  COLLECTION_MISMATCH,
  INVALID_TOKEN,
  isVerified,
  LOAD_FAILED,
  loadAuthCollection,
  sendVerification,
  VALIDATE_FAILED,
} from './shared';

export function registerVerification(app: FastifyInstance, ctx: AppContext): void {
  const base = AUTH_ROUTES;

  app.post(`${base}/request-verification`, async (req, reply) => {
    const collection = loadAuthCollection(ctx, req);
    const form = bindForm(req, { email: 'string' }, LOAD_FAILED);
    validateBody('requests/records/request-verification', form, {}, VALIDATE_FAILED);

    // 204 whatever happens next: the endpoint must not tell which emails have accounts
    void sendVerification(ctx, collection, String(form.email)).catch((err) =>
      logBackgroundError(ctx, 'Failed to send verification email', err, { type: 'mail' }),
    );
    return reply.status(204).send();
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

    if (!isVerified(target.row)) {
      ctx.transaction(() => {
        updateAuthRow(ctx, collection, target.row.id, { verified: true });
        ctx.externalAuths.deleteOf(collection.id, target.row.id);
      });
    }
    return reply.status(204).send();
  });
}
