// `$apis.recordAuthResponse(app, c, record, meta, ...finalizers)` and
// `$apis.enrichRecord(c, dao, record, ...expands)` / `enrichRecords(...)`, as 0.22's
// apis/record_helpers.go does them. The records are expanded and exported by the main thread with
// the API's code (expand under the viewRules of who asks, the record's email shown in an auth
// answer); onRecordAuthRequest runs here, in this executor, with the handler's own `c`, so a
// handler there may change e.token or e.meta, write its own answer, or return false (nothing is
// written, as in 0.22). An async handler makes the call return a promise.
import { JsRecord } from '../../../migrations/js-models';
import { recordFromWire, recordToWire } from '../../models-wire';
import type { RecordWire } from '../../protocol';
import type { Call } from '../app';
import { ForbiddenError } from '../errors';
import type { Handler } from '../registry';
import { requestInfoOf } from '../route-context';

type Context = Record<string, unknown> & { queryParam(name: string): string; json(status: number, value: unknown): unknown; response(): { committed: boolean } };

/** What the main thread needs of the request to expand as its caller may see. */
function requestInfoWire(c: unknown): Record<string, unknown> {
  const info = requestInfoOf(c);
  const auth = info.authRecord instanceof JsRecord ? { id: info.authRecord.id, collectionId: info.authRecord.collection()?.id ?? '' } : null;
  return { method: info.method, query: info.query, headers: info.headers, data: info.data, isAdmin: info.admin !== null && info.admin !== undefined, auth };
}

const expandsOf = (c: Context, defaults: unknown[]) => {
  const param = c.queryParam('expand');
  return [...defaults.map(String), ...(param ? param.split(',') : [])].filter((e) => e !== '');
};

const isThenable = (v: unknown): v is Promise<unknown> => !!v && typeof (v as { then?: unknown }).then === 'function';

/** Runs `handlers` on `e` as a hook chain (false stops it, an Error fails it), then `done`; async once a handler is. */
function chain(handlers: Handler[], e: unknown, done: () => unknown): unknown {
  for (let i = 0; i < handlers.length; i++) {
    const r = handlers[i](e);
    if (isThenable(r)) {
      return r.then((v) => {
        if (v === false) return undefined;
        if (v instanceof Error) throw v;
        return chain(handlers.slice(i + 1), e, done);
      });
    }
    if (r === false) return undefined;
    if (r instanceof Error) throw r;
  }
  return done();
}

export function recordHelpers(call: Call, handlersFor: (name: string, tags: string[]) => Handler[]): Record<string, unknown> {
  const enrichRecords = (c: unknown, _dao: unknown, records: unknown, ...defaults: unknown[]) => {
    const list = Array.isArray(records) ? records.filter((r): r is JsRecord => r instanceof JsRecord) : [];
    const expands = expandsOf(c as Context, defaults);
    if (!list.length || !expands.length) return undefined;
    const wires = call('records', ['enrich', list.map(recordToWire), expands, requestInfoWire(c)]) as RecordWire[];
    list.forEach((r, i) => r.setExpand(recordFromWire(wires[i]).expand()));
    return undefined;
  };

  return {
    enrichRecords,
    enrichRecord: (c: unknown, dao: unknown, record: unknown, ...defaults: unknown[]) => enrichRecords(c, dao, [record], ...defaults),
    recordAuthResponse(_app: unknown, c: unknown, record: unknown, meta: unknown, ...finalizers: unknown[]) {
      if (!(record instanceof JsRecord)) throw new TypeError('recordAuthResponse expects a Record');
      const collection = record.collection();
      if (!record.verified() && collection?.options.onlyVerified === true) throw new ForbiddenError('Please verify your email first.');
      const ctx = c as Context;
      const e: Record<string, unknown> = {
        app: (globalThis as { $app?: unknown }).$app,
        httpContext: c,
        collection,
        record,
        token: String(call('tokens', ['recordAuthToken', { __model: 'record', record: recordToWire(record) }, null])),
        meta: meta ?? null,
      };
      const tags = collection ? [collection.id, collection.name] : [];
      return chain(handlersFor('onRecordAuthRequest', tags), e, () => {
        if (ctx.response().committed) return undefined;
        const target = e.record instanceof JsRecord ? e.record : record;
        const exported = call('records', ['authExport', recordToWire(target), expandsOf(ctx, []), requestInfoWire(c)]);
        const result: Record<string, unknown> = { token: e.token, record: exported };
        if (e.meta !== null && e.meta !== undefined) result.meta = e.meta;
        for (const f of finalizers) {
          if (typeof f !== 'function') continue;
          const r = (f as Handler)(e.token);
          if (r instanceof Error) throw r;
        }
        return ctx.json(200, result);
      });
    },
  };
}
