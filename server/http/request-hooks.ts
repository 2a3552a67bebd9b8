// 0.22's request hooks (onRecord*Request, onAdmin*Request, onSettings*Request, ...), whatever the
// model: a hook triggered with the request and its event's fields, the event as the handlers
// left it, and the answer they decide. A handler that returns false ends the flow (no later
// handler, no default action: 200 with no body unless one wrote a response); a response a handler
// wrote is the answer whatever follows (in 0.22 only the default answer looks at whether the reply
// was committed), even an error; a handler's error is thrown as 0.22 answers it.
// record-hooks.ts builds the record events on this.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { HookEventWire, ResponseSnapshot } from '../hooks/protocol';
import { apiErrorOf, invokeSafely } from '../hooks/errors';
import { requestSnapshot, sendWritten } from './hook-routes';

/**
 * Thrown where the hooks decided the answer deep inside a route (a handler returned false or wrote
 * a response): the error handler (core.ts) sends it.
 */
export class HookAnswer extends Error {
  constructor(readonly run: HookRun) {
    super('answered by a hook');
  }
}

/** Throws HookAnswer when `run` stopped the chain or wrote a response. */
export function answerIfDecided(run: HookRun | null): void {
  if (run && (run.stopped || run.response)) throw new HookAnswer(run);
}

export interface HookRun {
  /** A handler returned false: no later handler ran and no default action is to run. */
  stopped: boolean;
  /** What a handler wrote (c.json, ...), to send instead of the default answer. */
  response: ResponseSnapshot | null;
  /** Set when the handlers put another record in e.record (its id), e.g. a custom sign-in look-up. */
  recordId?: string;
  /** The event's fields as the handlers left them (plain ones, and the tagged models a handler read). */
  fields?: Record<string, unknown>;
  /** The whole event as the handlers left it (e.record, e.records). */
  event?: HookEventWire;
}

/** What the hooks decided: the response a handler wrote, or 200 with no body (0.22 after `return false`). */
export function sendHookAnswer(reply: FastifyReply, run: HookRun): FastifyReply {
  return sendWritten(reply, { outcome: 'continue', response: run.response });
}

/** Triggers `name` for `tags` with the request and `event`; null when no handler runs. */
export async function runRequestHook(ctx: AppContext, req: FastifyRequest, name: string, tags: string[], event: Omit<HookEventWire, 'request'>): Promise<HookRun | null> {
  const hooks = ctx.hooks;
  if (!hooks?.has(name, tags)) return null;
  const result =
    hooks.triggerInline(name, tags, event, () => requestSnapshot(ctx, req)) ??
    (await invokeSafely(() => hooks.trigger(name, tags, { ...event, request: requestSnapshot(ctx, req) }), name));
  if (result.outcome === 'error') throw apiErrorOf(result.error);
  return { stopped: result.outcome === 'stop', response: result.response ?? null, fields: result.event?.fields, event: result.event };
}

/**
 * The request hooks of one flow, chained as 0.22 chains them (before → the action → after → the
 * answer): the first response a handler wrote is kept as the answer, and a handler's false ends
 * the flow there (HookAnswer).
 */
export class HookChain {
  written: ResponseSnapshot | null = null;

  /** Notes a hook's run (null: no handler ran); throws HookAnswer when a handler returned false. */
  protected note<T extends HookRun | null>(run: T): T {
    if (run?.response && !this.written) this.written = run.response;
    if (run?.stopped) throw new HookAnswer({ stopped: true, response: this.written });
    return run;
  }

  /** Throws the written response as the answer, if a handler wrote one. */
  answerIfWritten(): void {
    if (this.written) throw new HookAnswer({ stopped: true, response: this.written });
  }

  /** Runs the flow: an error after a handler wrote a response answers that response (0.22's committed reply). */
  async guard<T>(flow: () => Promise<T>): Promise<T> {
    try {
      return await flow();
    } catch (err) {
      if (err instanceof HookAnswer || !this.written) throw err;
      throw new HookAnswer({ stopped: true, response: this.written });
    }
  }
}

/** A chain of request hooks whose events are plain fields (and tagged models): the admins and settings APIs. */
export class RequestHooks extends HookChain {
  constructor(
    private readonly ctx: AppContext,
    private readonly req: FastifyRequest,
    private readonly tags: string[] = [],
  ) {
    super();
  }

  /** Whether `name` has handlers (nothing need be prepared otherwise). */
  has(name: string): boolean {
    return !!this.ctx.hooks?.has(name, this.tags);
  }

  /** Runs `name`'s handlers with `fields`; the fields as they left them (null: no handler ran). */
  async run(name: string, fields: Record<string, unknown>): Promise<Record<string, unknown> | null> {
    const run = this.note(await runRequestHook(this.ctx, this.req, name, this.tags, { fields }));
    return run ? (run.fields ?? {}) : null;
  }
}
