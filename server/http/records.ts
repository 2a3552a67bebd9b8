// /api/collections/:collection/records — list, view, create, update, delete with PocketBase
// 0.22's rules, statuses and shapes (apis/record_crud.go). Bodies are JSON or multipart (files,
// `@jsonPayload`); the multipart parser is registered on this scope only.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Collection } from '../collections/model';
import { findCollection } from '../collections/store';
import { FilterError } from '../query/filter-ast';
import { compileFilter } from '../query/filter-compiler';
import { listPlanKey, planListQuery, runListPlan } from '../query/list';
import { cachedPlan } from '../query/plan-cache';
import { createRecordResolver, type RequestInfo } from '../query/record-resolver';
import { quoteIdent as q } from '../query/sql';
import { collectionLookup, refusedViewReason } from '../collections/store';
import { ApiError, badRequest, forbidden, notFound } from '../core/errors';
import { parseFields } from '../core/pick-fields';
import { parseJsonBody } from '../core/json';
import { jsonTooDeep } from '../core/json-depth';
import { deleteRecord } from '../records/delete';
import { countExpanded, expandFetch, expandRecords, MAX_EXPANDED_RECORDS, resolveEmailVisibility } from '../records/expand';
import { normalizeFileName, sniffContentType } from '../records/files';
import { recordFromRow, type RecordModel } from '../records/model';
import { compileRule, hasManageAccess, requestInfoOf, type RuleCondition } from '../records/rules';
import { exportRecord } from '../records/serialize';
import { findRowById, readRowById } from '../records/store';
import { ReadQueryError } from '../db/database';
import { createRecord, CREATE_FAILED, UPDATE_FAILED, updateExistingRecord } from '../records/upsert';
import { isRecord, runRecordHook, saveWithHooks, sendHookAnswer } from './record-hooks';
import { LOAD_FAILED, newRecordModel } from '../records/upsert-form';
import type { UploadedFile } from '../records/validate';
import { hasModifierKeys, replaceModifiers, type RecordData } from '../../src/fields/record-values';
import { isFileField } from '../../src/fields/file/field';

/** Same as the app's body limit (multipart is parsed by its own limits). */
const MAX_BODY_BYTES = 32 << 20;

const ONLY_ADMINS = 'Only admins can perform this action.';
const UNSUPPORTED_TYPE = 'Unsupported collection type.';
const ADMIN_ONLY_FILTER_FIELDS = ['@collection.', '@request.'];

/** Marks a body that could not be parsed (records answer it with their own 400). */
const INVALID_BODY = Symbol('invalid body');

type Params = { collection: string; id?: string };

export function registerRecords(app: FastifyInstance, ctx: AppContext): void {
  void app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fieldSize: MAX_BODY_BYTES, fields: 10_000, files: 1_000, parts: 11_000, fileSize: MAX_BODY_BYTES, headerPairs: 2000 },
    });
    // record writes answer unreadable JSON with their own message (not the framework's)
    scope.removeContentTypeParser(['application/json']);
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
      const raw = typeof body === 'string' ? body : body.toString('utf8');
      if (raw.trim() === '') {
        req.emptyJsonBody = true;
        done(null, {});
        return;
      }
      try {
        done(null, parseJsonBody(raw));
      } catch {
        done(null, INVALID_BODY);
      }
    });

    scope.get<{ Params: Params }>('/api/collections/:collection/records', async (req, reply) => list(ctx, req, reply));
    scope.get<{ Params: Params }>('/api/collections/:collection/records/:id', async (req, reply) => view(ctx, req, reply));
    scope.post<{ Params: Params }>('/api/collections/:collection/records', async (req, reply) => create(ctx, req, reply));
    scope.patch<{ Params: Params }>('/api/collections/:collection/records/:id', async (req, reply) => update(ctx, req, reply));
    scope.delete<{ Params: Params }>('/api/collections/:collection/records/:id', async (req, reply) => remove(ctx, req, reply));
  });
}

function loadCollection(ctx: AppContext, req: FastifyRequest<{ Params: Params }>, writable = false): Collection {
  const collection = findCollection(ctx, req.params.collection ?? '');
  if (!collection) throw notFound();
  if (writable && collection.type === 'view') throw badRequest(UNSUPPORTED_TYPE);
  const refused = refusedViewReason(ctx, collection);
  if (refused) throw badRequest(`This view collection is not served: ${refused}.`);
  return collection;
}

