// A handler's error as 0.22's API answers it (apis/base.go): an ApiError keeps its status, message
// (sentenized) and field errors; "no rows" is a 404; anything else the generic 400, its detail
// for the request log only. An invocation that failed to run (a runaway handler stopped at its
// budget, an executor that died) answers the generic 400 and is logged.
import { ApiError, badRequest, notFound } from '../core/errors';
import type { ErrorWire, InvocationResult } from './protocol';
import { sentenize } from '../../src/lib/schema/schema-words';

const NO_ROWS = 'sql: no rows in result set';

export function apiErrorOf(error: ErrorWire | undefined): ApiError {
  if (error?.api) {
    const status = error.api.status >= 400 && error.api.status < 600 ? error.api.status : 400;
    const data = error.api.data && typeof error.api.data === 'object' && !Array.isArray(error.api.data) ? (error.api.data as Record<string, unknown>) : {};
    return new ApiError(status, sentenize(error.api.message), data, error.stack ?? error.message);
  }
  if (error?.message === NO_ROWS) return notFound();
  return badRequest(undefined, {}, error?.stack ?? error?.message);
}

export async function invokeSafely(run: () => Promise<InvocationResult>, what: string): Promise<InvocationResult> {
  try {
    return await run();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    console.error(`[pb_hooks] ${what}: ${message}`);
    return { outcome: 'error', error: { message } };
  }
}
