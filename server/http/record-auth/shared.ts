// What the record auth flows share (PocketBase 0.22's apis/record_auth.go): loading the auth
// collection, the auth response, the caller checks, password and email-domain rules, and the
// verification / reset mails.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import type { Collection } from '../../collections/model';
import { findCollection } from '../../collections/store';
import { nowDateTime } from '../../db/layout';
import type { RequestInfo } from '../../query/record-resolver';
import {
  authOptions,
  canAccessRecord,
  findAuthRowByEmail,
  findAuthRowById,
  ruleAuthOf,
  updateAuthRow,
  type AuthRow,
} from '../../records/auth-store';
import { expandFetch, expandRecords } from '../../records/expand';
import { recordFromRow } from '../../records/model';
import { requestInfoOf } from '../../records/rules';
import { exportRecord } from '../../records/serialize';
import { answerIfDecided, runRecordHook } from '../record-hooks';
import { mailHooks } from '../../hooks/mail-hooks';
import { sendRecordTemplateMail } from '../../services/mailer';
import { hashPassword } from '../../services/passwords';
import { newRecordAuthToken, newRecordPasswordResetToken, newRecordVerificationToken } from '../../services/tokens';
import { ApiError, badRequest, forbidden, notFound, unauthorized } from '../../core/errors';
import { fieldFailure, type FieldError } from '../../core/body-validator';

/** The route prefix of every record auth flow. */
export const AUTH_ROUTES = '/api/collections/:collection';

export const LOAD_FAILED = 'An error occurred while loading the submitted data.';
export const VALIDATE_FAILED = 'An error occurred while validating the form.';

/** Failed sign-ins allowed per IP + collection + identity inside the window before answering 429. */
export const RECORD_SIGN_IN_FAILURE_LIMIT = 5;
export const RECORD_SIGN_IN_WINDOW_MS = 60_000;
/** Sign-in attempts per IP inside the window, all identities of every auth collection together. */
export const RECORD_SIGN_IN_SOURCE_LIMIT = 50;
/** 0.22 sends at most one verification / reset mail per record every 2 minutes. */
const RESEND_THRESHOLD_MS = 120_000;

export const INVALID_TOKEN = fieldFailure('validation_invalid_token', 'Invalid or expired token.');
export const COLLECTION_MISMATCH = fieldFailure('validation_token_collection_mismatch', 'The provided token is for different auth collection.');

export type Params = { collection?: string; id?: string; provider?: string };

/** 0.22's LoadCollectionContext(auth): unknown → 404, another type → 400. */
export function loadAuthCollection(ctx: AppContext, req: FastifyRequest): Collection {
  const param = (req.params as Params).collection ?? '';
  const collection = param ? findCollection(ctx, param) : undefined;
  if (!collection) throw notFound();
  if (collection.type !== 'auth') throw badRequest('Unsupported collection type.');
  return collection;
}

export const isVerified = (row: Record<string, unknown>) => row.verified === 1 || row.verified === true || row.verified === '1';

export const recordKeys = (collection: Collection, row: AuthRow) => ({
  id: row.id,
  tokenKey: row.tokenKey,
  collectionId: collection.id,
  email: String(row.email ?? ''),
});

/**
 * 0.22's RecordAuthResponse: the onlyVerified gate, a new auth token, and the record with its
 * email, expanded (`?expand=`) as the record itself would see it.
 */
export async function authResponse(ctx: AppContext, req: FastifyRequest, collection: Collection, row: AuthRow) {
  if (authOptions(collection).onlyVerified && !isVerified(row)) {
    throw new ApiError(403, 'Please verify your email first.');
  }
  const token = newRecordAuthToken(ctx.settings.get(), recordKeys(collection, row));
  const model = recordFromRow(collection, row);
  // 0.22's onRecordAuthRequest wraps the answer: a handler may write its own
  answerIfDecided(await runRecordHook(ctx, req, 'onRecordAuthRequest', collection, { record: model, fields: { token, meta: null } }));
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
export function requireSameCollectionRecord(ctx: AppContext, req: FastifyRequest, collection: Collection): AuthRow {
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
export function requireOwnerOrManager(ctx: AppContext, req: FastifyRequest, collection: Collection): AuthRow {
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

/** onlyEmailDomains / exceptEmailDomains of the collection (0.22's checkEmailDomain). */
export function emailDomainError(collection: Collection, address: string): FieldError | null {
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

export async function sendVerification(ctx: AppContext, collection: Collection, address: string): Promise<void> {
  const row = findAuthRowByEmail(ctx, collection, address);
  if (!row || isVerified(row) || recentlySent(row.lastVerificationSentAt)) return;
  const settings = ctx.settings.get();
  const token = newRecordVerificationToken(settings, recordKeys(collection, row));
  await sendRecordTemplateMail(settings, 'verification', String(row.email), token, mailHooks(ctx, 'verification', recordFromRow(collection, row), { token }));
  updateAuthRow(ctx, collection, row.id, { lastVerificationSentAt: nowDateTime() });
}

export async function sendPasswordReset(ctx: AppContext, collection: Collection, address: string): Promise<void> {
  const row = findAuthRowByEmail(ctx, collection, address);
  if (!row || recentlySent(row.lastResetSentAt)) return;
  const settings = ctx.settings.get();
  const token = newRecordPasswordResetToken(settings, recordKeys(collection, row));
  await sendRecordTemplateMail(settings, 'password-reset', String(row.email), token, mailHooks(ctx, 'password-reset', recordFromRow(collection, row), { token }));
  updateAuthRow(ctx, collection, row.id, { lastResetSentAt: nowDateTime() });
}

let dummy: Promise<string> | null = null;
export const dummyHash = () => (dummy ??= hashPassword('outpost-record-timing-equaliser'));
