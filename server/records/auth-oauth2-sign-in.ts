// The OAuth2 sign-in of POST /api/collections/{collection}/auth-with-oauth2 (0.22's RecordOAuth2Login;
// the route, server/http/record-auth/sign-in.ts, reads and validates the body): exchange the code,
// read the provider's user, then find the record linked to that identity, or link it to the record
// signed in with this request, or create a new record — and answer like a password sign-in plus
// `meta` (the provider's user and isNew). Between the look-up and the rest, the route's intercept
// runs 0.22's onRecordBeforeAuthWithOAuth2Request (it may pick another record, or change the
// user); the writes fire the model hooks (the record's, the new link's: auth-writes.ts).
//
// Stricter than 0.22.12 where it was exploitable (GHSA-m93w-4fxv-r35v, GHSA-pq7p-mc74-g65w):
// - an identity is never linked to an existing account because the emails match: whoever holds
//   an account links a provider while signed in to it; an unlinked identity whose email belongs to
//   an account is refused (400), so neither an attacker with a look-alike provider account nor a
//   squatter who registered the victim's address first ends up sharing an account;
// - a new record only gets the provider's email when the provider vouches for it (then it is
//   verified); createData cannot set another email, nor system fields (verified, tokenKey, …).
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Collection } from '../collections/model';
import type { enabledProvider } from './auth-oauth2';
import { authOptions, findAuthRowByEmail, findAuthRowById, isEmailTaken, updateAuthRow, type AuthRow } from './auth-store';
import { addExternalAuth, saveAuthRecord } from './auth-writes';
import { recordFromRow } from './model';
import { requestInfoOf } from './rules';
import { createRecord } from './upsert';
import {
  DEFAULT_OAUTH2_TIMEOUT_MS,
  exchangeCode,
  fetchOAuth2User,
  OAuth2ProviderError,
  type OAuth2User,
} from '../services/oauth2-client';
import { randomString } from '../services/passwords';
import { ApiError, badRequest } from '../core/errors';
import { fieldFailure } from '../core/body-validator';

const AUTH_FAILED = 'Failed to authenticate.';

/** Fields createData may never set: the server decides them (or the provider vouches for them). */
const SYSTEM_FIELDS = new Set([
  'id',
  'created',
  'updated',
  'collectionId',
  'collectionName',
  'expand',
  'verified',
  'tokenKey',
  'passwordHash',
  'lastResetSentAt',
  'lastVerificationSentAt',
]);
const USERNAME = /^[\w][\w.-]*$/;

export interface OAuth2Meta extends Omit<OAuth2User, 'emailVerified'> {
  isNew: boolean;
}

/** The validated body: an enabled provider (its definition and settings), the code and createData. */
export interface OAuth2SignInInput {
  provider: NonNullable<ReturnType<typeof enabledProvider>>;
  code: string;
  codeVerifier: string;
  redirectUrl: string;
  createData: Record<string, unknown>;
}

/** What the sign-in found once the provider answered: the record (null: a new one is to be made) and the provider's user. */
interface OAuth2Found {
  row: AuthRow | null;
  user: OAuth2User;
}

/**
 * Runs between the look-up and the completion (0.22's form interceptors: the before hook) and
 * returns what to complete with: the record (another one, or none) and the user as changed.
 */
export type OAuth2Intercept = (found: OAuth2Found) => Promise<OAuth2Found>;

