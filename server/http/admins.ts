// /api/admins (PocketBase 0.22): password sign-in, refresh, password reset by mail, and admin
// CRUD, with 0.22's request hooks (onAdmin*Request: e.admin, and e.admins + e.result for the list,
// e.token for onAdminAuthRequest) chained as apis/admin.go chains them, and the admin's writes
// with the model hooks (../services/admin-writes.ts). Messages, field error codes and JSON key
// order follow 0.22; failed sign-ins are rate limited per IP and identity (0.22 has no limiter).
import { logBackgroundError } from '../services/request-log';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { nowDateTime } from '../db/layout';
import { runListQuery } from '../query/list';
import { adminJson, findAdminByResetToken, type AdminRow } from '../services/admins';
import { deleteAdmin, saveAdmin } from '../services/admin-writes';
import { adminEventWire, adminRowFromWire } from '../hooks/admin-wire';
import { mailAdminPasswordReset } from '../records/auth-mails';
import { hashPassword, newTokenKey, verifyPassword } from '../services/passwords';
import { createSharedAttemptLimiter } from '../services/shared-limiter';
import { newAdminAuthToken } from '../services/tokens';
import { adminOnly, badRequest, notFound, tooManyRequests } from '../core/errors';
import { fieldFailure, validateBody, type FieldCheck } from '../core/body-validator';
import { bindForm } from './form-bind';
import { requireAdmin } from './guards';
import { requireArea, requireFullAdmin } from './permissions';
import { LAST_FULL_ADMIN } from './roles';
import { HookAnswer, RequestHooks, sendHookAnswer } from './request-hooks';
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
  const signInAttempts = createSharedAttemptLimiter('admins', { limit: SIGN_IN_FAILURE_LIMIT, sourceLimit: SIGN_IN_SOURCE_LIMIT, windowMs: SIGN_IN_WINDOW_MS }, ctx.options.cluster);
  const admins = ctx.admins;

  /** 0.22's authResponse: a new token, onAdminAuthRequest (e.admin and e.token as its handlers leave them), the answer. */
  const authResponse = async (hooks: RequestHooks, admin: AdminRow) => {
    const token = newAdminAuthToken(ctx.settings.get(), admin);
    const left = await hooks.run('onAdminAuthRequest', { admin: adminEventWire(admin), token });
    hooks.answerIfWritten();
    return { token: typeof left?.token === 'string' ? left.token : token, admin: adminJson(adminLeft(left, admin)) };
  };

  app.post('/api/admins/auth-with-password', async (req, reply) => {
    const form = bindForm(req, { identity: 'string', password: 'string' }, LOAD_FAILED);
    // the dashboard's sign-in form is the body's schema
    validateBody('admins/login', form);

    const identity = String(form.identity);
    // counted before the password is checked (concurrent guesses cannot all get past the limit)
    const ip = clientAddress(ctx, req);
    const attempt = await signInAttempts.attempt(`${ip}|${identity.toLowerCase()}`, ip);
    if (attempt.blocked) {
      void reply.header('Retry-After', String(Math.ceil(attempt.retryAfterMs / 1000)));
      throw tooManyRequests('Too many failed sign-in attempts. Please try again later.');
    }

    // 0.22's before hook runs ahead of the password check, e.admin null for an unknown email: a
    // handler may pick the admin itself
    let admin = admins.findByEmail(identity) ?? null;
    const password = String(form.password);
    const hooks = new RequestHooks(ctx, req);
    return hooks.guard(async () => {
      const before = await hooks.run('onAdminBeforeAuthWithPasswordRequest', { admin: admin && adminEventWire(admin), identity, password });
      if (before && 'admin' in before) admin = adminLeft(before, admin, true);
      // Hash even for an unknown email, so response time does not reveal which admins exist.
      const ok = await verifyPassword(password, admin?.passwordHash ?? (await dummyHash()));
      if (!admin || !ok) {
        throw badRequest('Failed to authenticate.');
      }
      attempt.succeeded();
      const after = await hooks.run('onAdminAfterAuthWithPasswordRequest', { admin: adminEventWire(admin), identity, password });
      return authResponse(hooks, adminLeft(after, admin));
    });
  });

  app.post('/api/admins/auth-refresh', async (req) => {
    const current = requireAdmin(req);
    const admin = admins.findById(String(current.id));
    if (!admin) throw adminOnly();
    const hooks = new RequestHooks(ctx, req);
    return hooks.guard(async () => {
      const before = adminLeft(await hooks.run('onAdminBeforeAuthRefreshRequest', { admin: adminEventWire(admin) }), admin);
      const after = adminLeft(await hooks.run('onAdminAfterAuthRefreshRequest', { admin: adminEventWire(before) }), before);
      return authResponse(hooks, after);
    });
  });

  app.post('/api/admins/request-password-reset', async (req, reply) => {
    const form = bindForm(req, { email: 'string' }, LOAD_FAILED);
    validateBody('admins/request-password-reset', form, {}, 'An error occurred while validating the form.');

    // Answer 204 whatever happens (a hook's error is logged), so the endpoint cannot be used to
    // enumerate admins; the hooks run only for an admin the request is for, the mail and its
    // stamp in the background (0.22's order), unless a handler returned false
    const admin = passwordResetTarget(ctx, String(form.email));
    if (!admin) return reply.status(204).send();
    const hooks = new RequestHooks(ctx, req);
    try {
      const target = adminLeft(await hooks.run('onAdminBeforeRequestPasswordResetRequest', { admin: adminEventWire(admin) }), admin);
      void sendPasswordReset(ctx, target).catch((err) => logBackgroundError(ctx, 'Failed to send admin password reset email', err, { type: 'mail', email: target.email }));
      await hooks.run('onAdminAfterRequestPasswordResetRequest', { admin: adminEventWire(target) });
    } catch (err) {
      if (!(err instanceof HookAnswer)) logBackgroundError(ctx, 'Failed to request admin password reset', err, { type: 'hooks' });
    }
    if (hooks.written) return sendHookAnswer(reply, { stopped: true, response: hooks.written });
    return reply.status(204).send();
  });

  app.post('/api/admins/confirm-password-reset', async (req, reply) => {
    const form = bindForm(req, { token: 'string', password: 'string', passwordConfirm: 'string' }, LOAD_FAILED);
    let admin: AdminRow | undefined;
    validateBody('requests/admins/confirm-password-reset', form, {
      token: (value) => {
        admin = findAdminByResetToken(admins, ctx.settings.get(), String(value));
        return admin ? null : INVALID_TOKEN;
      },
    });
    if (!admin) throw badRequest();
    const found: AdminRow = admin;

    // the admin as the hooks see it: the new password set (0.22's SetPassword: a new tokenKey, no reset stamp)
    const changed: AdminRow = { ...found, passwordHash: await hashPassword(String(form.password)), tokenKey: newTokenKey(), lastResetSentAt: '' };
    const hooks = new RequestHooks(ctx, req);
    return hooks.guard(async () => {
      const target = adminLeft(await hooks.run('onAdminBeforeConfirmPasswordResetRequest', { admin: adminEventWire(changed) }), changed);
      const saved = await saveAdmin(ctx, target, false, 'Failed to set new password.', () => {
        // a token used twice at once is used once
        if (admins.findById(found.id)?.tokenKey !== found.tokenKey) throw badRequest(undefined, { token: INVALID_TOKEN });
      });
      await hooks.run('onAdminAfterConfirmPasswordResetRequest', { admin: adminEventWire(saved) });
      hooks.answerIfWritten();
      return reply.status(204).send();
    });
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
    });
    const { page, perPage, totalItems, totalPages } = result;
    const rows = result.items as unknown as AdminRow[];
    const answer = { page, perPage, totalItems, totalPages, items: rows.map(adminJson) };
    const hooks = new RequestHooks(ctx, req);
    if (!hooks.has('onAdminsListRequest')) return answer;
    // e.result is the answer, its items the admins of e.admins (0.22: the same models)
    const left = await hooks.run('onAdminsListRequest', { admins: rows.map((r) => adminEventWire(r)), result: answer });
    hooks.answerIfWritten();
    const out = left?.result ?? answer;
    if (!out || typeof out !== 'object' || Array.isArray(out)) throw badRequest();
    const listed = left && Array.isArray(left.admins) ? left.admins.map((a: unknown) => adminJson(adminLeft({ admin: a }, null, false))) : undefined;
    return listed ? { ...out, items: listed } : out;
  });

  app.post('/api/admins', async (req) => {
    // Open to guests only while no admin exists (the installer creates the first one).
    if (req.auth?.kind !== 'admin' && admins.count() > 0) throw adminOnly();
    const form = bindForm(req, ADMIN_FORM, INVALID_FORMAT);
    validateBody('requests/admins/create', form, {
      id: (v) => (admins.findById(String(v)) ? INVALID_ID : null),
      email: uniqueEmail(ctx, null),
    });

    // as 0.22's before hook sees it: no id unless one was sent, no dates yet (the save sets them)
    const draft: AdminRow = {
      id: typeof form.id === 'string' ? form.id : '',
      avatar: typeof form.avatar === 'number' ? form.avatar : 0,
      email: String(form.email),
      tokenKey: newTokenKey(),
      passwordHash: await hashPassword(String(form.password)),
      lastResetSentAt: '',
      created: '',
      updated: '',
    };
    const hooks = new RequestHooks(ctx, req);
    return hooks.guard(async () => {
      const target = adminLeft(await hooks.run('onAdminBeforeCreateRequest', { admin: adminEventWire(draft, true) }), draft);
      const saved = await saveAdmin(ctx, target, true, 'Failed to create admin.', (row) => {
        // Re-check inside the write lock: two concurrent installer posts must not both win.
        if (req.auth?.kind !== 'admin' && admins.count() > 0) throw adminOnly();
        if (admins.findByEmail(row.email)) throw badRequest(undefined, { email: EMAIL_EXISTS });
      });
      const after = await hooks.run('onAdminAfterCreateRequest', { admin: adminEventWire(saved) });
      hooks.answerIfWritten();
      return adminJson(adminLeft(after, saved));
    });
  });

  app.get('/api/admins/:id', async (req) => {
    requireAdmin(req);
    requireSelfOr(req, () => requireArea(req, 'admins'));
    const admin = mustFindAdmin(ctx, req);
    const hooks = new RequestHooks(ctx, req);
    const left = await hooks.run('onAdminViewRequest', { admin: adminEventWire(admin) });
    hooks.answerIfWritten();
    return adminJson(adminLeft(left, admin));
  });

  app.patch('/api/admins/:id', async (req) => {
    requireAdmin(req);
    // a scoped admin edits its own email, avatar and password only
    requireSelfOr(req, () => requireFullAdmin(req));
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
    };
    if (passwordHash) {
      // A new password renews the tokenKey, which revokes every token issued before.
      Object.assign(next, { passwordHash, tokenKey: newTokenKey(), lastResetSentAt: '' });
    }
    const hooks = new RequestHooks(ctx, req);
    return hooks.guard(async () => {
      const target = adminLeft(await hooks.run('onAdminBeforeUpdateRequest', { admin: adminEventWire(next) }), next);
      const saved = await saveAdmin(ctx, target, false, 'Failed to update admin.');
      const after = await hooks.run('onAdminAfterUpdateRequest', { admin: adminEventWire(saved) });
      hooks.answerIfWritten();
      return adminJson(adminLeft(after, saved));
    });
  });

  app.delete('/api/admins/:id', async (req, reply) => {
    requireAdmin(req);
    const admin = mustFindAdmin(ctx, req);
    const onlyOne = () => {
      if (admins.count() <= 1) throw badRequest('Failed to delete admin.', {}, 'You cannot delete the only existing admin.');
      if (!ctx.roles.roleOf(admin.id) && ctx.roles.fullAdmins() <= 1) throw badRequest(LAST_FULL_ADMIN);
    };
    const hooks = new RequestHooks(ctx, req);
    return hooks.guard(async () => {
      const target = adminLeft(await hooks.run('onAdminBeforeDeleteRequest', { admin: adminEventWire(admin) }), admin);
      // 0.22's DeleteAdmin refuses before its model hooks; checked again in the delete's transaction
      onlyOne();
      await deleteAdmin(ctx, target, 'Failed to delete admin.', () => {
        onlyOne();
        ctx.roles.assign(admin.id, null);
      });
      await hooks.run('onAdminAfterDeleteRequest', { admin: adminEventWire(target) });
      hooks.answerIfWritten();
      return reply.status(204).send();
    });
  });
}

