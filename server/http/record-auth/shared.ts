// What the record auth flows share (PocketBase 0.22's apis/record_auth.go): loading the auth
// collection, the request hooks chained as 0.22 chains them (AuthHooks), the auth response, the
// caller checks, password and email-domain rules, and the verification / reset mails.
import type { FastifyReply, FastifyRequest } from 'fastify';
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
  type AuthRow,
} from '../../records/auth-store';
import { expandFetch, expandRecords } from '../../records/expand';
import { recordFromRow } from '../../records/model';
import { requestInfoOf } from '../../records/rules';
import { exportRecord } from '../../records/serialize';
import { saveAuthRecord } from '../../records/auth-writes';
import type { RecordModel } from '../../records/model';
import { runRecordHook } from '../record-hooks';
import { HookAnswer, HookChain, sendHookAnswer, type HookRun } from '../request-hooks';
import { logBackgroundError } from '../../services/request-log';
import { mailRecordPasswordReset, mailRecordVerification } from '../../records/auth-mails';
import { hashPassword } from '../../services/passwords';
import { newRecordAuthToken } from '../../services/tokens';
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

const recordKeys = (collection: Collection, row: AuthRow) => ({
  id: row.id,
  tokenKey: row.tokenKey,
  collectionId: collection.id,
  email: String(row.email ?? ''),
});

/**
 * The request hooks of one auth flow, chained as 0.22 chains them (apis/record_auth.go): each
 * runs with the flow's record and its event fields; a handler's false or a written response
 * decides the answer as HookChain says.
 */
export class AuthHooks extends HookChain {
  constructor(
    private readonly ctx: AppContext,
    private readonly req: FastifyRequest,
    readonly collection: Collection,
  ) {
    super();
  }

  /** Runs `name`'s handlers (none: null); a handler's error is thrown as 0.22 answers it. */
  async run(name: string, target: Parameters<typeof runRecordHook>[4]): Promise<HookRun | null> {
    return this.note(await runRecordHook(this.ctx, this.req, name, this.collection, target));
  }
}

/**
 * 0.22's RecordAuthResponse: the onlyVerified gate, a new auth token, onRecordAuthRequest (e.token
 * and e.meta as its handlers leave them; one may write its own answer), and the record with its
 * email, expanded (`?expand=`) as the record itself would see it. `model` is the record as the
 * flow's hooks left it, `meta` the OAuth2 answer's.
 */
export async function authResponse(
  ctx: AppContext,
  req: FastifyRequest,
  collection: Collection,
  row: AuthRow,
  opts: { model?: RecordModel; meta?: unknown; hooks?: AuthHooks } = {},
) {
  const model = opts.model ?? recordFromRow(collection, row);
  if (authOptions(collection).onlyVerified && model.data.verified !== true) {
    throw new ApiError(403, 'Please verify your email first.');
  }
  let token = newRecordAuthToken(ctx.settings.get(), recordKeys(collection, row));
  let meta: unknown = opts.meta ?? null;
  const hooks = opts.hooks ?? new AuthHooks(ctx, req, collection);
  const run = await hooks.run('onRecordAuthRequest', { record: model, fields: { token, meta } });
  hooks.answerIfWritten();
  if (run?.fields) {
    if (typeof run.fields.token === 'string') token = run.fields.token;
    if ('meta' in run.fields) meta = run.fields.meta;
  }
  model.showEmail = true;
  const rawExpand = (req.query as Record<string, unknown> | undefined)?.expand;
  const expand = Array.isArray(rawExpand) ? rawExpand[0] : rawExpand;
  if (typeof expand === 'string' && expand !== '') {
    const info: RequestInfo = { ...requestInfoOf(ctx, req), isAdmin: false, auth: ruleAuthOf(collection, row) };
    await expandRecords(ctx, [model], expand.split(','), expandFetch(ctx, info));
  }
  const answer: Record<string, unknown> = { record: exportRecord(model, { isAdmin: false, showEmail: true }), token };
  if (meta !== null && meta !== undefined) answer.meta = meta;
  return answer;
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

/** The record a verification request is for (0.22: by email; a mail sent in the last 2 minutes to an unverified one: none). */
export function verificationTarget(ctx: AppContext, collection: Collection, address: string): AuthRow | null {
  const row = findAuthRowByEmail(ctx, collection, address);
  if (!row || (!isVerified(row) && recentlySent(row.lastVerificationSentAt))) return null;
  return row;
}

/** The record a password reset request is for (0.22: by email; none when a mail went in the last 2 minutes). */
export function passwordResetTarget(ctx: AppContext, collection: Collection, address: string): AuthRow | null {
  const row = findAuthRowByEmail(ctx, collection, address);
  return row && !recentlySent(row.lastResetSentAt) ? row : null;
}

/** The verification mail (none for a verified record), then lastVerificationSentAt saved with the model hooks. */
export async function sendVerification(ctx: AppContext, record: RecordModel, row: AuthRow): Promise<void> {
  if (record.data.verified === true) return;
  await mailRecordVerification(ctx, record);
  record.data.lastVerificationSentAt = nowDateTime();
  await saveAuthRecord(ctx, record, row, 'Failed to send verification email');
}

/** The password reset mail, then lastResetSentAt saved with the model hooks. */
export async function sendPasswordReset(ctx: AppContext, record: RecordModel, row: AuthRow): Promise<void> {
  await mailRecordPasswordReset(ctx, record);
  record.data.lastResetSentAt = nowDateTime();
  await saveAuthRecord(ctx, record, row, 'Failed to send password reset email');
}

/**
 * 0.22's request-verification and request-password-reset: 204 whatever happens (the endpoint must
 * not tell which emails have accounts). The request hooks run only for an account the request is
 * for (`row`), around `send` (the mail and the save of its stamp), which runs in the background;
 * a handler's false skips the rest, a response a handler wrote is the answer, a hook's error is
 * logged.
 */
export async function answerMailRequest(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  collection: Collection,
  row: AuthRow | null,
  action: 'PasswordReset' | 'Verification',
  send: (ctx: AppContext, record: RecordModel, row: AuthRow) => Promise<void>,
  sendFailed: string,
): Promise<FastifyReply> {
  if (!row) return reply.status(204).send();
  const hooks = new AuthHooks(ctx, req, collection);
  const record = recordFromRow(collection, row);
  try {
    await hooks.run(`onRecordBeforeRequest${action}Request`, { record });
    void send(ctx, record, row).catch((err) => logBackgroundError(ctx, sendFailed, err, { type: 'mail' }));
    await hooks.run(`onRecordAfterRequest${action}Request`, { record });
  } catch (err) {
    if (!(err instanceof HookAnswer)) logBackgroundError(ctx, `Failed to request ${action === 'Verification' ? 'verification' : 'password reset'}`, err, { type: 'hooks' });
  }
  if (hooks.written) return sendHookAnswer(reply, { stopped: true, response: hooks.written });
  return reply.status(204).send();
}

let dummy: Promise<string> | null = null;
export const dummyHash = () => (dummy ??= hashPassword('outpost-record-timing-equaliser'));