const isAdminReq = (req: FastifyRequest) => req.auth?.kind === 'admin';
/** Who a kept list plan is for: a guest or record (0), a full admin (1), a role as it stands (its filter reach differs). */
function planCaller(req: FastifyRequest): string {
  if (req.auth?.kind !== 'admin') return '0';
  const role = req.auth.access?.full === false ? req.auth.access.role : null;
  return role ? `role:${role.id}:${role.updated}` : '1';
}

function firstQuery(req: FastifyRequest, key: string): string {
  const v = (req.query as Record<string, unknown> | undefined)?.[key];
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' ? s : '';
}

/** The rule condition for a non-admin (null: no condition); FilterError → thrown as is. */
function ruleFor(ctx: AppContext, collection: Collection, rule: string | null, info: RequestInfo): RuleCondition | null {
  if (info.isAdmin || rule === null || rule === '') return null;
  return compileRule(ctx, collection, rule, info, true);
}

/** FindRecordById under a rule: 404 when missing, denied, or the rule cannot be compiled. */
async function findUnderRule(ctx: AppContext, collection: Collection, id: string, rule: string | null, info: RequestInfo): Promise<RecordModel> {
  let cond: RuleCondition | null;
  try {
    cond = ruleFor(ctx, collection, rule, info);
  } catch (err) {
    if (err instanceof FilterError) throw new ApiError(404, "The requested resource wasn't found.", {}, err.message);
    throw err;
  }
  let row: Record<string, unknown> | null;
  try {
    row = await readRowById(ctx, collection, id, cond);
  } catch (err) {
    // a rule whose SQL cannot run (e.g. a broken view) denies like an uncompilable one
    if (err instanceof ReadQueryError) throw new ApiError(404, "The requested resource wasn't found.", {}, err.message);
    throw err;
  }
  if (!row) throw notFound();
  return recordFromRow(collection, row);
}

/** EnrichRecords: email visibility, then `?expand=` (failures only skip paths). */
/** The emails a requester may see and the relations its `?expand=` asks for (lists, views, records-by-ids). */
export async function enrich(ctx: AppContext, req: FastifyRequest, records: RecordModel[], info: RequestInfo): Promise<void> {
  await resolveEmailVisibility(ctx, records, info);
  const expand = firstQuery(req, 'expand');
  if (expand && records.length > 0) {
    await expandRecords(ctx, records, expand.split(','), expandFetch(ctx, info));
    if (countExpanded(records) > MAX_EXPANDED_RECORDS) {
      throw badRequest(`The expanded result is too large (over ${MAX_EXPANDED_RECORDS} records); expand fewer relations or levels.`);
    }
  }
}

export function output(req: FastifyRequest, info: RequestInfo, record: RecordModel): Record<string, unknown> {
  return exportRecord(record, { isAdmin: isAdminReq(req), authRecord: info.auth });
}

// ---- list / view ---------------------------------------------------------------------------

/** Keys a record response can have: system keys, the collection's fields and `expand`. */
function recordKeys(collection: Collection): Set<string> {
  const keys = new Set(['*', 'id', 'created', 'updated', 'collectionId', 'collectionName', 'expand']);
  if (collection.type === 'auth') for (const k of ['username', 'email', 'emailVisibility', 'verified']) keys.add(k);
  for (const f of collection.schema) keys.add(f.name);
  return keys;
}

/**
 * `?fields=` naming a column the record does not have (or a hidden one such as passwordHash) is a
 * 400 here rather than silently dropped (0.22 drops it; our issue asks for a clear error).
 * Paths under `expand.` are not checked: expand itself skips unknown relations.
 */
function checkFieldsParam(req: FastifyRequest, collection: Collection): void {
  const raw = firstQuery(req, 'fields');
  if (!raw) return;
  const allowed = recordKeys(collection);
  let requested: string[];
  try {
    requested = [...parseFields(raw).keys()];
  } catch (err) {
    throw badRequest(undefined, {}, err instanceof Error ? err.message : String(err));
  }
  for (const path of requested) {
    const top = path.split('.')[0];
    if (!allowed.has(top)) throw badRequest(`Invalid fields parameter: unknown field "${top}".`);
  }
}

