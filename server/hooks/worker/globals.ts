// The globals a 0.22 hook file sees (plugins/jsvm binds), installed on an executor's globalThis:
// the registration functions (taken while the files load), $app and the Dao over the channel,
// the model classes, the error classes, $apis' middlewares, and the namespaces Outpost offers.
// Members of 0.22's namespaces that Outpost lacks throw an error naming them.
import { Admin, Collection, JsRecord, Schema, SchemaField, unmarshal } from '../../migrations/js-models';
import { namespace, unsupportedFunction } from '../../migrations/js-unsupported';
import { TAGGED_HOOKS, UNTAGGED_HOOKS } from '../hook-names';
import { appObject, arrayOf, daoProxy, type Call } from './app';
import { ERROR_CLASSES } from './errors';
import { Cookie } from './namespaces/cookie';
import { DateTime } from './namespaces/datetime';
import { dbxNamespace } from './namespaces/dbx';
import { filepathNamespace } from './namespaces/filepath';
import { FormData } from './namespaces/form-data';
import { httpNamespace } from './namespaces/http';
import { MailerMessage } from './namespaces/mail';
import { osNamespace } from './namespaces/os';
import { mailsNamespace } from './namespaces/mails';
import { securityNamespace } from './namespaces/security';
import { templateNamespace } from './namespaces/template/index';
import { tokensNamespace } from './namespaces/tokens';
import { filesystemNamespace } from './namespaces/filesystem';
import { formClasses } from './namespaces/forms';
import { recordHelpers } from './namespaces/record-helpers';
import type { HookRegistry } from './registry';
import { blockingIo } from './sync-io';
import { callable, Command } from './compat';
import { requestInfoOf } from './route-context';
import { staticDirectoryHandler } from './static-route';

const CRON_MACROS = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'];
const CRON_FIELD = /^(\*|\d+(-\d+)?)(\/\d+)?(,(\*|\d+(-\d+)?)(\/\d+)?)*$/;

/** 0.22's cron syntax (tools/cron): five fields or a macro, no seconds. */
function checkCronExpression(expr: string): void {
  const text = expr.trim();
  if (CRON_MACROS.includes(text)) return;
  const fields = text.split(/\s+/);
  if (fields.length !== 5 || !fields.every((f) => CRON_FIELD.test(f))) throw new Error(`invalid cron expression ${JSON.stringify(expr)}: expected 5 fields or a macro (@daily, @hourly, ...)`);
}

class DynamicModel {
  constructor(shape?: unknown) {
    if (typeof shape !== 'object' || shape === null || !Object.keys(shape).length) throw new Error('[DynamicModel] missing shape data');
    Object.assign(this, JSON.parse(JSON.stringify(shape)));
  }
}

/** sleep(ms): blocks this executor (never the server), as 0.22 blocks its goroutine. */
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: unknown) => void Atomics.wait(sleeper, 0, 0, Math.max(0, Number(ms) || 0));

const middleware = (builtin: string) => (...args: unknown[]) => ({ builtin, args: args.map((a) => (typeof a === 'string' ? a : null)) });

export interface GlobalsInfo {
  call: Call;
  registry: HookRegistry;
  hooksDir: string;
  dataDir: string;
  dev: boolean;
}

export function installGlobals(g: Record<string, unknown>, info: GlobalsInfo): void {
  const { call, registry } = info;
  for (const name of [...UNTAGGED_HOOKS, ...TAGGED_HOOKS]) {
    g[name] = (handler: unknown, ...tags: unknown[]) => registry.addHook(name, handler, tags);
  }
  g.routerAdd = (method: unknown, p: unknown, handler: unknown, ...mws: unknown[]) => registry.addRoute(method, p, handler, mws);
  g.routerUse = (...mws: unknown[]) => registry.addUse(mws);
  g.routerPre = unsupportedFunction('routerPre');
  g.cronAdd = (job: unknown, expr: unknown, fn: unknown) => {
    checkCronExpression(String(expr));
    registry.addCron(job, expr, fn);
  };
  g.cronRemove = (job: unknown) => registry.removeCron(job);

  g.__hooks = info.hooksDir;
  // network work a handler waits for ($http.send, mail) runs in this executor's helper thread
  const io = blockingIo();
  g.$app = appObject(call, { dataDir: info.dataDir, dev: info.dev, io, addCommand: (cmd) => registry.addCommand(cmd as Parameters<HookRegistry['addCommand']>[0]) });
  // `new Dao(db)`: 0.22's Dao without hooks; here the main thread's Dao (it fires none yet)
  g.Dao = function Dao() {
    return daoProxy(call);
  };
  // goja's constructors may be called without `new` (0.22 hook code does: `Record(collection)`)
  const classes = { Record: JsRecord, Collection, Admin, Schema, SchemaField, DynamicModel, ...ERROR_CLASSES };
  for (const [name, Class] of Object.entries(classes)) g[name] = callable(Class as new (...args: unknown[]) => object);
  Object.assign(g, { arrayOf, unmarshal });
  g.sleep = sleep;
  g.readerToString = (reader: unknown) => (typeof reader === 'string' ? reader : reader === null || reader === undefined ? '' : String(reader));

  g.$apis = namespace('$apis', {
    staticDirectoryHandler,
    requireRecordAuth: middleware('requireRecordAuth'),
    requireAdminAuth: middleware('requireAdminAuth'),
    requireAdminAuthOnlyIfAny: middleware('requireAdminAuthOnlyIfAny'),
    requireAdminOrRecordAuth: middleware('requireAdminOrRecordAuth'),
    requireAdminOrOwnerAuth: middleware('requireAdminOrOwnerAuth'),
    requireGuestOnly: middleware('requireGuestOnly'),
    activityLogger: middleware('activityLogger'),
    gzip: middleware('gzip'),
    bodyLimit: middleware('bodyLimit'),
    requestInfo: (c: unknown) => requestInfoOf(c),
    ...recordHelpers(call, (name, tags) => registry.handlersFor(name, tags)),
  });
  g.$security = securityNamespace();
  g.$os = osNamespace();
  g.$filepath = filepathNamespace();
  g.$dbx = dbxNamespace();
  g.$http = httpNamespace(io);
  g.$mails = mailsNamespace(call);
  g.$template = templateNamespace();
  for (const [name, Class] of Object.entries({ FormData, MailerMessage, DateTime, Cookie, Command })) g[name] = callable(Class as new (...args: unknown[]) => object);
  g.$tokens = tokensNamespace(call);
  g.$filesystem = filesystemNamespace(call, io);
  for (const [name, Class] of Object.entries(formClasses(call))) g[name] = callable(Class as new (...args: unknown[]) => object);
  for (const name of ['RequestInfo', 'SubscriptionMessage']) g[name] = unsupportedFunction(name);
}
