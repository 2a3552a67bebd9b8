// Confirm popup: a text, No (focused by default) and Yes; Yes runs a callback
// and shows a loading state while its promise runs; No runs an optional callback.
import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { confirmState, resetConfirmation, type Confirmation } from './confirm-state';
import { OverlayPanel } from '../ui/OverlayPanel';
import { t } from '../ui/i18n';

export { confirm, resetConfirmation } from './confirm-state';

export function ConfirmPopup() {
  const snap = useSnapshot(confirmState);
  const current = snap.current as Confirmation | null;
  const [, force] = useState(0);

  const no = () => {
    if (confirmState.loading) return;
    const c = confirmState.current;
    resetConfirmation();
    c?.onNo?.();
  };

  const yes = async () => {
    const c = confirmState.current;
    if (!c || confirmState.loading) return;
    confirmState.loading = true;
    try {
      await c.onYes();
    } catch (err) {
      console.error(err);
    } finally {
      if (confirmState.current === c) resetConfirmation();
      force((n) => n + 1);
    }
  };

  return (
    <OverlayPanel
      open={!!current}
      size="popup"
      className="confirm-popup"
      ariaLabel={t('confirm.label')}
      showCloseButton={false}
      escClose={!snap.loading}
      overlayClose={!snap.loading}
      onRequestClose={no}
      footer={
        <>
          <button type="button" className="btn btn-transparent" autoFocus onClick={no} disabled={snap.loading}>
            {t('confirm.no')}
          </button>
          <button
            type="button"
            className={`btn btn-danger${snap.loading ? ' btn-loading' : ''}`}
            onClick={() => void yes()}
            disabled={snap.loading}
            aria-busy={snap.loading || undefined}
          >
            {t('confirm.yes')}
          </button>
        </>
      }
    >
      <p className="confirm-text">{current?.text}</p>
    </OverlayPanel>
  );
}
