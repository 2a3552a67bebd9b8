// Resolves who is calling, once per request, from the Authorization header (0.22's
// LoadAuthContext): an admin or auth-record token verified against its account's tokenKey, and
// anything else — missing, garbage, expired, another kind of token — is simply a guest.
import type { FastifyInstance } from 'fastify';
import type { AppContext, RequestAuth } from '../context';
import { adminJson, type AdminStore } from '../services/admins';
import type { RecordStore } from '../records/store';
import type { RoleStore } from '../roles/store';
import type { Settings } from '../services/settings';
import { decodeJwtUnverified, TOKEN_TYPE_ADMIN, TOKEN_TYPE_AUTH_RECORD, verifyAccountToken } from '../services/tokens';

/** A fresh object per request, so a handler that annotates req.auth never leaks into another. */
const guest = (): RequestAuth => ({ kind: 'guest' });

export function registerAuth(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('onRequest', async (req) => {
    req.auth = guest();
    const header = req.headers.authorization;
    if (!header) return;
    try {
      req.auth = resolveAuthToken(ctx, ctx.settings.get(), header);
    } catch (err) {
      // A broken token must never fail the request; log only what is unexpected (e.g. DB errors).
      console.error('[auth] token resolution failed:', err);
      req.auth = guest();
    }
  });
}

/** The RequestAuth for an Authorization header value ('Bearer ' prefix optional). */
export function resolveAuthToken(stores: { admins: AdminStore; records: RecordStore; roles: RoleStore }, settings: Settings, header: string): RequestAuth {
  const token = header.startsWith('Bearer ') ? header.slice(7) : header;
  const claims = decodeJwtUnverified(token);
  if (!claims || typeof claims.id !== 'string') return guest();

  if (claims.type === TOKEN_TYPE_ADMIN) {
    const admin = stores.admins.findById(claims.id);
    if (admin && verifyAccountToken(settings, 'adminAuthToken', admin.tokenKey, token)) {
      return { kind: 'admin', admin: { ...adminJson(admin) }, access: stores.roles.accessOf(admin.id) };
    }
    return guest();
  }

  if (claims.type === TOKEN_TYPE_AUTH_RECORD && typeof claims.collectionId === 'string') {
    const found = stores.records.findAuthRecord(claims.collectionId, claims.id);
    if (found && verifyAccountToken(settings, 'recordAuthToken', String(found.record.tokenKey ?? ''), token)) {
      return { kind: 'authRecord', record: found.record, collectionId: found.collectionId };
    }
  }
  return guest();
}