async function list(ctx: AppContext, req: FastifyRequest<{ Params: Params }>, reply: FastifyReply) {
  const collection = loadCollection(ctx, req);
  checkFieldsParam(req, collection);
  const admin = isAdminReq(req);
  if (!admin) {
    for (const param of ['filter', 'sort']) {
      const v = firstQuery(req, param);
      for (const field of ADMIN_ONLY_FILTER_FIELDS) {
        if (v.includes(field)) throw forbidden(`Only admins can filter by ${field}`);
      }
    }
    if (collection.listRule === null) throw forbidden(ONLY_ADMINS);
  }
  const info = requestInfoOf(ctx, req);
  const query = (req.query as Record<string, unknown>) ?? {};
  const rule = admin ? '' : (collection.listRule ?? '');
  // the compiled statements are kept when nothing of the request's can change them
  const key = [rule, firstQuery(req, 'filter'), firstQuery(req, 'sort')].some((text) => text.includes('@'))
    ? null
    : `${collection.id}\n${planCaller(req)}\n${listPlanKey(query)}`;
  const plan = cachedPlan(ctx.collections.cached(), key, () => {
    // one resolver for the rule and the client's filter/sort, so their joins are shared
    const resolver = createRecordResolver({ lookup: collectionLookup(ctx), collection, request: info, allowHiddenFields: admin });
    let baseWhere;
    if (rule) {
      try {
        baseWhere = compileFilter(rule, resolver);
      } catch (err) {
        if (err instanceof FilterError) throw badRequest(undefined, {}, err.message);
        throw err;
      }
    }
    const table = q(collection.name);
    return planListQuery({
      table: collection.name,
      columns: {},
      query,
      resolver,
      baseWhere,
      select: `${table}.*`,
      countColumn: `${table}.${q('id')}`,
      rowid: collection.type !== 'view',
      sortsFromIndex: (sql, params) => ctx.collections.sortsFromIndex(sql, params),
    });
  });
  const result = await runListPlan<Record<string, unknown>>(ctx.reads, plan);
  const records = result.items.map((row) => recordFromRow(collection, row as Record<string, unknown>));
  await enrich(ctx, req, records, info);
  const { items: _rows, ...page } = result;
  const hook = await runRecordHook(ctx, req, 'onRecordsListRequest', collection, { records, fields: { result: page } });
  if (hook && (hook.stopped || hook.response)) return sendHookAnswer(reply, hook);
  return { ...result, items: records.map((r) => output(req, info, r)) };
}

async function view(ctx: AppContext, req: FastifyRequest<{ Params: Params }>, reply: FastifyReply) {
  const collection = loadCollection(ctx, req);
  checkFieldsParam(req, collection);
  const id = req.params.id ?? '';
  if (!id) throw notFound();
  if (!isAdminReq(req) && collection.viewRule === null) throw forbidden(ONLY_ADMINS);
  const info = requestInfoOf(ctx, req);
  const record = await findUnderRule(ctx, collection, id, collection.viewRule, info);
  await enrich(ctx, req, [record], info);
  const hook = await runRecordHook(ctx, req, 'onRecordViewRequest', collection, { record });
  if (hook && (hook.stopped || hook.response)) return sendHookAnswer(reply, hook);
  return output(req, info, record);
}

// ---- create / update / delete --------------------------------------------------------------

interface ParsedBody {
  data: RecordData;
  uploads: Map<string, UploadedFile[]>;
}

/** Reads a JSON or multipart body; anything else (or an empty/invalid JSON body) is the 400. */
async function readBody(req: FastifyRequest, collection: Collection, failMessage: string): Promise<ParsedBody> {
  const uploads = new Map<string, UploadedFile[]>();
  if (req.isMultipart()) {
    const values = new Map<string, string[]>();
    const payloads: string[] = [];
    const fileFields = new Map(collection.schema.filter(isFileField).map((f) => [f.name, f]));
    try {
      for await (const part of req.parts()) {
        if (part.type === 'file') {
          const field = fileFields.get(part.fieldname);
          if (!field) {
            part.file.resume();
            continue;
          }
          let data: Buffer;
          try {
            data = await part.toBuffer();
          } catch (err) {
            if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
              const max = Number(field.options.maxSize) || 5 << 20;
              throw new ApiError(400, failMessage, {
                [field.name]: {
                  code: 'validation_file_size_limit',
                  message: `Failed to upload ${JSON.stringify(part.filename)} - the maximum allowed file size is ${max} bytes.`,
                },
              });
            }
            throw err;
          }
          const sniffed = await sniffContentType(data);
          const file: UploadedFile = {
            name: normalizeFileName(part.filename ?? '', sniffed.ext),
            originalName: part.filename ?? '',
            data,
            contentType: sniffed.mime,
          };
          uploads.set(field.name, [...(uploads.get(field.name) ?? []), file]);
          continue;
        }
        if (part.valueTruncated) throw new ApiError(400, LOAD_FAILED, {}, `multipart value of ${part.fieldname} truncated`);
        const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
        if (part.fieldname === '@jsonPayload') payloads.push(value);
        else values.set(part.fieldname, [...(values.get(part.fieldname) ?? []), value]);
      }
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw new ApiError(400, LOAD_FAILED, {}, err instanceof Error ? err.message : String(err));
    }
    const data: RecordData = {};
    const arrayable = new Set(['select', 'file', 'relation']);
    for (const [key, vals] of values) {
      const field = collection.schema.find((f) => f.name === key);
      data[key] = field && arrayable.has(field.type) ? vals : vals[0];
    }
    for (const p of payloads) {
      // a payload too deep to answer with is unreadable, not ignorable (it would poison the record)
      if (jsonTooDeep(p)) throw badRequest(LOAD_FAILED);
      try {
        const parsed: unknown = JSON.parse(p);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) Object.assign(data, parsed);
      } catch {
        // 0.22 only logs an undecodable @jsonPayload
      }
    }
    return { data, uploads };
  }
  const contentType = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const body = req.body as unknown;
  if (contentType !== 'application/json' || req.emptyJsonBody || body === INVALID_BODY) throw badRequest(LOAD_FAILED);
  if (body === null || body === undefined) return { data: {}, uploads };
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest(LOAD_FAILED);
  return { data: { ...(body as RecordData) }, uploads };
}

