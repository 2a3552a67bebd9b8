// The round "Refresh" button of page headers; it spins while `loading`.
import { IconRefresh } from '../ui/icons';
import { Tooltip } from '../ui/Tooltip';
import { t } from '../ui/i18n';

export function RefreshButton({ loading = false, onClick }: { loading?: boolean; onClick: () => void }) {
  return (
    <Tooltip text={t('common.refresh')}>
      <button type="button" className={`btn btn-transparent btn-circle btn-sm${loading ? ' btn-spin' : ''}`} aria-label={t('common.refresh')} onClick={onClick}>
        <IconRefresh size={16} />
      </button>
    </Tooltip>
  );
}
