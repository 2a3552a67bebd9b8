// What the hook files register while they load, in the executor: handlers by id (real closures of
// their file), and the manifest the main thread builds its routes, triggers and cron jobs from.
import type { MiddlewareRef, Registration } from '../protocol';
import { staticRouteOf } from './static-route';

export type Handler = (...args: unknown[]) => unknown;

export interface HookEntry {
  name: string;
  tags: string[];
  fn: Handler;
}

export interface RouteEntry {
  handler: Handler;
  middlewares: Array<Handler | { builtin: string; args: unknown[] }>;
}

export class HookRegistry {
  readonly hooks = new Map<string, HookEntry>();
  readonly routes = new Map<string, RouteEntry>();
  readonly crons = new Map<string, Handler>();
  /** Custom CLI commands (`$app.rootCmd.addCommand`): their command object, run with (cmd, args). */
  readonly commands = new Map<string, { cmd: unknown; run: Handler | null }>();
  /** routerUse's middlewares, in registration order (they wrap every route). */
  readonly uses: RouteEntry['middlewares'] = [];
  readonly registrations: Array<Registration & { file: string }> = [];
  /** The file being loaded (registrations are only taken then, as in 0.22's loader VM). */
  file: string | null = null;
  #count = 0;

  #id(kind: string): string {
    if (this.file === null) throw new Error(`${kind} can only be called while the hook files load (at the top level of a *.pb.js file)`);
    return `${this.file}#${++this.#count}`;
  }

  addHook(name: string, fn: unknown, tags: unknown[]): void {
    const id = this.#id(name);
    if (typeof fn !== 'function') throw new TypeError(`${name}: the handler must be a function`);
    const names = tags.map(String);
    this.hooks.set(id, { name, tags: names, fn: fn as Handler });
    this.registrations.push({ kind: 'hook', id, name, tags: names, source: Function.prototype.toString.call(fn), file: this.file! });
  }

  #middlewares(what: string, middlewares: unknown[]): { refs: MiddlewareRef[]; list: RouteEntry['middlewares'] } {
    const refs: MiddlewareRef[] = [];
    const list: RouteEntry['middlewares'] = [];
    for (const mw of middlewares) {
      if (typeof mw === 'function') {
        refs.push({ js: list.length });
        list.push(mw as Handler);
      } else if (mw && typeof mw === 'object' && typeof (mw as { builtin?: unknown }).builtin === 'string') {
        const builtin = mw as { builtin: string; args: unknown[] };
        refs.push({ builtin: builtin.builtin, args: builtin.args });
        list.push(builtin);
      } else {
        throw new TypeError(`${what}: a middleware must be a function or one of $apis`);
      }
    }
    return { refs, list };
  }

  addUse(middlewares: unknown[]): void {
    const id = this.#id('routerUse');
    const { refs, list } = this.#middlewares('routerUse', middlewares);
    this.uses.push(...list);
    this.registrations.push({ kind: 'use', id, middlewares: refs, file: this.file! });
  }

  addRoute(method: unknown, path: unknown, handler: unknown, middlewares: unknown[]): void {
    const id = this.#id('routerAdd');
    if (typeof handler !== 'function') throw new TypeError('routerAdd: the handler must be a function');
    const { refs, list } = this.#middlewares('routerAdd', middlewares);
    const m = String(method).toUpperCase();
    this.routes.set(id, { handler: handler as Handler, middlewares: list });
    const folder = staticRouteOf(handler);
    this.registrations.push({ kind: 'route', id, method: m, path: String(path), middlewares: refs, ...(folder ? { static: folder } : {}), file: this.file! });
  }

  addCron(job: unknown, expr: unknown, fn: unknown): void {
    const id = this.#id('cronAdd');
    if (typeof fn !== 'function') throw new TypeError('cronAdd: the handler must be a function');
    const name = String(job);
    // the same job id replaces the earlier one (0.22's cron.Add)
    for (const [oldId, r] of this.registrations.entries()) {
      if (r.kind === 'cron' && r.job === name) {
        this.crons.delete(r.id);
        this.registrations.splice(oldId, 1);
        break;
      }
    }
    this.crons.set(id, fn as Handler);
    this.registrations.push({ kind: 'cron', id, job: name, expr: String(expr), file: this.file! });
  }

  addCommand(cmd: { use: string; short: string; run: Handler | null }): void {
    const id = this.#id('$app.rootCmd.addCommand');
    const name = cmd.use.trim().split(/\s+/)[0] ?? '';
    if (!name) throw new TypeError('addCommand: the command has no "use" name');
    this.commands.set(id, { cmd, run: cmd.run });
    this.registrations.push({ kind: 'command', id, name, use: cmd.use, short: cmd.short, file: this.file! });
  }

  removeCron(job: unknown): void {
    if (this.file === null) throw new Error('cronRemove can only be called while the hook files load');
    const at = this.registrations.findIndex((r) => r.kind === 'cron' && r.job === String(job));
    if (at >= 0) {
      this.crons.delete(this.registrations[at].id);
      this.registrations.splice(at, 1);
    }
  }

  /** The handlers of `name` that run for `tags`: untagged ones, and those naming one of the tags. */
  handlersFor(name: string, tags: string[]): Handler[] {
    const out: Handler[] = [];
    for (const h of this.hooks.values()) {
      if (h.name === name && (h.tags.length === 0 || h.tags.some((t) => tags.includes(t)))) out.push(h.fn);
    }
    return out;
  }
}
