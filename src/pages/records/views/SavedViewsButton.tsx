// The records list's "Views" button; the saved views panel loads on first use.
import { lazy, Suspense, useState } from 'react';
import type { CollectionModel } from '../../../lib/collections/types';
import type { ViewState } from './SavedViewsPanel';
import { t } from '../../../ui/i18n';

const SavedViewsPanel = lazy(() => import('./SavedViewsPanel'));

export function SavedViewsButton(props: { collection: CollectionModel; current: ViewState; onApply: (v: ViewState) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn btn-secondary records-views-button" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {t('savedViews.button')}
      </button>
      {open && (
        <Suspense fallback={null}>
          <SavedViewsPanel {...props} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
