// /api/admins (PocketBase 0.22): password sign-in, refresh, password reset by mail, and admin
// CRUD. Messages, field error codes and JSON key order follow 0.22; failed sign-ins are rate
// limited per IP and identity (0.22 has no limiter).
import { logBackgroundError } from '../services/request-log';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { nowDateTime } from '../db/layout';
import { runListQuery } from '../query/list';
import { adminJson, findAdminByResetToken, type AdminRow } from '../services/admins';
import { mailAdminPasswordReset } from '../records/auth-mails';
import { hashPassword, newId, newTokenKey, verifyPassword } from '../services/passwords';
import { createAttemptLimiter } from '../services/rate-limit';
import { newAdminAuthToken } from '../services/tokens';
import { adminOnly, badRequest, notFound, tooManyRequests } from '../core/errors';
import { fieldFailure, validateBody, type FieldCheck } from '../core/body-validator';
import { bindForm } from './form-bind';
import { requireAdmin } from './guards';
import { clientAddress } from './client-address';

const LOAD_FAILED = 'An error occurred while loading the submitted data.';
const INVALID_FORMAT = 'Failed to load the submitted data due to invalid formatting.';

/** Sign-in attempts allowed per IP + identity inside the window before answering 429 (a success takes its own back). */
const SIGN_IN_FAILURE_LIMIT = 5;
/** Attempts per IP inside the window, all identities together. */
const SIGN_IN_SOURCE_LIMIT = 50;
const SIGN_IN_WINDOW_MS = 60_000;
/** 0.22 ignores a new reset request for the same admin within 2 minutes of the last mail. */
const RESET_RESEND_THRESHOLD_MS = 120_000;

