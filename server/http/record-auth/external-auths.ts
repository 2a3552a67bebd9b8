// The OAuth2 links of a record: listed and removed by admins, the record itself or its managers,
// with 0.22's hooks (onRecordListExternalAuthsRequest: e.externalAuths, which a handler may
// change; onRecord{Before,After}UnlinkExternalAuthRequest: e.externalAuth, the model hooks of the
// link's delete between them).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { notFound } from '../../core/errors';
import { deleteExternalAuth } from '../../records/auth-writes';
import { recordFromRow } from '../../records/model';
import { AUTH_ROUTES, AuthHooks, loadAuthCollection, type Params, requireOwnerOrManager } from './shared';

export function registerExternalAuths(app: FastifyInstance, ctx: AppContext): void {
  const base = AUTH_ROUTES;

  app.get(`${base}/records/:id/external-auths`, async (req) => {
    const collection = loadAuthCollection(ctx, req);
    const row = requireOwnerOrManager(ctx, req, collection);
    const externalAuths = ctx.externalAuths.list(collection.id, row.id);
    const hooks = new AuthHooks(ctx, req, collection);
    const run = await hooks.run('onRecordListExternalAuthsRequest', { record: recordFromRow(collection, row), fields: { externalAuths } });
    hooks.answerIfWritten();
    return run?.fields && Array.isArray(run.fields.externalAuths) ? run.fields.externalAuths : externalAuths;
  });

  app.delete(`${base}/records/:id/external-auths/:provider`, async (req, reply) => {
    const collection = loadAuthCollection(ctx, req);
    const row = requireOwnerOrManager(ctx, req, collection);
    const provider = (req.params as Params).provider ?? '';
    const link = provider ? ctx.externalAuths.find(collection.id, row.id, provider) : null;
    if (!link) throw notFound('Missing external auth provider relation.');
    const record = recordFromRow(collection, row);
    const hooks = new AuthHooks(ctx, req, collection);
    return hooks.guard(async () => {
      await hooks.run('onRecordBeforeUnlinkExternalAuthRequest', { record, fields: { externalAuth: link } });
      await deleteExternalAuth(ctx, link, 'Cannot unlink the external auth provider.');
      await hooks.run('onRecordAfterUnlinkExternalAuthRequest', { record, fields: { externalAuth: link } });
      hooks.answerIfWritten();
      return reply.status(204).send();
    });
  });
}
