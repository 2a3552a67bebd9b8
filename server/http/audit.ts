// The audit trail over HTTP. Every request runs as its audit actor (who, from which trusted
// address, under which request id), so a store's write anywhere below knows whom to name; and
// the admin-only routes of the audit screen and the record editor's History tab:
//   GET   /api/outpost/audit                       ?page&perPage&actor&collection&action&area&target&from&to
//   GET   /api/outpost/audit/export                the same filters, ?format=json|csv, every match (capped)
//   GET   /api/outpost/audit/options               { history: [collection ids] }
//   GET   /api/outpost/audit/options/:collection   { enabled, history } (one collection's, for its editor)
//   PATCH /api/outpost/audit/options/:collection   { history } (schemas/audit/collection-history.schema.json)
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { runAsAuditActor, type AuditActor } from '../audit/actor';
import { setCollectionHistory } from '../audit/changes';
import { exportAudit, historyCollections, listAudit, type AuditFilter, type AuditItem } from '../audit/query';
import { findCollection } from '../collections/store';
import { validateBody } from '../core/body-validator';
import { badRequest, notFound } from '../core/errors';
import { csvLine } from '../services/sql-console/csv';
import { clientAddress } from './client-address';
import { readBody } from './form-bind';
import { requireAdmin } from './guards';
import { isObject } from '../../src/lib/json';

const EXPORT_LIMIT = 100_000;
const MAX_PER_PAGE = 500;

export function registerAuditActor(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('preHandler', (req, _reply, done) => {
    const auth = req.auth;
    const who = auth.kind === 'admin' ? auth.admin : auth.kind === 'authRecord' ? auth.record : undefined;
    const actor: AuditActor = {
      kind: auth.kind,
      id: who ? String(who.id ?? '') : '',
      email: who ? String(who.email ?? '') : '',
      collectionId: auth.kind === 'authRecord' ? auth.collectionId : undefined,
      ip: clientAddress(ctx, req),
      requestId: req.logId ?? '',
    };
    runAsAuditActor(actor, done);
  });
}

function text(req: FastifyRequest, name: string): string {
  const v = (req.query as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? v.trim() : '';
}

function filterOf(req: FastifyRequest): AuditFilter {
  const date = (name: string) => {
    const raw = text(req, name);
    if (!raw) return undefined;
    const d = new Date(raw.includes('T') || raw.includes(' ') ? raw.replace(' ', 'T') : `${raw}T00:00:00Z`);
    if (Number.isNaN(d.getTime())) throw badRequest('Invalid filter.', { [name]: { code: 'validation_invalid_date', message: 'Must be a valid date.' } });
    return d.toISOString().replace('T', ' ');
  };
  return {
    actor: text(req, 'actor') || undefined,
    collection: text(req, 'collection') || undefined,
    action: text(req, 'action') || undefined,
    area: text(req, 'area') || undefined,
    target: text(req, 'target') || undefined,
    from: date('from'),
    to: date('to'),
  };
}

const CSV_COLUMNS = ['id', 'created', 'area', 'action', 'collectionName', 'target', 'actorKind', 'actorId', 'actorEmail', 'ip', 'requestId', 'changes'] as const;

const csvOf = (items: AuditItem[]): string =>
  csvLine(CSV_COLUMNS) + items.map((i) => csvLine(CSV_COLUMNS.map((c) => (c === 'changes' ? JSON.stringify(i.changes) : i[c])))).join('');

export function registerAudit(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/outpost/audit', async (req) => {
    requireAdmin(req);
    const page = Math.max(1, Math.floor(Number(text(req, 'page')) || 1));
    const perPage = Math.min(MAX_PER_PAGE, Math.max(1, Math.floor(Number(text(req, 'perPage')) || 30)));
    return listAudit(ctx, filterOf(req), page, perPage);
  });

  app.get('/api/outpost/audit/export', async (req, reply) => {
    requireAdmin(req);
    const format = text(req, 'format') || 'json';
    if (format !== 'json' && format !== 'csv') throw badRequest('Invalid export format.', { format: { code: 'validation_in_invalid', message: 'Must be json or csv.' } });
    const items = await exportAudit(ctx, filterOf(req), EXPORT_LIMIT);
    const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '');
    void reply.header('content-disposition', `attachment; filename="audit_${stamp}.${format}"`).header('cache-control', 'no-store');
    if (format === 'csv') return reply.type('text/csv; charset=utf-8').send(csvOf(items));
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(items, null, 2));
  });

  app.get('/api/outpost/audit/options', async (req) => {
    requireAdmin(req);
    return { enabled: ctx.audit.enabled, history: historyCollections(ctx) };
  });

  // one collection's option, for its editor (a scoped admin that sees the schema reads it there)
  app.get('/api/outpost/audit/options/:collection', async (req) => {
    requireAdmin(req);
    const collection = findCollection(ctx, (req.params as { collection?: string }).collection ?? '');
    if (!collection || collection.type === 'view') throw notFound();
    return { enabled: ctx.audit.enabled, history: ctx.audit.historyOn(collection.id) };
  });

  app.patch('/api/outpost/audit/options/:collection', async (req) => {
    requireAdmin(req);
    const collection = findCollection(ctx, (req.params as { collection?: string }).collection ?? '');
    if (!collection || collection.type === 'view') throw notFound();
    const raw = readBody(req, { history: 'bool' }, 'An error occurred while loading the submitted data.');
    const body = isObject(raw) ? raw : {};
    validateBody('audit/collection-history', body, {}, 'Failed to save the record history option.');
    setCollectionHistory(ctx, collection, body.history === true);
    return { history: ctx.audit.historyOn(collection.id) };
  });
}
