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
      addSuccessToast(`Saved view "${n}".`);
    } catch {
      addErrorToast('Unable to save the view (local storage is full or disabled).');
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
    confirm(`Do you really want to delete the view "${v.name}"?`, () => {
      deleteView(collection.id, v.id);
      refresh();
    });

  const onImport = async (file: File | undefined) => {
    if (!file) return;
    try {
      if (file.size > MAX_IMPORT_BYTES) throw new Error('The file is too large for a saved views export.');
      const res = importViews(await file.text(), collections);
      refresh();
      addSuccessToast(`Imported ${res.imported} ${res.imported === 1 ? 'view' : 'views'}${res.skipped ? ` (${res.skipped} skipped: unknown collection or invalid)` : ''}.`);
    } catch (err) {
      addErrorToast(err instanceof Error ? err.message : 'Unable to import the views.');
    } finally {
      if (fileRef.current) fileRef.current.value = '';
    }
  };

  const footer = (
    <>
      <button type="button" className="btn btn-transparent" onClick={() => downloadJsonText(JSON.stringify(exportViews(collections), null, 2), VIEWS_FILE_NAME)}>
        Export views
      </button>
      <button type="button" className="btn btn-transparent" onClick={() => fileRef.current?.click()}>
        Import views
      </button>
      <input ref={fileRef} type="file" accept=".json,application/json" hidden aria-label="Saved views file" onChange={(e) => void onImport(e.target.files?.[0])} />
    </>
  );

  return (
    <OverlayPanel open size="popup" onRequestClose={onClose} header={<h2 className="overlay-panel-title">Saved views of {collection.name}</h2>} ariaLabel={`Saved views of ${collection.name}`} footer={footer}>
      <form className="views-save" onSubmit={save}>
        <label htmlFor="views-save-name" className="sf-label">
          Save the current filter, sort and columns as
        </label>
        <div className="views-row">
          <input id="views-save-name" className="sf-input" value={name} maxLength={100} placeholder="View name" onChange={(e) => setName(e.target.value)} />
          <button type="submit" className="btn btn-primary" disabled={!name.trim()}>
            Save view
          </button>
        </div>
      </form>
      {views.length === 0 ? (
        <p className="txt-hint">No saved views yet.</p>
      ) : (
        <ul className="views-list" aria-label="Saved views">
          {views.map((v) => (
            <li key={v.id} className="views-item">
              {renaming?.id === v.id ? (
                <form className="views-row" onSubmit={rename}>
                  <input className="sf-input" aria-label={`New name of ${v.name}`} value={renaming.name} maxLength={100} autoFocus onChange={(e) => setRenaming({ id: v.id, name: e.target.value })} />
                  <button type="submit" className="btn btn-secondary btn-sm">
                    Save
                  </button>
                  <button type="button" className="btn btn-transparent btn-sm" onClick={() => setRenaming(null)}>
                    Cancel
                  </button>
                </form>
              ) : (
                <>
                  <button
                    type="button"
                    className="btn btn-transparent views-apply"
                    title={[v.filter && `filter: ${v.filter}`, v.sort && `sort: ${v.sort}`, v.hidden.length && `hidden: ${v.hidden.join(', ')}`].filter(Boolean).join('\n') || undefined}
                    onClick={() => {
                      onApply({ filter: v.filter, sort: v.sort, hidden: v.hidden });
                      onClose();
                    }}
                  >
                    {v.name}
                  </button>
                  <button type="button" className="btn btn-transparent btn-sm" aria-label={`Rename ${v.name}`} onClick={() => setRenaming({ id: v.id, name: v.name })}>
                    Rename
                  </button>
                  <button type="button" className="btn btn-transparent btn-sm txt-danger" aria-label={`Delete ${v.name}`} onClick={() => remove(v)}>
                    Delete
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