export function registerAdmins(app: FastifyInstance, ctx: AppContext): void {
  const signInAttempts = createAttemptLimiter({ limit: SIGN_IN_FAILURE_LIMIT, sourceLimit: SIGN_IN_SOURCE_LIMIT, windowMs: SIGN_IN_WINDOW_MS });
  const admins = ctx.admins;

  const authResponse = (admin: AdminRow) => ({
    token: newAdminAuthToken(ctx.settings.get(), admin),
    admin: adminJson(admin),
  });

  app.post('/api/admins/auth-with-password', async (req, reply) => {
    const form = bindForm(req, { identity: 'string', password: 'string' }, LOAD_FAILED);
    // the dashboard's sign-in form is the body's schema
    validateBody('admins/login', form);

    const identity = String(form.identity);
    // counted before the password is checked (concurrent guesses cannot all get past the limit)
    const ip = clientAddress(ctx, req);
    const attempt = signInAttempts.attempt(`${ip}|${identity.toLowerCase()}`, ip);
    if (attempt.blocked) {
      void reply.header('Retry-After', String(Math.ceil(attempt.retryAfterMs / 1000)));
      throw tooManyRequests('Too many failed sign-in attempts. Please try again later.');
    }

    const admin = admins.findByEmail(identity);
    // Hash even for an unknown email, so response time does not reveal which admins exist.
    const ok = await verifyPassword(String(form.password), admin?.passwordHash ?? (await dummyHash()));
    if (!admin || !ok) {
      throw badRequest('Failed to authenticate.');
    }
    attempt.succeeded();
    return authResponse(admin);
  });

  app.post('/api/admins/auth-refresh', async (req) => {
    const current = requireAdmin(req);
    const admin = admins.findById(String(current.id));
    if (!admin) throw adminOnly();
    return authResponse(admin);
  });

  app.post('/api/admins/request-password-reset', async (req, reply) => {
    const form = bindForm(req, { email: 'string' }, LOAD_FAILED);
    validateBody('admins/request-password-reset', form, {}, 'An error occurred while validating the form.');

    // Answer 204 whatever happens next, so the endpoint cannot be used to enumerate admins.
    void sendPasswordReset(ctx, String(form.email)).catch((err) =>
      logBackgroundError(ctx, 'Failed to send admin password reset email', err, { type: 'mail', email: String(form.email) }),
    );
    return reply.status(204).send();
  });

  app.post('/api/admins/confirm-password-reset', async (req, reply) => {
    const form = bindForm(req, { token: 'string', password: 'string', passwordConfirm: 'string' }, LOAD_FAILED);
    let admin: AdminRow | undefined;
    validateBody('requests/admins/confirm-password-reset', form, {
      token: (value) => {
        admin = findAdminByResetToken(admins, ctx.settings.get(), String(value));
        return admin ? null : fieldFailure('validation_invalid_token', 'Invalid or expired token.');
      },
    });
    if (!admin) throw badRequest();

    const passwordHash = await hashPassword(String(form.password));
    admins.setPasswordHash(admin.id, passwordHash, newTokenKey(), nowDateTime());
    return reply.status(204).send();
  });

  app.get('/api/admins', async (req) => {
    requireAdmin(req);
    const result = await runListQuery(ctx.reads, {
      table: '_admins',
      // 0.22's admin list resolves id, created, updated and email.
      columns: {
        id: '"_admins"."id"',
        created: '"_admins"."created"',
        updated: '"_admins"."updated"',
        email: '"_admins"."email"',
      },
      query: req.query as Record<string, unknown>,
      map: (row) => adminJson(row as unknown as AdminRow),
    });
    const { page, perPage, totalItems, totalPages, items } = result;
    return { page, perPage, totalItems, totalPages, items };
  });

  app.post('/api/admins', async (req) => {
    // Open to guests only while no admin exists (the installer creates the first one).
    if (req.auth?.kind !== 'admin' && admins.count() > 0) throw adminOnly();
    const form = bindForm(req, ADMIN_FORM, INVALID_FORMAT);
    validateBody('requests/admins/create', form, {
      id: (v) => (admins.findById(String(v)) ? INVALID_ID : null),
      email: uniqueEmail(ctx, null),
    });

    const passwordHash = await hashPassword(String(form.password));
    const now = nowDateTime();
    const row: AdminRow = {
      id: typeof form.id === 'string' && form.id !== '' ? form.id : newId(),
      avatar: typeof form.avatar === 'number' ? form.avatar : 0,
      email: String(form.email),
      tokenKey: newTokenKey(),
      passwordHash,
      lastResetSentAt: '',
      created: now,
      updated: now,
    };
    ctx.transaction(() => {
      // Re-check inside the write lock: two concurrent installer posts must not both win.
      if (req.auth?.kind !== 'admin' && admins.count() > 0) throw adminOnly();
      if (admins.findByEmail(row.email)) throw badRequest(undefined, { email: EMAIL_EXISTS });
      admins.insert(row);
    });
    return adminJson(row);
  });

  app.get('/api/admins/:id', async (req) => {
    requireAdmin(req);
    return adminJson(mustFindAdmin(ctx, req));
  });

  app.patch('/api/admins/:id', async (req) => {
    requireAdmin(req);
    const admin = mustFindAdmin(ctx, req);
    const form = bindForm(req, ADMIN_FORM, INVALID_FORMAT);
    form.avatar ??= admin.avatar;
    form.email ??= admin.email;
    validateBody('requests/admins/update', form, {
      // 0.22's validation.In(admin.Id): a sent id must be the admin's own
      id: (v) => (v === admin.id ? null : fieldFailure('validation_in_invalid', 'Must be a valid value.')),
      email: uniqueEmail(ctx, admin.id),
    });

    const password = typeof form.password === 'string' && form.password !== '' ? form.password : null;
    const passwordHash = password ? await hashPassword(password) : null;
    const next: AdminRow = {
      ...admin,
      avatar: Number(form.avatar),
      email: String(form.email),
      updated: nowDateTime(),
    };
    if (passwordHash) {
      // A new password renews the tokenKey, which revokes every token issued before.
      Object.assign(next, { passwordHash, tokenKey: newTokenKey(), lastResetSentAt: '' });
    }
    try {
      admins.update(next);
    } catch (err) {
      throw badRequest('Failed to update admin.', {}, String(err));
    }
    return adminJson(next);
  });

  app.delete('/api/admins/:id', async (req, reply) => {
    requireAdmin(req);
    const admin = mustFindAdmin(ctx, req);
    ctx.transaction(() => {
      if (admins.count() <= 1) throw badRequest('Failed to delete admin.', {}, 'You cannot delete the only existing admin.');
      admins.delete(admin.id);
    });
    return reply.status(204).send();
  });
}

const ADMIN_FORM = { id: 'string', avatar: 'int', email: 'string', password: 'string', passwordConfirm: 'string' } as const;

const INVALID_ID = fieldFailure('validation_invalid_id', 'The model id is invalid or already exists.');
const EMAIL_EXISTS = fieldFailure('validation_admin_email_exists', 'Admin email already exists.');

/** 0.22's checkUniqueEmail: no other admin has the address (`selfId`: the admin being updated). */
function uniqueEmail(ctx: AppContext, selfId: string | null): FieldCheck {
  return (value) => {
    const other = ctx.admins.findByEmail(String(value));
    return other && other.id !== selfId ? EMAIL_EXISTS : null;
  };
}

function mustFindAdmin(ctx: AppContext, req: FastifyRequest): AdminRow {
  const id = (req.params as { id?: string }).id ?? '';
  const admin = id ? ctx.admins.findById(id) : undefined;
  if (!admin) throw notFound();
  return admin;
}

async function sendPasswordReset(ctx: AppContext, address: string): Promise<void> {
  const admin = ctx.admins.findByEmail(address);
  if (!admin) return;
  const lastSent = Date.parse(admin.lastResetSentAt.replace(' ', 'T'));
  if (Number.isFinite(lastSent) && Date.now() - lastSent < RESET_RESEND_THRESHOLD_MS) return;

  await mailAdminPasswordReset(ctx, admin);
  ctx.admins.markResetSent(admin.id, nowDateTime());
}

let dummy: Promise<string> | null = null;
const dummyHash = () => (dummy ??= hashPassword('outpost-timing-equaliser'));
