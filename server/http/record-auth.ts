// Record auth under /api/collections/{collection}/ (PocketBase 0.22's apis/record_auth.go and the
// forms it drives): auth methods, password sign-in and refresh, verification, password reset and
// email change by mail, and the OAuth2 links of a record. Messages, field error codes and status
// codes follow 0.22; beyond it, failed sign-ins are rate limited per IP + collection + identity,
// and an account's OAuth2 links are dropped when its email gets confirmed or changed.
import { logBackgroundError } from '../services/request-log';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Collection } from '../collections/model';
import { findCollection } from '../collections/store';
import { transaction } from '../db/database';
import { nowDateTime } from '../db/layout';
import type { RequestInfo } from '../query/record-resolver';
import {
  authOptions,
  canAccessRecord,
  findAuthRowByEmail,
  findAuthRowById,
  findAuthRowByUsername,
  isEmailTaken,
  ruleAuthOf,
  updateAuthRow,
  type AuthRow,
} from '../records/auth-store';
import { findAuthRecordByToken } from '../records/auth-tokens';
import { deleteExternalAuth, deleteExternalAuthsOf, findExternalAuth, listExternalAuths } from '../records/auth-external';
import { listAuthProviders } from '../records/auth-oauth2';
import { signInWithOAuth2 } from './record-oauth2';
import { expandFetch, expandRecords } from '../records/expand';
import { recordFromRow } from '../records/model';
import { requestInfoOf } from '../records/rules';
import { exportRecord } from '../records/serialize';
import { MailerDisabledError, sendRecordTemplateMail } from '../services/mailer';
import { hashPassword, newTokenKey, verifyPassword } from '../services/passwords';
import { createRateLimiter } from '../services/rate-limit';
import {
  decodeJwtUnverified,
  newRecordAuthToken,
  newRecordEmailChangeToken,
  newRecordPasswordResetToken,
  newRecordVerificationToken,
} from '../services/tokens';
import { ApiError, badRequest, forbidden, notFound, tooManyRequests, unauthorized } from '../core/errors';
import { by, email, equals, fieldFailure, isEmailAddress, length, required, validateFields, type FieldError } from '../core/field-rules';
import { bindForm } from './form-bind';
import { sortKeys } from '../../src/lib/json';

const LOAD_FAILED = 'An error occurred while loading the submitted data.';
const VALIDATE_FAILED = 'An error occurred while validating the form.';

/** Failed sign-ins allowed per IP + collection + identity inside the window before answering 429. */
export const RECORD_SIGN_IN_FAILURE_LIMIT = 5;
export const RECORD_SIGN_IN_WINDOW_MS = 60_000;
/** 0.22 sends at most one verification / reset mail per record every 2 minutes. */
const RESEND_THRESHOLD_MS = 120_000;
/** bcrypt's input limit: longer passwords would be silently truncated. */
const MAX_PASSWORD_LENGTH = 72;

const INVALID_TOKEN = fieldFailure('validation_invalid_token', 'Invalid or expired token.');
const COLLECTION_MISMATCH = fieldFailure('validation_token_collection_mismatch', 'The provided token is for different auth collection.');

type Params = { collection?: string; id?: string; provider?: string };

