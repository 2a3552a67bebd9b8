// What each route asks of a scoped admin (issue 36: admin roles). Every route carries a
// `permission` in its config, set where it is registered or, for the built-in routes, from
// ROUTE_PERMISSIONS below; one preHandler enforces it, and `routePermissions(app)` lists the route
// table with each route's permission so a test can walk it (a route without one fails that test,
// and a scoped admin meets 403 on it: unknown routes fail closed). Full admins, guests and auth
// records are never judged here: their answers stay 0.22's.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { findCollection } from '../collections/store';
import { forbidden } from '../core/errors';
import type { AdminAccess, Area, RecordAction } from '../../src/lib/roles';

export type Permission =
  /** No admin power involved (sign-in, guest and auth-record APIs, static files); the reason. */
  | { open: string }
  /** An area of the dashboard the role must grant. */
  | { area: Area }
  /** Full admins only. */
  | { full: true }
  /** A records action on the route's :collection. */
  | { records: RecordAction }
  /** The schema of the route's :collection (none: the '*' line, e.g. a new collection). */
  | { schema: 'view' | 'edit' }
  /** The handler judges itself (it answers per item or filters what it shows); the reason. */
  | { handler: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    permission?: Permission;
  }
}

/** A full admin (or no admin): nothing to judge. */
export const scopedAccess = (req: FastifyRequest): AdminAccess | null => (req.auth?.kind === 'admin' && req.auth.access && !req.auth.access.full ? req.auth.access : null);

/** 403 for a scoped admin without `area` (full admins, guests and records pass: their handler judges). */
export function requireArea(req: FastifyRequest, area: Area): void {
  const access = scopedAccess(req);
  if (access && !access.area(area)) throw forbidden();
}

/** 403 for a scoped admin: full admins only. */
export function requireFullAdmin(req: FastifyRequest): void {
  if (scopedAccess(req)) throw forbidden();
}

const OPEN_SIGN_IN = { open: 'sign-in and password reset: no admin power' };
const OPEN_RECORD_AUTH = { open: "an auth collection's own flows (guests and auth records)" };
const GUEST_STATIC = { open: 'static files' };

