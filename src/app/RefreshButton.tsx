// The round "Refresh" button of page headers; it spins while `loading`.
import { IconRefresh } from './icons';

export function RefreshButton({ loading = false, onClick }: { loading?: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      className={`btn btn-transparent btn-circle btn-sm${loading ? ' btn-spin' : ''}`}
      aria-label="Refresh"
      title="Refresh"
      onClick={onClick}
    >
      <IconRefresh size={16} />
    </button>
  );
}