export function registerRecordAuth(app: FastifyInstance, ctx: AppContext): void {
  const signInFailures = createRateLimiter({ limit: RECORD_SIGN_IN_FAILURE_LIMIT, windowMs: RECORD_SIGN_IN_WINDOW_MS });
  const base = '/api/collections/:collection';

  app.get(`${base}/auth-methods`, async (req) => {
    const collection = loadAuthCollection(ctx, req);
    const opts = authOptions(collection);
    return {
      authProviders: opts.allowOAuth2Auth ? listAuthProviders(ctx.settings.get()) : [],
      usernamePassword: opts.allowUsernameAuth,
      emailPassword: opts.allowEmailAuth,
      onlyVerified: opts.onlyVerified,
    };
  });

  app.post(`${base}/auth-with-password`, async (req, reply) => {
    const collection = loadAuthCollection(ctx, req);
    const form = bindForm(req, { identity: 'string', password: 'string' }, LOAD_FAILED);
    const errors = validateFields(form, {
      identity: [required, length(1, 255)],
      password: [required, length(1, 255)],
    });
    if (Object.keys(errors).length) throw badRequest(undefined, errors);

    const identity = String(form.identity);
    const limiterKey = `${req.ip}|${collection.id}|${identity.toLowerCase()}`;
    const wait = signInFailures.retryAfter(limiterKey);
    if (wait > 0) {
      void reply.header('Retry-After', String(Math.ceil(wait / 1000)));
      throw tooManyRequests('Too many failed sign-in attempts. Please try again later.');
    }

    const opts = authOptions(collection);
    let row: AuthRow | null = null;
    // an identity in email form is only ever an email, anything else only a username
    if (isEmailAddress(identity)) {
      if (opts.allowEmailAuth) row = findAuthRowByEmail(ctx, collection, identity);
    } else if (opts.allowUsernameAuth) {
      row = findAuthRowByUsername(ctx, collection, identity);
    }
    // hash even when nothing matched, so the timing does not tell which accounts exist
    const ok = await verifyPassword(String(form.password), row?.passwordHash ?? (await dummyHash()));
    if (!row || !ok) {
      signInFailures.fail(limiterKey);
      throw badRequest('Failed to authenticate.');
    }
    signInFailures.reset(limiterKey);
    return authResponse(ctx, req, collection, row);
  });

  app.post(`${base}/auth-refresh`, async (req) => {
    const collection = loadAuthCollection(ctx, req);
    const row = requireSameCollectionRecord(ctx, req, collection);
    return authResponse(ctx, req, collection, row);
  });

  app.post(`${base}/auth-with-oauth2`, async (req) => {
    const collection = loadAuthCollection(ctx, req);
    if (!authOptions(collection).allowOAuth2Auth) {
      throw badRequest('The collection is not configured to allow OAuth2 authentication.');
    }
    const { row, meta } = await signInWithOAuth2(ctx, req, collection);
    return { ...(await authResponse(ctx, req, collection, row)), meta };
  });

  app.post(`${base}/request-verification`, async (req, reply) => {
    const collection = loadAuthCollection(ctx, req);
    const form = bindForm(req, { email: 'string' }, LOAD_FAILED);
    const errors = validateFields(form, { email: [required, length(1, 255), email] });
    if (Object.keys(errors).length) throw badRequest(VALIDATE_FAILED, errors);

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
    const errors = validateFields(form, {
      token: [
        required,
        by((value) => {
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
        }),
      ],
    });
    const target = found as { row: AuthRow } | null;
    if (Object.keys(errors).length || !target) throw badRequest(undefined, errors);

    if (!isVerified(target.row)) {
      transaction(ctx.db, () => {
        updateAuthRow(ctx, collection, target.row.id, { verified: true });
        deleteExternalAuthsOf(ctx, collection.id, target.row.id);
      });
    }
    return reply.status(204).send();
  });

  app.post(`${base}/request-password-reset`, async (req, reply) => {
    const collection = loadAuthCollection(ctx, req);
    const opts = authOptions(collection);
    if (!opts.allowEmailAuth && !opts.allowUsernameAuth) {
      throw badRequest('The collection is not configured to allow password authentication.');
    }
    const form = bindForm(req, { email: 'string' }, LOAD_FAILED);
    const errors = validateFields(form, { email: [required, length(1, 255), email] });
    if (Object.keys(errors).length) throw badRequest(VALIDATE_FAILED, errors);

    void sendPasswordReset(ctx, collection, String(form.email)).catch((err) =>
      logBackgroundError(ctx, 'Failed to send password reset email', err, { type: 'mail' }),
    );
    return reply.status(204).send();
  });

  app.post(`${base}/confirm-password-reset`, async (req, reply) => {
    const collection = loadAuthCollection(ctx, req);
    const form = bindForm(req, { token: 'string', password: 'string', passwordConfirm: 'string' }, LOAD_FAILED);
    let target: AuthRow | null = null;
    let tokenEmail = '';
    const errors = validateFields(form, {
      token: [
        required,
        by((value) => {
          const record = findAuthRecordByToken(ctx, String(value), 'recordPasswordResetToken');
          if (!record) return INVALID_TOKEN;
          if (record.collection.id !== collection.id) return COLLECTION_MISMATCH;
          target = record.row;
          tokenEmail = typeof record.claims.email === 'string' ? record.claims.email : '';
          return null;
        }),
      ],
      password: [required, passwordLength(collection)],
      passwordConfirm: [required, equals(form.password)],
    });
    const row = target as AuthRow | null;
    if (Object.keys(errors).length || !row) throw badRequest(undefined, errors);

    const passwordHash = await hashPassword(String(form.password));
    transaction(ctx.db, () => {
      const fresh = findAuthRowById(ctx, collection, row.id);
      if (!fresh || fresh.tokenKey !== row.tokenKey) throw badRequest(undefined, { token: INVALID_TOKEN });
      // a reset mail reached the address in the token: that proves it, if it is still the record's
      const verifyNow = !isVerified(fresh) && tokenEmail !== '' && String(fresh.email ?? '') === tokenEmail;
      updateAuthRow(ctx, collection, row.id, {
        passwordHash,
        tokenKey: newTokenKey(),
        lastResetSentAt: '',
        ...(verifyNow ? { verified: true } : {}),
      });
      if (verifyNow) deleteExternalAuthsOf(ctx, collection.id, row.id);
    });
    return reply.status(204).send();
  });

  app.post(`${base}/request-email-change`, async (req, reply) => {
    const collection = loadAuthCollection(ctx, req);
    const row = requireSameCollectionRecord(ctx, req, collection);
    const form = bindForm(req, { newEmail: 'string' }, LOAD_FAILED);
    const errors = validateFields(form, {
      newEmail: [
        required,
        length(1, 255),
        email,
        by((v) => emailDomainError(collection, String(v))),
        by((v) =>
          isEmailTaken(ctx, collection, String(v))
            ? fieldFailure('validation_record_email_invalid', 'User email already exists or it is invalid.')
            : null,
        ),
      ],
    });
    if (Object.keys(errors).length) throw badRequest(undefined, errors);

    const settings = ctx.settings.get();
    const newEmail = String(form.newEmail);
    const token = newRecordEmailChangeToken(settings, recordKeys(collection, row), newEmail);
    try {
      await sendRecordTemplateMail(settings, 'email-change', newEmail, token);
    } catch (err) {
      // SMTP off: 0.22 hands the mail to the local sendmail and answers 204; we have no sendmail,
      // so the failure is logged (console and logs.db) rather than made the client's problem
      if (err instanceof MailerDisabledError) {
        logBackgroundError(ctx, 'Failed to send email change email', err, { type: 'mail' });
        return reply.status(204).send();
      }
      throw badRequest('Failed to request email change.', {}, err instanceof Error ? err.message : String(err));
    }
    return reply.status(204).send();
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
    const errors = validateFields(form, {
      token: [required, by(() => tokenError)],
      password: [required, length(1, 100)],
    });
    if (!errors.password && typeof form.password === 'string' && form.password !== '') {
      const hash = row ? row.passwordHash : await dummyHash();
      const ok = (await verifyPassword(form.password, hash)) && row !== null;
      if (!ok) errors.password = fieldFailure('validation_invalid_password', 'Missing or invalid auth record password.');
    }
    const target = row as AuthRow | null;
    if (Object.keys(errors).length || !target) throw badRequest(undefined, sortKeys(errors));

    transaction(ctx.db, () => {
      if (isEmailTaken(ctx, collection, newEmail, target.id)) {
        throw badRequest(undefined, {
          token: fieldFailure('validation_existing_token_email', `The new email address is already registered: ${newEmail}`),
        });
      }
      updateAuthRow(ctx, collection, target.id, { email: newEmail, verified: true, tokenKey: newTokenKey() });
      deleteExternalAuthsOf(ctx, collection.id, target.id);
    });
    return reply.status(204).send();
  });

  app.get(`${base}/records/:id/external-auths`, async (req) => {
    const collection = loadAuthCollection(ctx, req);
    const row = requireOwnerOrManager(ctx, req, collection);
    return listExternalAuths(ctx, collection.id, row.id);
  });

  app.delete(`${base}/records/:id/external-auths/:provider`, async (req, reply) => {
    const collection = loadAuthCollection(ctx, req);
    const row = requireOwnerOrManager(ctx, req, collection);
    const provider = (req.params as Params).provider ?? '';
    const link = provider ? findExternalAuth(ctx, collection.id, row.id, provider) : null;
    if (!link) throw notFound('Missing external auth provider relation.');
    deleteExternalAuth(ctx, link.id);
    return reply.status(204).send();
  });
}

