// Route guards. Admin-only routes answer 401 to anyone who is not an admin (PocketBase 0.22),
// even to a signed-in auth record.
import type { FastifyRequest } from 'fastify';
import { adminOnly } from '../core/errors';

export function requireAdmin(req: FastifyRequest): Record<string, unknown> {
  if (req.auth?.kind !== 'admin' || !req.auth.admin) throw adminOnly();
  return req.auth.admin;
}
