// The globals a 0.22 hook file sees (plugins/jsvm binds), installed on an executor's globalThis:
// the registration functions (taken while the files load), $app and the Dao over the channel,
// the model classes, the error classes, $apis' middlewares, and the namespaces Outpost offers.
// Members of 0.22's namespaces that Outpost lacks throw an error naming them.
import crypto from 'node:crypto';
import path from 'node:path';
import fs from 'node:fs';
import { Admin, Collection, JsRecord, Schema, SchemaField, unmarshal } from '../../migrations/js-models';
import { namespace, unsupportedFunction } from '../../migrations/js-unsupported';
import { randomString } from '../../services/passwords';
import { TAGGED_HOOKS, UNTAGGED_HOOKS } from '../hook-names';
import { appObject, arrayOf, daoProxy, type Call } from './app';
import { ApiError, BadRequestError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from './errors';
import type { HookRegistry } from './registry';

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

const digest = (algo: string) => (text: unknown) => crypto.createHash(algo).update(String(text ?? '')).digest('hex');
const hmac = (algo: string) => (text: unknown, secret: unknown) => crypto.createHmac(algo, String(secret ?? '')).update(String(text ?? '')).digest('hex');

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
  g.routerUse = unsupportedFunction('routerUse');
  g.routerPre = unsupportedFunction('routerPre');
  g.cronAdd = (job: unknown, expr: unknown, fn: unknown) => {
    checkCronExpression(String(expr));
    registry.addCron(job, expr, fn);
  };
  g.cronRemove = (job: unknown) => registry.removeCron(job);

  g.__hooks = info.hooksDir;
  g.$app = appObject(call, { dataDir: info.dataDir, dev: info.dev });
  // `new Dao(db)`: 0.22's Dao without hooks; here the main thread's Dao (it fires none yet)
  g.Dao = function Dao() {
    return daoProxy(call);
  };
  Object.assign(g, { Record: JsRecord, Collection, Admin, Schema, SchemaField, DynamicModel, arrayOf, unmarshal });
  Object.assign(g, { ApiError, BadRequestError, NotFoundError, ForbiddenError, UnauthorizedError, ValidationError });
  g.sleep = sleep;
  g.readerToString = (reader: unknown) => (typeof reader === 'string' ? reader : reader === null || reader === undefined ? '' : String(reader));

  g.$apis = namespace('$apis', {
    requireRecordAuth: middleware('requireRecordAuth'),
    requireAdminAuth: middleware('requireAdminAuth'),
    requireAdminAuthOnlyIfAny: middleware('requireAdminAuthOnlyIfAny'),
    requireAdminOrRecordAuth: middleware('requireAdminOrRecordAuth'),
    requireAdminOrOwnerAuth: middleware('requireAdminOrOwnerAuth'),
    requireGuestOnly: middleware('requireGuestOnly'),
    activityLogger: middleware('activityLogger'),
    gzip: middleware('gzip'),
    bodyLimit: middleware('bodyLimit'),
  });
  g.$security = namespace('$security', {
    randomString: (n: unknown) => randomString(Number(n)),
    randomStringWithAlphabet: (n: unknown, alphabet: unknown) => randomString(Number(n), String(alphabet)),
    pseudorandomString: (n: unknown) => randomString(Number(n)),
    pseudorandomStringWithAlphabet: (n: unknown, alphabet: unknown) => randomString(Number(n), String(alphabet)),
    md5: digest('md5'),
    sha256: digest('sha256'),
    sha512: digest('sha512'),
    hs256: hmac('sha256'),
    hs512: hmac('sha512'),
    equal: (a: unknown, b: unknown) => {
      const x = Buffer.from(String(a ?? ''));
      const y = Buffer.from(String(b ?? ''));
      return x.length === y.length && crypto.timingSafeEqual(x, y);
    },
  });
  g.$os = namespace('$os', {
    getenv: (name: unknown) => process.env[String(name)] ?? '',
    getwd: () => process.cwd(),
    readFile: (file: unknown) => [...fs.readFileSync(String(file))],
    args: process.argv.slice(1),
  });
  g.$filepath = namespace('$filepath', {
    base: (p: unknown) => path.posix.basename(String(p)) || '.',
    dir: (p: unknown) => path.posix.dirname(String(p)),
    ext: (p: unknown) => path.posix.extname(String(p)),
    join: (...parts: unknown[]) => path.posix.join(...parts.map(String)),
    clean: (p: unknown) => path.posix.normalize(String(p)).replace(/(.)\/$/, '$1'),
    isAbs: (p: unknown) => path.posix.isAbsolute(String(p)),
    split: (p: unknown) => {
      const s = String(p);
      const at = s.lastIndexOf('/') + 1;
      return [s.slice(0, at), s.slice(at)];
    },
  });
  for (const name of ['$dbx', '$tokens', '$filesystem', '$http', '$mails', '$template']) g[name] = namespace(name);
  for (const name of ['MailerMessage', 'Command', 'RequestInfo', 'DateTime', 'Cookie', 'SubscriptionMessage', 'FormData']) g[name] = unsupportedFunction(name);
}
