// Import and export buttons of the records page; the popups are their own chunk, loaded on first use.
import { lazy, Suspense, useMemo, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { CollectionModel } from '../../../lib/collections/types';
import { collectionsState } from '../../../state/collections';
import { useAccess } from '../../../state/permissions';
import './records-io.css';
import { t } from '../../../ui/i18n';
import { formatCount } from '../../../ui/counts';

const ExportPanel = lazy(() => import('./ExportPanel'));
const ImportPanel = lazy(() => import('./ImportPanel'));

export type RecordsIoProps = {
  collection: CollectionModel;
  /** The list's normalised filter and its sort. */
  filter: string;
  sort: string;
  selected: ReadonlySet<string>;
  /** Called after an import wrote records (the list reloads). */
  onImported: () => void;
  /** An import starts writing (true) or has ended (false): the list pauses its live updates meanwhile. */
  onImportRunning: (running: boolean) => void;
};

export function RecordsIo({ collection, filter, sort, selected, onImported, onImportRunning }: RecordsIoProps) {
  const { collections } = useSnapshot(collectionsState);
  const [open, setOpen] = useState<{ which: 'export' | 'import' | null; mounted: Set<string> }>({ which: null, mounted: new Set() });
  const collectionsById = useMemo(() => new Map((collections as unknown as CollectionModel[]).map((c) => [c.id, c])), [collections]);
  const selectedIds = useMemo(() => [...selected], [selected]);
  const show = (which: 'export' | 'import') => setOpen((o) => ({ which, mounted: new Set(o.mounted).add(which) }));
  const close = () => setOpen((o) => ({ ...o, which: null }));
  // an import creates and updates records: the server asks a scoped admin's role for both
  const access = useAccess();
  const mayImport = collection.type !== 'view' && access.records(collection, 'create') && access.records(collection, 'update');

  return (
    <>
      <div className="records-io-actions">
        {mayImport && (
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => show('import')}>
            <span>{t('recordsIo.import')}</span>
          </button>
        )}
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => show('export')}>
          <span>{selected.size ? t('recordsIo.exportSelected', { count: formatCount(selected.size) }) : t('recordsIo.export')}</span>
        </button>
      </div>
      <Suspense fallback={null}>
        {open.mounted.has('export') && (
          <ExportPanel
            open={open.which === 'export'}
            onClose={close}
            collection={collection}
            collectionsById={collectionsById}
            filter={filter}
            sort={sort}
            selectedIds={selectedIds}
          />
        )}
        {open.mounted.has('import') && <ImportPanel open={open.which === 'import'} onClose={close} collection={collection} onImported={onImported} onRunning={onImportRunning} />}
      </Suspense>
    </>
  );
}
