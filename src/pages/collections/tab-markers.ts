// The collection editor's tab markers: 'Has errors' per tab, and the API Rules tab's warning
// while any rule is set. manageRule lives in options but is edited on the API Rules tab, so its
// error marks that tab and not Options. Pure.
import { RULE_NAMES, type CollectionModel } from '../../lib/collections/types';

const hasKeys = (v: unknown) => !!v && typeof v === 'object' && Object.keys(v).length > 0;
const isSet = (rule: unknown) => typeof rule === 'string' && rule.trim() !== '';

export interface TabMarkers {
  errors: { fields: boolean; rules: boolean; options: boolean };
  rulesSet: boolean;
}

export function tabMarkers(draft: CollectionModel, errors: Record<string, unknown>): TabMarkers {
  const isAuth = draft.type === 'auth';
  const isView = draft.type === 'view';
  const options = errors.options as Record<string, unknown> | undefined;
  const manageRuleError = isAuth && !!options && !!options.manageRule;
  return {
    errors: {
      fields: hasKeys(errors.name) || !!errors.schema || !!errors.indexes || !!errors.type || (isView && !!errors.options),
      rules: RULE_NAMES.some((r) => !!errors[r]) || manageRuleError,
      options: isAuth && hasKeys(options) && !manageRuleError,
    },
    rulesSet: RULE_NAMES.some((r) => isSet(draft[r])) || (isAuth && isSet(draft.options?.manageRule)),
  };
}
