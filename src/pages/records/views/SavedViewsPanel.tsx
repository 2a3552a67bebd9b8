/**
 * Saved views of one collection: save the current filter + sort + hidden columns under a name,
 * apply, rename or delete a view, and export/import all views as their own small JSON file.
 */
import { useRef, useState, type FormEvent } from 'react';
import { useSnapshot } from 'valtio';
import { downloadJsonText } from '../../../lib/browser-io';
import { confirm } from '../../../shell/confirm';
import { OverlayPanel } from '../../../ui/OverlayPanel';
import { addErrorToast, addSuccessToast } from '../../../shell/toasts';
import type { CollectionModel } from '../../../lib/collections/types';
import { collectionsState } from '../../../state/collections';
import { deleteView, exportViews, importViews, listViews, renameView, saveView, type SavedView } from './views-store';
import './views.css';
import { t } from '../../../ui/i18n';
import { formatCount, tCount } from '../../../ui/counts';

export type ViewState = { filter: string; sort: string; hidden: string[] };

const VIEWS_FILE_NAME = 'outpost_saved_views.json';
const MAX_IMPORT_BYTES = 1_000_000;

export default function SavedViewsPanel({ collection, current, onApply, onClose }: { collection: CollectionModel; current: ViewState; onApply: (v: ViewState) => void; onClose: () => void }) {
  const { collections } = useSnapshot(collectionsState);
  const [views, setViews] = useState<SavedView[]>(() => listViews(collection.id));
  const [name, setName] = useState('');
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const refresh = () => setViews(listViews(collection.id));

  const save = (e: FormEvent) => {
    e.preventDefault();
    const n = name.trim();
    if (!n) return;
    try {
      saveView(collection.id, { name: n, ...current });
      setName('');
      refresh();
      addSuccessToast(t('savedViews.saved', { name: n }));
    } catch {
      addErrorToast(t('savedViews.saveFailed'));
    }
  };

  const rename = (e: FormEvent) => {
    e.preventDefault();
    if (!renaming || !renaming.name.trim()) return;
    renameView(collection.id, renaming.id, renaming.name);
    setRenaming(null);
    refresh();
  };

  const remove = (v: SavedView) =>
    confirm(t('savedViews.deleteConfirm', { name: v.name }), () => {
      deleteView(collection.id, v.id);
      refresh();
    });

  const onImport = async (file: File | undefined) => {
    if (!file) return;
    try {
      if (file.size > MAX_IMPORT_BYTES) throw new Error(t('savedViews.tooLarge'));
      const res = importViews(await file.text(), collections);
      refresh();
      addSuccessToast(tCount(res.skipped ? 'savedViews.importedSkipped' : 'savedViews.imported', res.imported, { skipped: formatCount(res.skipped) }));
    } catch (err) {
      addErrorToast(err instanceof Error ? err.message : t('savedViews.importFailed'));
    } finally {
      if (fileRef.current) fileRef.current.value = '';
    }
  };

  const footer = (
    <>
      <button type="button" className="btn btn-transparent" onClick={() => downloadJsonText(JSON.stringify(exportViews(collections), null, 2), VIEWS_FILE_NAME)}>
        {t('savedViews.export')}
      </button>
      <button type="button" className="btn btn-transparent" onClick={() => fileRef.current?.click()}>
        {t('savedViews.import')}
      </button>
      <input ref={fileRef} type="file" accept=".json,application/json" hidden aria-label={t('savedViews.file')} onChange={(e) => void onImport(e.target.files?.[0])} />
    </>
  );

  return (
    <OverlayPanel open size="popup" onRequestClose={onClose} header={<h2 className="overlay-panel-title">{t('savedViews.title', { name: collection.name })}</h2>} ariaLabel={t('savedViews.title', { name: collection.name })} footer={footer}>
      <form className="views-save" onSubmit={save}>
        <label htmlFor="views-save-name" className="sf-label">
          {t('savedViews.saveAs')}
        </label>
        <div className="views-row">
          <input id="views-save-name" className="sf-input" value={name} maxLength={100} placeholder={t('savedViews.namePlaceholder')} onChange={(e) => setName(e.target.value)} />
          <button type="submit" className="btn btn-primary" disabled={!name.trim()}>
            {t('savedViews.save')}
          </button>
        </div>
      </form>
      {views.length === 0 ? (
        <p className="txt-hint">{t('savedViews.empty')}</p>
      ) : (
        <ul className="views-list" aria-label={t('savedViews.list')}>
          {views.map((v) => (
            <li key={v.id} className="views-item">
              {renaming?.id === v.id ? (
                <form className="views-row" onSubmit={rename}>
                  <input className="sf-input" aria-label={t('savedViews.newName', { name: v.name })} value={renaming.name} maxLength={100} autoFocus onChange={(e) => setRenaming({ id: v.id, name: e.target.value })} />
                  <button type="submit" className="btn btn-secondary btn-sm">
                    {t('savedViews.saveName')}
                  </button>
                  <button type="button" className="btn btn-transparent btn-sm" onClick={() => setRenaming(null)}>
                    {t('recordWidget.cancel')}
                  </button>
                </form>
              ) : (
                <>
                  <button
                    type="button"
                    className="btn btn-transparent views-apply"
                    title={[v.filter && t('savedViews.tipFilter', { value: v.filter }), v.sort && t('savedViews.tipSort', { value: v.sort }), v.hidden.length && t('savedViews.tipHidden', { value: v.hidden.join(', ') })].filter(Boolean).join('\n') || undefined}
                    onClick={() => {
                      onApply({ filter: v.filter, sort: v.sort, hidden: v.hidden });
                      onClose();
                    }}
                  >
                    {v.name}
                  </button>
                  <button type="button" className="btn btn-transparent btn-sm" aria-label={t('savedViews.renameNamed', { name: v.name })} onClick={() => setRenaming({ id: v.id, name: v.name })}>
                    {t('savedViews.rename')}
                  </button>
                  <button type="button" className="btn btn-transparent btn-sm txt-danger" aria-label={t('savedViews.deleteNamed', { name: v.name })} onClick={() => remove(v)}>
                    {t('recordWidget.delete')}
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </OverlayPanel>
  );
}
