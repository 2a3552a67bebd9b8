// Wire format shared by every route: body parsing (request-body.ts), Go-like serialisation, the
// error envelope and the /api 404. Nothing here knows about a particular API area.
import type { FastifyError, FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { QueryTimeoutError, ReadAbortedError } from '../db/database';
import { ApiError } from '../core/errors';
import { registerFieldsFilter } from './fields';
import { stringifyLikeGo } from '../core/json';
import { registerBodyParsers } from './request-body';
import { HookAnswer, sendHookAnswer } from './record-hooks';
import { answerWithHooks, apiErrorHooked, type SendError } from './api-error-hooks';

const INVALID_BODY = 'An error occurred while loading the submitted data.';
/** A read query outlived its budget (it was stopped); 400 like any failed list in PocketBase. */
const QUERY_TIMEOUT = 'The request took too long to process and was stopped.';

const sendEnvelope: SendError = (reply, err) => reply.status(err.status).type('application/json').send(err.toJSON());
const sendPlainNotFound: SendError = (reply) => reply.status(404).type('text/plain').send('Not Found');

export function registerCore(app: FastifyInstance, ctx: AppContext): void {
  // onBeforeApiError / onAfterApiError: whether they have handlers is fixed for an app instance,
  // so an error answer without them costs nothing more
  const errorHooks = apiErrorHooked(ctx);

  app.decorateRequest('auth', null as never);

  registerBodyParsers(app);

  app.setReplySerializer((payload) => stringifyLikeGo(payload));
  registerFieldsFilter(app);

  app.setErrorHandler((error: FastifyError | ApiError, req, reply) => {
    if (error instanceof HookAnswer) return sendHookAnswer(reply, error.run);
    const apiError = toApiError(error);
    req.failure = { message: apiError.message, details: apiError.details ?? describeCause(error, apiError) };
    const expected = error instanceof ApiError || error instanceof QueryTimeoutError || error instanceof ReadAbortedError || (error as FastifyError).statusCode;
    if (apiError.status >= 500 || !expected) {
      req.log.error(error);
      console.error('[server]', req.method, req.url, error);
    }
    if (errorHooks) return answerWithHooks(ctx, req, reply, apiError, sendEnvelope);
    void sendEnvelope(reply, apiError);
  });

  app.setNotFoundHandler((req, reply) => {
    const err = new ApiError(404, 'Not Found.');
    req.failure = { message: err.message };
    const send = req.url.startsWith('/api/') || req.url === '/api' ? sendEnvelope : sendPlainNotFound;
    if (errorHooks) return answerWithHooks(ctx, req, reply, err, send);
    void send(reply, err);
  });
}

/** Framework and driver errors become PocketBase-style 4xx envelopes; never a bare 500 page. */
function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof QueryTimeoutError) return new ApiError(400, QUERY_TIMEOUT, {}, error.message);
  // the caller disconnected: nobody reads this answer, the request log keeps it
  if (error instanceof ReadAbortedError) return new ApiError(400, 'The request was cancelled by the client.', {}, error.message);
  const fe = error as FastifyError;
  const code = fe?.code ?? '';
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new ApiError(413, 'Request entity too large.');
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new ApiError(400, INVALID_BODY);
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || code === 'FST_ERR_CTP_INVALID_JSON_BODY') return new ApiError(400, INVALID_BODY);
  if (typeof fe?.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new ApiError(fe.statusCode, fe.statusCode === 404 ? 'Not Found.' : 'Something went wrong while processing your request.');
  }
  // PocketBase answers unexpected errors with a generic 400 (the cause goes to the log only).
  return new ApiError(400, 'Something went wrong while processing your request.', {}, String(fe?.message ?? error));
}

function describeCause(error: unknown, apiError: ApiError): unknown {
  if (error === apiError) return undefined;
  return error instanceof Error ? error.message : String(error);
}
