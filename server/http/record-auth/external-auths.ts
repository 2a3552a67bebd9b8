// The OAuth2 links of a record: listed and removed by admins, the record itself or its managers.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { notFound } from '../../core/errors';
import { AUTH_ROUTES, loadAuthCollection, type Params, requireOwnerOrManager } from './shared';

export function registerExternalAuths(app: FastifyInstance, ctx: AppContext): void {
  const base = AUTH_ROUTES;

  app.get(`${base}/records/:id/external-auths`, async (req) => {
    const collection = loadAuthCollection(ctx, req);
    const row = requireOwnerOrManager(ctx, req, collection);
    return ctx.externalAuths.list(collection.id, row.id);
  });

  app.delete(`${base}/records/:id/external-auths/:provider`, async (req, reply) => {
    const collection = loadAuthCollection(ctx, req);
    const row = requireOwnerOrManager(ctx, req, collection);
    const provider = (req.params as Params).provider ?? '';
    const link = provider ? ctx.externalAuths.find(collection.id, row.id, provider) : null;
    if (!link) throw notFound('Missing external auth provider relation.');
    ctx.externalAuths.delete(link.id);
    return reply.status(204).send();
  });
}
