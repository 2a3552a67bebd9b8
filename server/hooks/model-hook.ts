// 0.22's model hooks (onModel{Before,After}{Create,Update,Delete}) for a model that is not a
// record: an admin (tag `_admins`), a collection (`_collections`), the settings (`_params`), an
// external auth (`_externalAuths`). The event's e.model is built from `model` (a tagged snapshot,
// models-wire.ts, or a plain object); a handler's error fails the write with `failMessage` and
// the error's detail, as 0.22's forms answer a failed save. Record writes use
// ../records/model-hooks.ts.
import type { AppContext } from '../context';
import { ApiError } from '../core/errors';
import { apiErrorOf, invokeSafely } from './errors';

export interface ModelHookRun {
  /** False when a handler returned false (0.22 then skips the write). */
  proceed: boolean;
  /** e.model as the handlers left it (a tagged snapshot), when one read it. */
  model?: unknown;
}

export async function runModelHook(
  ctx: AppContext,
  name: string,
  table: string,
  model: unknown,
  failMessage: string,
  extra: Record<string, unknown> = {},
): Promise<ModelHookRun> {
  const hooks = ctx.hooks;
  if (!hooks?.has(name, [table])) return { proceed: true };
  const result = await invokeSafely(() => hooks.trigger(name, [table], { fields: { ...extra, model } }), name);
  if (result.outcome === 'error') {
    const cause = apiErrorOf(result.error);
    throw new ApiError(400, failMessage, {}, cause.details ?? cause.message);
  }
  return { proceed: result.outcome !== 'stop', model: result.event?.fields?.model };
}