/** The built-in routes' permissions, by "METHOD url" (HEAD takes its GET's). */
export const ROUTE_PERMISSIONS: Record<string, Permission> = {
  'POST /api/admins/auth-with-password': OPEN_SIGN_IN,
  'POST /api/admins/auth-refresh': OPEN_SIGN_IN,
  'POST /api/admins/request-password-reset': OPEN_SIGN_IN,
  'POST /api/admins/confirm-password-reset': OPEN_SIGN_IN,
  'GET /api/admins': { area: 'admins' },
  'POST /api/admins': { full: true },
  'GET /api/admins/:id': { handler: 'itself, or the admins area' },
  'PATCH /api/admins/:id': { handler: 'itself (email, avatar, password), or a full admin' },
  'DELETE /api/admins/:id': { full: true },

  'GET /api/outpost/access': { open: "an admin's own role (the dashboard draws itself from it)" },
  'GET /api/outpost/roles': { full: true },
  'POST /api/outpost/roles': { full: true },
  'GET /api/outpost/roles/:id': { full: true },
  'PATCH /api/outpost/roles/:id': { full: true },
  'DELETE /api/outpost/roles/:id': { full: true },
  'GET /api/outpost/admin-roles': { full: true },
  'PUT /api/outpost/admin-roles/:id': { full: true },

  'GET /api/collections': { handler: 'lists the collections the role sees' },
  'GET /api/collections/:collection': { handler: 'a collection the role sees' },
  'POST /api/collections': { schema: 'edit' },
  'PATCH /api/collections/:collection': { schema: 'edit' },
  'DELETE /api/collections/:collection': { schema: 'edit' },
  'PUT /api/collections/import': { area: 'collectionsImportExport' },

  'GET /api/collections/:collection/records': { records: 'read' },
  'GET /api/collections/:collection/records/:id': { records: 'read' },
  'POST /api/collections/:collection/records': { records: 'create' },
  'PATCH /api/collections/:collection/records/:id': { records: 'update' },
  'DELETE /api/collections/:collection/records/:id': { records: 'delete' },
  'GET /api/collections/:collection/records-ids': { records: 'read' },
  'POST /api/collections/:collection/records-by-ids': { records: 'read' },
  'POST /api/collections/:collection/records-import': { handler: 'create and update per item' },
  'GET /api/outpost/find-record/:id': { handler: 'searches the collections the role reads' },

  'GET /api/collections/:collection/records/:id/external-auths': { records: 'read' },
  'DELETE /api/collections/:collection/records/:id/external-auths/:provider': { records: 'update' },
  'POST /api/collections/:collection/request-verification': OPEN_RECORD_AUTH,
  'POST /api/collections/:collection/confirm-verification': OPEN_RECORD_AUTH,
  'POST /api/collections/:collection/request-email-change': OPEN_RECORD_AUTH,
  'POST /api/collections/:collection/confirm-email-change': OPEN_RECORD_AUTH,
  'POST /api/collections/:collection/request-password-reset': OPEN_RECORD_AUTH,
  'POST /api/collections/:collection/confirm-password-reset': OPEN_RECORD_AUTH,
  'GET /api/collections/:collection/auth-methods': OPEN_RECORD_AUTH,
  'POST /api/collections/:collection/auth-with-password': OPEN_RECORD_AUTH,
  'POST /api/collections/:collection/auth-refresh': OPEN_RECORD_AUTH,
  'POST /api/collections/:collection/auth-with-oauth2': OPEN_RECORD_AUTH,

  'POST /api/files/token': { open: 'a file token; what it opens is judged per file' },
  'GET /api/files/:collection/:recordId/:filename': { handler: "a protected file: the role's read on the collection, else the view rule as a guest" },

  'GET /api/realtime': { open: 'the connection; subscriptions and events are judged' },
  'POST /api/realtime': { handler: "collection topics the role reads (events are judged again each time)" },
  'GET /api/oauth2-redirect': { open: 'the OAuth2 redirect' },

  'GET /api/settings': { handler: 'the sections of the areas the role holds' },
  'PATCH /api/settings': { handler: 'the sections of the areas the role holds' },
  'POST /api/settings/test/email': { area: 'mail' },
  'POST /api/settings/test/s3': { handler: "files storage or backups, by the body's filesystem" },
  'POST /api/settings/apple/generate-client-secret': { area: 'authProviders' },

  'GET /api/health': { open: 'health (admins see the client address)' },
  'GET /api/logs': { area: 'logs' },
  'GET /api/logs/stats': { area: 'logs' },
  'GET /api/logs/:id': { area: 'logs' },

  'GET /api/backups': { area: 'backups' },
  'POST /api/backups': { area: 'backups' },
  'POST /api/backups/upload': { area: 'backups' },
  'GET /api/backups/:key': { open: 'a download: it needs an admin file token, judged in the handler' },
  'DELETE /api/backups/:key': { area: 'backups' },
  'POST /api/backups/:key/restore': { area: 'backups' },
  'GET /api/outpost/backups/migrations': { area: 'backups' },
  'GET /api/outpost/backups/:key/migrations': { area: 'backups' },

  // the audit trail shows every collection's old and new values and every admin: full admins
  'GET /api/outpost/audit': { full: true },
  'GET /api/outpost/audit/export': { full: true },
  'GET /api/outpost/audit/options': { full: true },
  // a collection's history option is part of its schema
  'GET /api/outpost/audit/options/:collection': { schema: 'view' },
  'PATCH /api/outpost/audit/options/:collection': { schema: 'edit' },
  'GET /api/outpost/migrations': { area: 'migrations' },
  'GET /api/outpost/hooks': { full: true },
  'POST /api/outpost/sql': { area: 'sqlConsole' },
  'POST /api/outpost/sql/csv': { area: 'sqlConsole' },

  'GET /': GUEST_STATIC,
  'GET /_/': GUEST_STATIC,
  'GET /_/*': GUEST_STATIC,
  'GET /*': GUEST_STATIC,
};

const tables = new WeakMap<FastifyInstance, RouteEntry[]>();

export interface RouteEntry {
  method: string;
  url: string;
  permission: Permission | undefined;
}

/** Every route registered after registerPermissions, with its permission (the walk test reads it). */
export function routePermissions(app: FastifyInstance): RouteEntry[] {
  return tables.get(app) ?? [];
}

/** Gives every route its permission and enforces it; call before any route is registered. */
export function registerPermissions(app: FastifyInstance, ctx: AppContext): void {
  const table: RouteEntry[] = [];
  tables.set(app, table);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      const url = route.url;
      const permission = route.config?.permission ?? ROUTE_PERMISSIONS[`${method} ${url}`] ?? (method === 'HEAD' ? ROUTE_PERMISSIONS[`GET ${url}`] : undefined);
      if (permission) route.config = { ...route.config, permission };
      table.push({ method, url, permission });
    }
  });
  app.addHook('preHandler', async (req) => {
    const access = scopedAccess(req);
    if (!access) return;
    const permission = req.routeOptions.config?.permission;
    if (!permission) throw forbidden();
    if (!allows(ctx, req, access, permission)) throw forbidden();
  });
}

function allows(ctx: AppContext, req: FastifyRequest, access: AdminAccess, permission: Permission): boolean {
  if ('open' in permission || 'handler' in permission) return true;
  if ('area' in permission) return access.area(permission.area);
  if ('full' in permission) return false;
  const param = (req.params as Record<string, string> | undefined)?.collection;
  const collection = param ? (findCollection(ctx, param) ?? null) : null;
  if ('records' in permission) return access.records(collection, permission.records);
  return access.schema(collection, permission.schema);
}