// ---------------------------------------------------------------------------------------------
// helpers

/** 0.22's LoadCollectionContext(auth): unknown → 404, another type → 400. */
function loadAuthCollection(ctx: AppContext, req: FastifyRequest): Collection {
  const param = (req.params as Params).collection ?? '';
  const collection = param ? findCollection(ctx, param) : undefined;
  if (!collection) throw notFound();
  if (collection.type !== 'auth') throw badRequest('Unsupported collection type.');
  return collection;
}

const isVerified = (row: Record<string, unknown>) => row.verified === 1 || row.verified === true || row.verified === '1';

const recordKeys = (collection: Collection, row: AuthRow) => ({
  id: row.id,
  tokenKey: row.tokenKey,
  collectionId: collection.id,
  email: String(row.email ?? ''),
});

/**
 * 0.22's RecordAuthResponse: the onlyVerified gate, a new auth token, and the record with its
 * email, expanded (`?expand=`) as the record itself would see it.
 */
async function authResponse(ctx: AppContext, req: FastifyRequest, collection: Collection, row: AuthRow) {
  if (authOptions(collection).onlyVerified && !isVerified(row)) {
    throw new ApiError(403, 'Please verify your email first.');
  }
  const token = newRecordAuthToken(ctx.settings.get(), recordKeys(collection, row));
  const model = recordFromRow(collection, row);
  model.showEmail = true;
  const rawExpand = (req.query as Record<string, unknown> | undefined)?.expand;
  const expand = Array.isArray(rawExpand) ? rawExpand[0] : rawExpand;
  if (typeof expand === 'string' && expand !== '') {
    const info: RequestInfo = { ...requestInfoOf(ctx, req), isAdmin: false, auth: ruleAuthOf(collection, row) };
    await expandRecords(ctx, [model], expand.split(','), expandFetch(ctx, info));
  }
  return { record: exportRecord(model, { isAdmin: false, showEmail: true }), token };
}

