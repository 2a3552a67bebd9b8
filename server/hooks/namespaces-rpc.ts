// The main thread's side of the namespaces hook code reaches over the channel besides the Dao and
// raw SQL (./host.ts): `$tokens.*` signed with the server's token code, `recordQuery` rows made
// records, a record saved with `$filesystem` files (./dao-files.ts), the extension of a file's
// content, `$apis.enrichRecord(s)` and `$apis.recordAuthResponse` expanding and exporting records
// as the API does, and the forms (./forms-rpc.ts). Each answers with plain data or model
// snapshots (./models-wire.ts); a call that must wait (disk, bcrypt, the read pool) answers with a
// promise, which the channel settles (never inside runInTransaction: it says so).
import type { AppContext } from '../context';
import type { Collection } from '../collections/model';
import { findCollection } from '../collections/store';
import type { BuiltQuery } from '../migrations/js-select';
import { sniffContentType } from '../records/files';
import { expandFetch, expandRecords } from '../records/expand';
import type { RecordModel } from '../records/model';
import { authInfoFromRow } from '../records/rules';
import { exportRecord } from '../records/serialize';
import { findRowById } from '../records/store';
import type { RequestInfo } from '../query/record-resolver';
import * as tokens from '../services/tokens';
import type { HookDao } from './dao-writes';
import type { Ask } from './dao-model-hooks';
import { saveRecordWithFiles } from './dao-files';
import { formCall } from './forms-rpc';
import { fromWire, toWire } from './models-wire';
import { collectionByRef, recordModelOf, recordWire } from './record-wire';
import type { RecordWire } from './protocol';
import type { RpcServer } from './rpc';

export interface NamespaceEnv {
  ctx: AppContext;
  /** Dao.recordQuery's records: the query run on the hooks' connection (./host.ts holds it). */
  selectRecords(collection: unknown, q: BuiltQuery): unknown[];
  server: RpcServer;
  dao: HookDao;
  /** A hook's runInTransaction is open: nothing may wait. */
  inTransaction: boolean;
  /** Runs a Dao write's model hooks in the calling executor (./dao-model-hooks.ts). */
  ask: Ask;
}

/** What hook code knows of the request (from `$apis.requestInfo(c)`), for expand's rules. */
interface RequestInfoWire {
  method: string;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  data: Record<string, unknown>;
  isAdmin: boolean;
  auth: { id: string; collectionId: string } | null;
}

const isThenable = (v: unknown): v is PromiseLike<unknown> => !!v && typeof (v as { then?: unknown }).then === 'function';

const isWire = (v: unknown, kind: string): v is { __model: string; record?: RecordWire; json?: Record<string, unknown> } =>
  typeof v === 'object' && v !== null && (v as { __model?: unknown }).__model === kind;

/** `$tokens.*(app, model[, newEmail])`: 0.22's claims, signed with the model's tokenKey and the settings' secret. */
function signToken(ctx: AppContext, kind: string, model: unknown, newEmail: unknown): string {
  const settings = ctx.settings.get();
  if (kind.startsWith('admin')) {
    if (!isWire(model, 'admin') || !model.json) throw new Error(`$tokens.${kind}() expects an Admin`);
    const a = { id: String(model.json.id ?? ''), tokenKey: String(model.json.tokenKey ?? ''), email: String(model.json.email ?? '') };
    if (kind === 'adminAuthToken') return tokens.newAdminAuthToken(settings, a);
    if (kind === 'adminResetPasswordToken') return tokens.newAdminPasswordResetToken(settings, a);
    if (kind === 'adminFileToken') return tokens.newAdminFileToken(settings, a);
  } else {
    if (!isWire(model, 'record') || !model.record) throw new Error(`$tokens.${kind}() expects a Record`);
    const { collection, data } = model.record;
    // 0.22 checks the record's own collection (the change-email token does not)
    if (kind !== 'recordChangeEmailToken' && collection?.type !== 'auth') throw new Error('The record is not from an auth collection.');
    const r = { id: String(data.id ?? ''), tokenKey: String(data.tokenKey ?? ''), collectionId: String(collection?.id ?? ''), email: String(data.email ?? '') };
    if (kind === 'recordAuthToken') return tokens.newRecordAuthToken(settings, r);
    if (kind === 'recordVerifyToken') return tokens.newRecordVerificationToken(settings, r);
    if (kind === 'recordResetPasswordToken') return tokens.newRecordPasswordResetToken(settings, r);
    if (kind === 'recordChangeEmailToken') return tokens.newRecordEmailChangeToken(settings, r, String(newEmail ?? ''));
    if (kind === 'recordFileToken') return tokens.newRecordFileToken(settings, r);
  }
  throw new Error(`$tokens.${kind}() is not supported`);
}