async function create(ctx: AppContext, req: FastifyRequest<{ Params: Params }>, reply: FastifyReply) {
  const collection = loadCollection(ctx, req, true);
  const admin = isAdminReq(req);
  if (!admin && collection.createRule === null) throw forbidden(ONLY_ADMINS);
  const body = await readBody(req, collection, CREATE_FAILED);
  let ruleData = body.data;
  if (hasModifierKeys(ruleData)) {
    ruleData = replaceModifiers(collection, newRecordModel(collection).data, ruleData);
  }
  const info = requestInfoOf(ctx, req, ruleData);
  const saved = await saveWithHooks(ctx, req, reply, collection, 'Create', (beforeSave) => createRecord(ctx, collection, { data: body.data, uploads: body.uploads, info, beforeSave }));
  if (!isRecord(saved)) return saved;
  await enrich(ctx, req, [saved], info);
  return output(req, info, saved);
}

async function update(ctx: AppContext, req: FastifyRequest<{ Params: Params }>, reply: FastifyReply) {
  const collection = loadCollection(ctx, req, true);
  const id = req.params.id ?? '';
  if (!id) throw notFound();
  const admin = isAdminReq(req);
  if (!admin && collection.updateRule === null) throw forbidden(ONLY_ADMINS);
  // a body that cannot be read fails only once the record is known to be accessible (0.22 order)
  let body: ParsedBody = { data: {}, uploads: new Map() };
  let bodyError: unknown = null;
  try {
    body = await readBody(req, collection, UPDATE_FAILED);
  } catch (err) {
    bodyError = err;
  }
  let ruleData = body.data;
  if (hasModifierKeys(ruleData)) {
    const current = findRowById(ctx, collection, id);
    if (!current) throw notFound();
    ruleData = replaceModifiers(collection, recordFromRow(collection, current).data, ruleData);
  }
  const info = requestInfoOf(ctx, req, ruleData);
  const record = await findUnderRule(ctx, collection, id, collection.updateRule, info);
  if (bodyError) throw bodyError;
  const manage = admin || (await hasManageAccess(ctx, record, info, (c, rid, cond) => readRowById(ctx, c, rid, cond)));
  const saved = await saveWithHooks(ctx, req, reply, collection, 'Update', (beforeSave) =>
    updateExistingRecord(ctx, record, { data: body.data, uploads: body.uploads, info, beforeSave }, manage),
  );
  if (!isRecord(saved)) return saved;
  await enrich(ctx, req, [saved], info);
  return output(req, info, saved);
}

async function remove(ctx: AppContext, req: FastifyRequest<{ Params: Params }>, reply: FastifyReply) {
  const collection = loadCollection(ctx, req, true);
  const id = req.params.id ?? '';
  if (!id) throw notFound();
  if (!isAdminReq(req) && collection.deleteRule === null) throw forbidden(ONLY_ADMINS);
  const info = requestInfoOf(ctx, req);
  const record = await findUnderRule(ctx, collection, id, collection.deleteRule, info);
  const before = await runRecordHook(ctx, req, 'onRecordBeforeDeleteRequest', collection, { record });
  if (before?.stopped) return sendHookAnswer(reply, before);
  await deleteRecord(ctx, record);
  const after = await runRecordHook(ctx, req, 'onRecordAfterDeleteRequest', collection, { record });
  const written = before?.response ?? after?.response;
  if (after?.stopped || written) return sendHookAnswer(reply, { stopped: true, response: written ?? null });
  return reply.status(204).send();
}
