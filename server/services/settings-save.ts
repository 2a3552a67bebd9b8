// 0.22's dao.SaveSettings: the settings are a models.Param (`_params`, key "settings") saved with
// the model hooks (tag `_params`; e.model the param: id, key, value the settings document, dates):
// onModelBeforeUpdate (false skips the write), the write, onModelAfterUpdate (Create when there is
// no row yet). A handler's error fails the save with `failMessage`.
import { auditSettings } from '../audit/changes';
import type { AppContext } from '../context';
import { nowDateTime } from '../db/layout';
import { runModelHook } from '../hooks/model-hook';
import type { Settings } from './settings';

export async function saveSettings(ctx: AppContext, next: Settings, failMessage: string): Promise<void> {
  const param = ctx.settings.param();
  const action = param ? 'Update' : 'Create';
  const now = nowDateTime();
  const model = () => ({ id: param?.id ?? '', created: param?.created ?? now, updated: now, key: 'settings', value: next });
  if (!(await runModelHook(ctx, `onModelBefore${action}`, '_params', model(), failMessage)).proceed) return;
  // the entry and the settings commit together; subscribers (other cluster members) hear after
  const previous = ctx.settings.get();
  ctx.settings.save(next, () => auditSettings(ctx, previous, next));
  await runModelHook(ctx, `onModelAfter${action}`, '_params', model(), failMessage);
}
