// 0.22's onBeforeApiError / onAfterApiError (apis/base.go's error handler) around every answer
// with an error whose reply is not committed yet. e.error is the ApiError (code, message, data,
// error()) and e.httpContext the request. 0.22 answers with the very object it gave the handlers,
// so a before-handler may change its code, message and data (not put another object in its
// place); `return false` skips the default answer (200 with no body, as echo answers when nothing
// was written), a response a handler wrote is the answer, and a thrown error is answered as every
// hook's error is (0.22 then writes nothing: an empty 200) without onAfterApiError. The after
// handlers run before the answer leaves (0.22 flushes it when its error handler returns); their
// errors only reach the hooks' status. Without handlers for either, nothing here runs
// (apiErrorHooked, asked once per app instance by core.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { ApiError } from '../core/errors';
import { apiErrorOf, invokeSafely } from '../hooks/errors';
import type { ResponseSnapshot } from '../hooks/protocol';
import { requestSnapshot, sendWritten } from './hook-routes';

export type SendError = (reply: FastifyReply, error: ApiError) => unknown;

/** Whether the app's hooks have handlers for the API error events (fixed for an app instance). */
export const apiErrorHooked = (ctx: AppContext): boolean => !!ctx.hooks && (ctx.hooks.has('onBeforeApiError') || ctx.hooks.has('onAfterApiError'));

/** The answer the handlers decided, sent once onAfterApiError has run. */
type Answer = { error: ApiError } | { written: ResponseSnapshot | null };

export async function answerWithHooks(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, error: ApiError, send: SendError): Promise<void> {
  const hooks = ctx.hooks;
  if (!hooks || reply.sent || reply.raw.headersSent) return void send(reply, error);
  const event = { request: requestSnapshot(ctx, req), fields: { error: error.toJSON() } };
  let answer: Answer = { error };
  if (hooks.has('onBeforeApiError')) {
    const result = await invokeSafely(() => hooks.trigger('onBeforeApiError', [], event), 'onBeforeApiError');
    if (result.outcome === 'error') {
      send(reply, apiErrorOf(result.error));
      return;
    }
    const changed = changedError(error, result.event?.fields?.error);
    event.fields.error = changed.toJSON();
    answer = result.response ? { written: result.response } : result.outcome === 'stop' ? { written: null } : { error: changed };
  }
  if (hooks.has('onAfterApiError')) await invokeSafely(() => hooks.trigger('onAfterApiError', [], event), 'onAfterApiError');
  if (reply.sent || reply.raw.headersSent) return;
  if ('error' in answer) send(reply, answer.error);
  else sendWritten(reply, { outcome: 'continue', response: answer.written });
}

/** e.error's fields as a handler left them (an HTTP status it cannot answer with keeps the original's). */
function changedError(original: ApiError, wire: unknown): ApiError {
  if (!wire || typeof wire !== 'object') return original;
  const { code, message, data } = wire as { code?: unknown; message?: unknown; data?: unknown };
  const status = typeof code === 'number' && Number.isInteger(code) && code >= 100 && code <= 599 ? code : original.status;
  const fields = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  if (status === original.status && message === original.message && JSON.stringify(fields) === JSON.stringify(original.data)) return original;
  return new ApiError(status, typeof message === 'string' ? message : original.message, fields, original.details);
}
