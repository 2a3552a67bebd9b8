// Signing a record in: the auth methods of a collection, password sign-in (failed attempts rate
// limited per IP + collection + identity), token refresh and OAuth2 sign-in.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { authOptions, findAuthRowByEmail, findAuthRowById, findAuthRowByUsername, type AuthRow } from '../../records/auth-store';
import { recordFromRow } from '../../records/model';
import { enabledProvider, listAuthProviders } from '../../records/auth-oauth2';
import { signInWithOAuth2 } from '../../records/auth-oauth2-sign-in';
import { endpointsOf, pkceOf, type OAuth2User } from '../../services/oauth2-client';
import { verifyPassword } from '../../services/passwords';
import { createSharedAttemptLimiter } from '../../services/shared-limiter';
import { badRequest, tooManyRequests } from '../../core/errors';
import { fieldFailure, validateBody } from '../../core/body-validator';
import { isObject } from '../../../src/lib/json';
import { isEmailAddress } from '../../../src/lib/email-address';
import { bindForm } from '../form-bind';
import { clientAddress } from '../client-address';
import {
  AUTH_ROUTES,
  AuthHooks,
  authResponse,
  dummyHash,
  LOAD_FAILED,
  loadAuthCollection,
  RECORD_SIGN_IN_FAILURE_LIMIT,
  RECORD_SIGN_IN_SOURCE_LIMIT,
  RECORD_SIGN_IN_WINDOW_MS,
  requireSameCollectionRecord,
} from './shared';

export function registerSignIn(app: FastifyInstance, ctx: AppContext): void {
  const base = AUTH_ROUTES;
  const signInAttempts = createSharedAttemptLimiter('records', { limit: RECORD_SIGN_IN_FAILURE_LIMIT, sourceLimit: RECORD_SIGN_IN_SOURCE_LIMIT, windowMs: RECORD_SIGN_IN_WINDOW_MS }, ctx.options.cluster);

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
    validateBody('requests/records/auth-with-password', form);

    const identity = String(form.identity);
    // counted before the password is checked (concurrent guesses cannot all get past the limit)
    const ip = clientAddress(ctx, req);
    const attempt = await signInAttempts.attempt(`${ip}|${collection.id}|${identity.toLowerCase()}`, ip);
    if (attempt.blocked) {
      void reply.header('Retry-After', String(Math.ceil(attempt.retryAfterMs / 1000)));
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
    // 0.22's before hook runs ahead of the password check; a handler may pick the record itself
    // (e.record = ...: a custom identity), or answer
    const hooks = new AuthHooks(ctx, req, collection);
    let found = row ? recordFromRow(collection, row) : undefined;
    const password = String(form.password);
    return hooks.guard(async () => {
      const before = await hooks.run('onRecordBeforeAuthWithPasswordRequest', {
        record: found,
        fields: { identity, password, record: found ? undefined : null },
      });
      if (before?.recordId !== undefined) {
        row = before.recordId ? findAuthRowById(ctx, collection, before.recordId) : null;
        found = row ? recordFromRow(collection, row) : undefined;
      }
      // hash even when nothing matched, so the timing does not tell which accounts exist
      const ok = await verifyPassword(password, row?.passwordHash ?? (await dummyHash()));
      if (!row || !found || !ok) {
        throw badRequest('Failed to authenticate.');
      }
      attempt.succeeded();
      await hooks.run('onRecordAfterAuthWithPasswordRequest', { record: found, fields: { identity, password } });
      return authResponse(ctx, req, collection, row, { model: found, hooks });
    });
  });

  app.post(`${base}/auth-refresh`, async (req) => {
    const collection = loadAuthCollection(ctx, req);
    const row = requireSameCollectionRecord(ctx, req, collection);
    const record = recordFromRow(collection, row);
    const hooks = new AuthHooks(ctx, req, collection);
    return hooks.guard(async () => {
      await hooks.run('onRecordBeforeAuthRefreshRequest', { record });
      await hooks.run('onRecordAfterAuthRefreshRequest', { record });
      return authResponse(ctx, req, collection, row, { model: record, hooks });
    });
  });

  app.post(`${base}/auth-with-oauth2`, async (req) => {
    const collection = loadAuthCollection(ctx, req);
    if (!authOptions(collection).allowOAuth2Auth) {
      throw badRequest('The collection is not configured to allow OAuth2 authentication.');
    }
    const form = bindForm(
      req,
      { provider: 'string', code: 'string', codeVerifier: 'string', redirectUrl: 'string', createData: 'json' },
      LOAD_FAILED,
    );
    const createData = form.createData ?? {};
    if (createData !== null && !isObject(createData)) {
      throw badRequest(LOAD_FAILED, { createData: fieldFailure('validation_invalid_type', 'Must be an object.') });
    }
    const provider = enabledProvider(ctx.settings.get(), String(form.provider ?? ''));
    validateBody('requests/records/auth-with-oauth2', form, {
      provider: (v) =>
        provider ? null : fieldFailure('validation_invalid_provider', `Provider with name ${JSON.stringify(String(v))} is missing or is not enabled.`),
    });
    if (!provider) throw badRequest();
    const input = {
      provider,
      code: String(form.code),
      codeVerifier: String(form.codeVerifier ?? ''),
      redirectUrl: String(form.redirectUrl),
      createData: createData as Record<string, unknown>,
    };
    // 0.22's event: the provider's name and client, its user (e.oAuth2User, which a handler may
    // change), the record found for it (null: a new one is to be created) and isNewRecord
    const hooks = new AuthHooks(ctx, req, collection);
    const event = { providerName: provider.def.name, providerClient: providerClientOf(provider), isNewRecord: false };
    return hooks.guard(async () => {
      const { row, meta } = await signInWithOAuth2(ctx, req, collection, input, async ({ row: found, user }) => {
        const { emailVerified, ...oAuth2User } = user;
        event.isNewRecord = found === null;
        const record = found ? recordFromRow(collection, found) : undefined;
        const before = await hooks.run('onRecordBeforeAuthWithOAuth2Request', { record, fields: { ...event, oAuth2User, record: record ? undefined : null } });
        const changed = before?.fields?.oAuth2User;
        const nextUser = isObject(changed) ? { ...user, ...(changed as Partial<OAuth2User>), emailVerified } : user;
        if (before?.recordId === undefined) return { row: found, user: nextUser };
        return { row: before.recordId ? findAuthRowById(ctx, collection, before.recordId) : null, user: nextUser };
      });
      const record = recordFromRow(collection, row);
      const { isNew: _isNew, ...oAuth2User } = meta;
      await hooks.run('onRecordAfterAuthWithOAuth2Request', { record, fields: { ...event, oAuth2User } });
      return authResponse(ctx, req, collection, row, { model: record, meta, hooks });
    });
  });
}

/** The provider client as hook code reads it (0.22's auth.Provider getters; no secret). */
function providerClientOf(provider: NonNullable<ReturnType<typeof enabledProvider>>): Record<string, unknown> {
  const { def, config } = provider;
  return {
    displayName: config.displayName || def.facts.displayName || def.name,
    pkce: pkceOf(def, config),
    scopes: [...def.facts.scopes],
    clientId: config.clientId,
    ...endpointsOf(def, config),
  };
}