/** The RequestInfo the API's expand reads rules with. */
function requestInfoOf(ctx: AppContext, w: RequestInfoWire): RequestInfo {
  let auth: Record<string, unknown> | null = null;
  if (w.auth) {
    const collection = findCollection(ctx, w.auth.collectionId);
    const row = collection ? findRowById(ctx, collection, w.auth.id) : null;
    auth = collection && row ? authInfoFromRow(ctx, collection.id, row) : null;
  }
  return { method: w.method, query: w.query, headers: w.headers, data: w.data, auth, isAdmin: w.isAdmin };
}

/** A record's expand as snapshots (what the executor's Record.expand() gets). */
function expandWire(model: RecordModel): RecordWire['expand'] {
  if (!model.expand) return undefined;
  const one = (m: RecordModel): RecordWire => ({ ...recordWire(m), expand: expandWire(m) });
  return Object.fromEntries(Object.entries(model.expand).map(([k, v]) => [k, Array.isArray(v) ? v.map(one) : one(v)]));
}

/**
 * `$apis.enrichRecords(c, dao, records, ...expands)`: the default expands plus `?expand=`, as the
 * request's caller may see them. Answers the records with their expand.
 */
async function enrich(ctx: AppContext, wires: RecordWire[], expands: string[], info: RequestInfoWire): Promise<RecordWire[]> {
  const models = wires.map((w) => recordModelOf(ctx, w));
  const byCollection = new Map<Collection, RecordModel[]>();
  for (const m of models) byCollection.set(m.collection, [...(byCollection.get(m.collection) ?? []), m]);
  const request = requestInfoOf(ctx, info);
  if (expands.length) for (const [, list] of byCollection) await expandRecords(ctx, list, expands, expandFetch(ctx, request));
  return models.map((m, i) => ({ ...wires[i], expand: expandWire(m) }));
}

/** `$apis.recordAuthResponse`'s record: expanded as the record itself sees it, exported with its email. */
async function authExport(ctx: AppContext, wire: RecordWire, expands: string[], info: RequestInfoWire): Promise<Record<string, unknown>> {
  const model = recordModelOf(ctx, wire);
  if (expands.length) {
    const row = findRowById(ctx, model.collection, String(model.data.id ?? ''));
    const auth = row ? authInfoFromRow(ctx, model.collection.id, row) : null;
    const request: RequestInfo = { ...requestInfoOf(ctx, { ...info, auth: null, isAdmin: false }), auth };
    await expandRecords(ctx, [model], expands, expandFetch(ctx, request));
  }
  return exportRecord(model, { isAdmin: false, showEmail: true });
}

/** Answers the namespace calls; null when `method` is none of them. */
export function namespaceCall(method: string, first: unknown, rest: unknown[], env: NamespaceEnv): { value: unknown } | null {
  const { ctx } = env;
  switch (method) {
    case 'saveRecordFiles': {
      const args = fromWire(rest[0]) as unknown[];
      const done = (value: unknown) => ({ value: toWire(value), args: toWire(args) });
      const value = saveRecordWithFiles(ctx, env.dao, String(first), args, env.inTransaction, env.ask);
      return { value: isThenable(value) ? Promise.resolve(value).then(done) : done(value) };
    }
    case 'recordQuery': {
      const [sql, params] = rest as [string, Record<string, unknown>];
      return { value: toWire(env.selectRecords(first, { sql, params })) };
    }
    case 'files':
      // the extension of a file's content, as an API upload without one gets it
      if (first === 'detectExt') return { value: sniffContentType(Buffer.from(rest[0] as Uint8Array)).then((s) => s.ext) };
      break;
    case 'collection':
      // an executor's first sight of a collection version an event named
      return { value: collectionByRef(ctx, String(first), String(rest[0] ?? '')) };
    case 'tokens':
      return { value: signToken(ctx, String(first), rest[0], rest[1]) };
    case 'records': {
      const [target, expands, info] = rest as [unknown, string[], RequestInfoWire];
      if (first === 'enrich') return { value: enrich(ctx, target as RecordWire[], expands, info) };
      if (first === 'authExport') return { value: authExport(ctx, target as RecordWire, expands, info) };
      break;
    }
    case 'forms':
      return { value: formCall(env, String(first), rest) };
  }
  return null;
}