/** Runs the sign-in; returns the record to answer for and the meta (0.22's AuthUser + isNew). */
export async function signInWithOAuth2(
  ctx: AppContext,
  req: FastifyRequest,
  collection: Collection,
  input: OAuth2SignInInput,
  intercept: OAuth2Intercept = async (found) => found,
): Promise<{ row: AuthRow; meta: OAuth2Meta }> {
  const { def, config } = input.provider;

  // createData is judged before talking to the provider, so a refused request spends no code
  const extra = { ...input.createData };
  const refused: Record<string, ReturnType<typeof fieldFailure>> = {};
  for (const key of Object.keys(extra)) {
    if (SYSTEM_FIELDS.has(key)) refused[key] = fieldFailure('validation_oauth2_field_not_allowed', 'This field cannot be set through createData.');
  }
  if (Object.keys(refused).length) throw badRequest(AUTH_FAILED, refused);

  const timeout = ctx.options.oauth2TimeoutMs ?? DEFAULT_OAUTH2_TIMEOUT_MS;
  let fetched: OAuth2User;
  try {
    const token = await exchangeCode(def, config, {
      code: input.code,
      codeVerifier: input.codeVerifier,
      redirectUrl: input.redirectUrl,
    }, timeout);
    fetched = await fetchOAuth2User(def, config, token, timeout);
  } catch (err) {
    if (err instanceof OAuth2ProviderError) throw new ApiError(400, AUTH_FAILED, {}, err.message);
    throw err;
  }

  // the record for the identity: 1. the one it is linked to, 2. a record of this collection
  // signed in with this request (it links the identity to itself), else none (a new record)
  const link = ctx.externalAuths.findByProviderId(collection.id, def.name, fetched.id);
  let found: AuthRow | null = null;
  if (link) {
    found = findAuthRowById(ctx, collection, link.recordId);
    if (!found) throw new ApiError(400, AUTH_FAILED, {}, 'the linked record no longer exists');
  } else if (req.auth?.kind === 'authRecord' && req.auth.collectionId === collection.id && req.auth.record) {
    found = findAuthRowById(ctx, collection, String(req.auth.record.id ?? ''));
  }

  const { row, user } = await intercept({ row: found, user: fetched });
  const { emailVerified, ...publicUser } = user;
  // an email the handlers changed is not the provider's word
  const vouchedEmail = emailVerified && user.email === fetched.email ? user.email : '';

  if (row) {
    // linked already, or the identity gets linked to this record now
    if (!link && ctx.externalAuths.find(collection.id, row.id, def.name)) {
      throw badRequest(AUTH_FAILED, {
        provider: fieldFailure('validation_oauth2_already_linked', 'The account is already linked to another account of this provider.'),
      });
    }
    await completeExisting(ctx, collection, row, vouchedEmail);
    if (!link) {
      try {
        await addExternalAuth(ctx, { collectionId: collection.id, recordId: row.id, provider: def.name, providerId: user.id }, AUTH_FAILED);
      } catch (err) {
        // a concurrent sign-in linked the identity first
        if (err instanceof ApiError) throw err;
        throw new ApiError(400, AUTH_FAILED, {}, String(err));
      }
    }
    const fresh = findAuthRowById(ctx, collection, row.id);
    if (!fresh) throw new ApiError(400, AUTH_FAILED, {}, 'the record no longer exists');
    return { row: fresh, meta: { ...publicUser, isNew: false } };
  }

  // never link on email alone (see the header)
  if (user.email !== '' && findAuthRowByEmail(ctx, collection, user.email)) {
    throw badRequest(AUTH_FAILED, {
      email: fieldFailure(
        'validation_oauth2_email_taken',
        'An account with this email already exists. Sign in to it and link the provider from there.',
      ),
    });
  }

  // a new record
  if ('email' in extra && extra.email !== '' && (vouchedEmail === '' || String(extra.email).toLowerCase() !== vouchedEmail.toLowerCase())) {
    throw badRequest(AUTH_FAILED, {
      email: fieldFailure('validation_oauth2_email_not_vouched', 'The email must be the one the provider verified.'),
    });
  }
  const created = await createLinkedRecord(ctx, req, collection, extra, user, vouchedEmail, def.name);
  return { row: created, meta: { ...publicUser, isNew: true } };
}

/** 0.22's top-up of an existing record: a missing email from the provider, verified when it matches (saved with the model hooks). */
async function completeExisting(ctx: AppContext, collection: Collection, row: AuthRow, vouchedEmail: string): Promise<void> {
  if (!vouchedEmail) return;
  const current = String(row.email ?? '');
  const record = recordFromRow(collection, row);
  if (current === '' && !isEmailTaken(ctx, collection, vouchedEmail, row.id)) {
    record.data.email = vouchedEmail;
    record.data.verified = true;
  } else if (current.toLowerCase() === vouchedEmail.toLowerCase() && record.data.verified !== true) {
    record.data.verified = true;
  } else {
    return;
  }
  await saveAuthRecord(ctx, record, row, AUTH_FAILED);
}

async function createLinkedRecord(
  ctx: AppContext,
  req: FastifyRequest,
  collection: Collection,
  extra: Record<string, unknown>,
  user: OAuth2User,
  vouchedEmail: string,
  providerName: string,
): Promise<AuthRow> {
  const data: Record<string, unknown> = { ...extra, email: vouchedEmail };
  if (user.username.length >= 3 && user.username.length <= 150 && USERNAME.test(user.username) && !('username' in extra)) {
    data.username = user.username; // taken names get a suffix from the record form
  }
  if (typeof data.password !== 'string' || data.password === '') {
    data.password = randomString(30);
    data.passwordConfirm = data.password;
  }
  if (authOptions(collection).requireEmail && vouchedEmail === '') {
    throw badRequest(AUTH_FAILED, {
      email: fieldFailure('validation_required', 'The provider did not give a verified email, which this collection requires.'),
    });
  }
  const info = { ...requestInfoOf(ctx, req, extra), context: 'oauth2' };
  if (!info.isAdmin && collection.createRule === null) {
    throw new ApiError(400, AUTH_FAILED, {}, 'Only admins can create new accounts with OAuth2');
  }
  let created;
  try {
    created = await createRecord(ctx, collection, { data, uploads: new Map(), info });
  } catch (err) {
    if (err instanceof ApiError) throw new ApiError(400, AUTH_FAILED, err.data, err.details);
    throw err;
  }
  const id = String(created.data.id);
  // the provider vouched for the email: the record is verified with it (part of the create in 0.22)
  if (vouchedEmail) updateAuthRow(ctx, collection, id, { verified: true });
  try {
    await addExternalAuth(ctx, { collectionId: collection.id, recordId: id, provider: providerName, providerId: user.id }, AUTH_FAILED);
  } catch (err) {
    // a concurrent sign-in linked the same identity first: keep nothing of this attempt
    if (!ctx.externalAuths.find(collection.id, id, providerName)) ctx.records.delete(collection, id);
    if (err instanceof ApiError) throw err;
    throw new ApiError(400, AUTH_FAILED, {}, String(err));
  }
  const row = findAuthRowById(ctx, collection, id);
  if (!row) throw new ApiError(400, AUTH_FAILED, {}, 'the new record could not be read back');
  return row;
}
