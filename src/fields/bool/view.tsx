import type { FieldView } from '../view-types';
import { t } from '../../ui/i18n';

export const boolView: FieldView = {
  iconPaths: () => (
    <>
      <rect x="3" y="7" width="18" height="10" rx="5" />
      <circle cx="16" cy="12" r="2.5" />
    </>
  ),
  Cell: ({ value }) => (value ? <span className="rl-bool rl-bool-true">{t('common.true')}</span> : <span className="rl-bool">{t('common.false')}</span>),
};
