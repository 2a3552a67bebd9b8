// Outpost's admin roles API (issue 36): the roles (full admins only), who holds which, and an
// admin's own access (what the dashboard draws itself from). The body of a role is its form,
// schemas/roles/role.schema.json. The last full admin can never lose that status: giving it a role
// (here) and deleting it (admins.ts) answer 400. Every change leaves its audit trail entry in
// its transaction: area 'role', create/update/delete (target the role id) and assign (target the
// admin id, the role it held and the one it holds now).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { nowDateTime } from '../db/layout';
import { badRequest, fieldError, notFound } from '../core/errors';
import { validateBody } from '../core/body-validator';
import { newId } from '../services/passwords';
import { auditChange } from '../audit/changes';
import { rowDiff } from '../audit/diff';
import { roleDocOf, type Role } from '../../src/lib/roles';
import { bindForm } from './form-bind';
import { requireAdmin } from './guards';

const LOAD_FAILED = 'An error occurred while loading the submitted data.';
export const LAST_FULL_ADMIN = 'The last full admin cannot be given a role or deleted: make another admin a full admin first.';
const ROLE_FORM = { name: 'string', collections: 'json', areas: 'json' } as const;

type IdParams = { Params: { id: string } };

export function registerRoles(app: FastifyInstance, ctx: AppContext): void {
  const roles = ctx.roles;

  app.get('/api/outpost/access', async (req) => {
    const admin = requireAdmin(req);
    const role = roles.roleOf(String(admin.id));
    return { full: role === null, role };
  });

  app.get('/api/outpost/roles', async (req) => {
    requireAdmin(req);
    const list = roles.list();
    return { items: list.map((r) => ({ ...r, admins: roles.holders(r.id) })) };
  });

  app.get<IdParams>('/api/outpost/roles/:id', async (req) => {
    requireAdmin(req);
    return mustFind(ctx, req.params.id);
  });

  app.post('/api/outpost/roles', async (req) => {
    requireAdmin(req);
    const doc = roleBody(req);
    return ctx.transaction(() => {
      if (roles.findByName(doc.name)) throw badRequest(undefined, { name: NAME_TAKEN });
      const now = nowDateTime();
      const role: Role = { id: newId(), created: now, updated: now, ...doc };
      roles.insert(role);
      auditRole(ctx, 'create', null, role);
      return role;
    });
  });

  app.patch<IdParams>('/api/outpost/roles/:id', async (req) => {
    requireAdmin(req);
    const current = mustFind(ctx, req.params.id);
    const doc = roleBody(req, current);
    return ctx.transaction(() => {
      const other = roles.findByName(doc.name);
      if (other && other.id !== current.id) throw badRequest(undefined, { name: NAME_TAKEN });
      const role: Role = { ...current, ...doc, updated: nowDateTime() };
      roles.update(role);
      auditRole(ctx, 'update', current, role);
      return role;
    });
  });

  app.delete<IdParams>('/api/outpost/roles/:id', async (req, reply) => {
    requireAdmin(req);
    const role = mustFind(ctx, req.params.id);
    ctx.transaction(() => {
      // its admins would become full admins: they must be given another role (or none) first
      const n = roles.holders(role.id);
      if (n > 0) throw badRequest(`The role is given to ${n} admin${n === 1 ? '' : 's'}: give them another role first.`);
      roles.delete(role.id);
      auditRole(ctx, 'delete', role, null);
    });
    return reply.status(204).send();
  });

  app.get('/api/outpost/admin-roles', async (req) => {
    requireAdmin(req);
    return roles.assignments();
  });

  app.put<IdParams>('/api/outpost/admin-roles/:id', async (req) => {
    requireAdmin(req);
    const form = bindForm(req, { role: 'string' }, LOAD_FAILED);
    const roleId = form.role ? form.role : null;
    ctx.transaction(() => {
      if (!ctx.admins.findById(req.params.id)) throw notFound();
      if (roleId !== null && !roles.find(roleId)) throw badRequest(undefined, { role: fieldError('validation_missing_role', 'Missing or invalid role.') });
      if (roleId !== null && roles.roleOf(req.params.id) === null && roles.fullAdmins() <= 1) throw badRequest(LAST_FULL_ADMIN);
      const held = roles.roleOf(req.params.id);
      roles.assign(req.params.id, roleId);
      if ((held?.id ?? null) !== roleId) {
        const named = (r: Role | null) => (r ? { id: r.id, name: r.name } : null);
        auditChange(ctx, { area: 'role', action: 'assign', target: req.params.id, changes: { role: { old: named(held), new: named(roleId === null ? null : roles.find(roleId)) } } });
      }
    });
    return { admin: req.params.id, role: roleId };
  });
}

/** A role created (old null), changed or deleted (next null): its name, collections and areas that changed. */
function auditRole(ctx: AppContext, action: 'create' | 'update' | 'delete', old: Role | null, next: Role | null): void {
  const row = (r: Role | null) => (r ? { id: r.id, name: r.name, collections: r.collections, areas: r.areas } : null);
  const changes = rowDiff(row(old), row(next));
  if (action === 'update' && Object.keys(changes).length === 0) return;
  auditChange(ctx, { area: 'role', action, target: (next ?? old)!.id, changes });
}

const NAME_TAKEN = fieldError('validation_not_unique', 'The role name must be unique.');

function mustFind(ctx: AppContext, id: string): Role {
  const role = ctx.roles.find(id);
  if (!role) throw notFound();
  return role;
}

/** The role document of a POST or PATCH body (a PATCH keeps what it does not send). */
function roleBody(req: FastifyRequest, current?: Role) {
  const form = bindForm(req, ROLE_FORM, LOAD_FAILED);
  const body: Record<string, unknown> = {
    name: form.name ?? current?.name,
    collections: form.collections ?? current?.collections ?? [],
    areas: form.areas ?? current?.areas ?? {},
  };
  validateBody('roles/role', body);
  return roleDocOf(String(body.name).trim(), body);
}