/** 0.22's RequireSameContextRecordAuth: a signed-in record of this very collection. */
function requireSameCollectionRecord(ctx: AppContext, req: FastifyRequest, collection: Collection): AuthRow {
  const auth = req.auth;
  if (auth?.kind !== 'authRecord' || !auth.record) {
    throw unauthorized('The request requires valid record authorization token to be set.');
  }
  if (auth.collectionId !== collection.id) {
    const own = auth.collectionId ? findCollection(ctx, auth.collectionId) : undefined;
    throw forbidden(`The request requires auth record from ${own?.name ?? collection.name} collection.`);
  }
  const row = findAuthRowById(ctx, collection, String(auth.record.id ?? ''));
  if (!row) throw unauthorized('The request requires valid record authorization token to be set.');
  return row;
}

/** Admins, the record itself, or a record satisfying the collection's manageRule. */
function requireOwnerOrManager(ctx: AppContext, req: FastifyRequest, collection: Collection): AuthRow {
  const auth = req.auth;
  const id = (req.params as Params).id ?? '';
  if (auth?.kind === 'admin') {
    const row = findAuthRowById(ctx, collection, id);
    if (!row) throw notFound();
    return row;
  }
  if (auth?.kind !== 'authRecord' || !auth.record) {
    throw unauthorized('The request requires admin or record authorization token to be set.');
  }
  const isOwner = auth.collectionId === collection.id && String(auth.record.id) === id;
  const row = findAuthRowById(ctx, collection, id);
  if (isOwner) {
    if (!row) throw notFound();
    return row;
  }
  const manageRule = authOptions(collection).manageRule;
  if (row && manageRule !== null && manageRule.trim() !== '' && canAccessRecord(ctx, collection, row.id, manageRule, requestInfoOf(ctx, req))) {
    return row;
  }
  throw forbidden('You are not allowed to perform this request.');
}

/** minPasswordLength..72 ("between N and 72" as ozzo words it). */
function passwordLength(collection: Collection) {
  const min = Math.max(0, Math.min(authOptions(collection).minPasswordLength, MAX_PASSWORD_LENGTH));
  return length(min, MAX_PASSWORD_LENGTH);
}

/** onlyEmailDomains / exceptEmailDomains of the collection (0.22's checkEmailDomain). */
function emailDomainError(collection: Collection, address: string): FieldError | null {
  const opts = authOptions(collection);
  const domain = address.slice(address.lastIndexOf('@') + 1).toLowerCase();
  const only = opts.onlyEmailDomains.map((d) => d.toLowerCase());
  const except = opts.exceptEmailDomains.map((d) => d.toLowerCase());
  if ((only.length && !only.includes(domain)) || (except.length && except.includes(domain))) {
    return fieldFailure('validation_email_domain_not_allowed', 'Email domain is not allowed.');
  }
  return null;
}


const recentlySent = (stamp: unknown): boolean => {
  if (typeof stamp !== 'string' || stamp === '') return false;
  const at = Date.parse(stamp.replace(' ', 'T'));
  return Number.isFinite(at) && Date.now() - at < RESEND_THRESHOLD_MS;
};

async function sendVerification(ctx: AppContext, collection: Collection, address: string): Promise<void> {
  const row = findAuthRowByEmail(ctx, collection, address);
  if (!row || isVerified(row) || recentlySent(row.lastVerificationSentAt)) return;
  const settings = ctx.settings.get();
  const token = newRecordVerificationToken(settings, recordKeys(collection, row));
  await sendRecordTemplateMail(settings, 'verification', String(row.email), token);
  updateAuthRow(ctx, collection, row.id, { lastVerificationSentAt: nowDateTime() });
}

async function sendPasswordReset(ctx: AppContext, collection: Collection, address: string): Promise<void> {
  const row = findAuthRowByEmail(ctx, collection, address);
  if (!row || recentlySent(row.lastResetSentAt)) return;
  const settings = ctx.settings.get();
  const token = newRecordPasswordResetToken(settings, recordKeys(collection, row));
  await sendRecordTemplateMail(settings, 'password-reset', String(row.email), token);
  updateAuthRow(ctx, collection, row.id, { lastResetSentAt: nowDateTime() });
}

let dummy: Promise<string> | null = null;
const dummyHash = () => (dummy ??= hashPassword('outpost-record-timing-equaliser'));