/**
 * e.admin as the handlers left it (`current` when none touched it). A value that is no admin is
 * a handler's mistake, answered with a plain 400 (goja refuses such an assignment with an
 * error); null too, unless the flow takes "no admin" (`nullable`: a sign-in's before hook).
 */
function adminLeft(fields: Record<string, unknown> | null, current: AdminRow | null, nullable?: false): AdminRow;
function adminLeft(fields: Record<string, unknown> | null, current: AdminRow | null, nullable: true): AdminRow | null;
function adminLeft(fields: Record<string, unknown> | null, current: AdminRow | null, nullable = false): AdminRow | null {
  if (!fields || !('admin' in fields)) return current;
  const row = adminRowFromWire(fields.admin);
  if (row === undefined || (row === null && !nullable)) throw badRequest(undefined, {}, 'a hook handler set e.admin to a value that is not an admin');
  return row;
}

const ADMIN_FORM = { id: 'string', avatar: 'int', email: 'string', password: 'string', passwordConfirm: 'string' } as const;

const INVALID_ID = fieldFailure('validation_invalid_id', 'The model id is invalid or already exists.');
const INVALID_TOKEN = fieldFailure('validation_invalid_token', 'Invalid or expired token.');
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

/** The admin a reset request is for: by email, none when a mail went in the last 2 minutes. */
function passwordResetTarget(ctx: AppContext, address: string): AdminRow | null {
  const admin = ctx.admins.findByEmail(address);
  if (!admin) return null;
  const lastSent = Date.parse(admin.lastResetSentAt.replace(' ', 'T'));
  return Number.isFinite(lastSent) && Date.now() - lastSent < RESET_RESEND_THRESHOLD_MS ? null : admin;
}

/** The reset mail, then lastResetSentAt saved with the model hooks (0.22's order). */
async function sendPasswordReset(ctx: AppContext, admin: AdminRow): Promise<void> {
  await mailAdminPasswordReset(ctx, admin);
  await saveAdmin(ctx, { ...admin, lastResetSentAt: nowDateTime() }, false, 'Failed to send admin password reset email');
}

let dummy: Promise<string> | null = null;
const dummyHash = () => (dummy ??= hashPassword('outpost-timing-equaliser'));

/** Passes an admin's request about itself; anything else must pass `otherwise`. */
function requireSelfOr(req: FastifyRequest, otherwise: () => void): void {
  const id = (req.params as { id?: string }).id;
  if (req.auth?.kind === 'admin' && req.auth.admin?.id === id) return;
  otherwise();
}
