// API rules as SQL: a rule is compiled with the record resolver (request values bound as
// parameters) into a WHERE condition plus the joins it needs, then ANDed into the record query
// (0.22's `resolver.UpdateQuery(q); q.AndWhere(expr)`).
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Collection } from '../collections/model';
import { collectionLookup, findCollection } from '../collections/store';
import { compileFilter } from '../query/filter-compiler';
import { createRecordResolver, type RequestInfo } from '../query/record-resolver';
import type { Sql } from '../query/sql';
import { recordFromRow, type RecordModel } from './model';
import { publicValues } from './serialize';

export interface RuleCondition {
  where: Sql;
  joins: Sql[];
}

/** Compiles `rule` for `collection`; throws FilterError when it cannot be compiled. */
export function compileRule(
  ctx: AppContext,
  collection: Collection,
  rule: string,
  info: RequestInfo | null,
  allowHiddenFields = true,
): RuleCondition {
  const resolver = createRecordResolver({ lookup: collectionLookup(ctx), collection, request: info, allowHiddenFields });
  const where = compileFilter(rule, resolver);
  return { where, joins: resolver.joins?.() ?? [] };
}

/** The auth value `@request.auth.*` reads: public values plus email, collectionId/Name. */
function authInfoOf(ctx: AppContext, req: FastifyRequest): Record<string, unknown> | null {
  if (req.auth?.kind !== 'authRecord' || !req.auth.record || !req.auth.collectionId) return null;
  return authInfoFromRow(ctx, req.auth.collectionId, req.auth.record);
}

/** The same `@request.auth.*` value from an auth record's row (realtime clients keep only ids). */
export function authInfoFromRow(ctx: AppContext, collectionId: string, row: Record<string, unknown>): Record<string, unknown> | null {
  const collection = findCollection(ctx, collectionId);
  if (!collection) return null;
  const model = recordFromRow(collection, row);
  return { ...publicValues(model, true), collectionId: collection.id, collectionName: collection.name };
}

function headersOf(req: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    out[k] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
}

/** The RequestInfo of a request (data given by the caller: the submitted body, modifiers resolved). */
export function requestInfoOf(ctx: AppContext, req: FastifyRequest, data: Record<string, unknown> = {}): RequestInfo {
  return {
    method: req.method,
    query: (req.query as Record<string, unknown>) ?? {},
    headers: headersOf(req),
    data,
    auth: authInfoOf(ctx, req),
    isAdmin: req.auth?.kind === 'admin',
    ...adminReadsOf(req),
  };
}

/** A scoped admin's read check for RequestInfo (nothing for anyone else). */
function adminReadsOf(req: FastifyRequest): Pick<RequestInfo, 'adminReads'> {
  const access = req.auth?.kind === 'admin' ? req.auth.access : undefined;
  return access && !access.full ? { adminReads: (c) => access.records(c, 'read') } : {};
}

/**
 * The manageRule condition a caller must match for `record` (null: no manage access possible:
 * not an auth collection, no or empty rule, no auth, or an uncompilable rule).
 */
export function manageRuleCondition(ctx: AppContext, record: RecordModel, info: RequestInfo): RuleCondition | null {
  const collection = record.collection;
  if (collection.type !== 'auth') return null;
  const manageRule = collection.options.manageRule;
  if (typeof manageRule !== 'string' || manageRule === '') return null;
  if (!info.auth) return null;
  try {
    return compileRule(ctx, collection, manageRule, info, true);
  } catch {
    return null;
  }
}

/** hasAuthManageAccess: whether the caller matches the auth collection's manageRule for `record`. */
export async function hasManageAccess(
  ctx: AppContext,
  record: RecordModel,
  info: RequestInfo,
  find: (collection: Collection, id: string, cond: RuleCondition) => Promise<Record<string, unknown> | null>,
): Promise<boolean> {
  const cond = manageRuleCondition(ctx, record, info);
  return cond !== null && (await find(record.collection, String(record.data.id), cond)) !== null;
}
