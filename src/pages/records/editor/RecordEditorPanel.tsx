/**
 * The record editor panel (spec §2 Record editor panel, §4 Record editing, §5 Record, §8). The form
 * is generated from the collection's fields (src/lib/record-schema.ts) and drawn by the engine with
 * the record widgets (src/widgets/record). New vs edit, Save and close / Save and continue
 * (Ctrl/Cmd+S), Duplicate, Delete, drafts in local storage, and for auth records the account
 * fields, the verified confirmation, the Authorized providers tab and the verification / password
 * reset emails. A change of the open record made elsewhere (realtime, via the list) reloads a
 * clean form, and warns over a dirty one: saving then asks before overwriting.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { RecordModel } from 'pocketbase';
import { handleError, pb } from '../../../api/client';
import { confirm } from '../../../app/confirm';
import { MoreMenu } from '../../../app/MoreMenu';
import { isTopOverlay, OverlayPanel } from '../../../app/OverlayPanel';
import { addErrorToast, addSuccessToast } from '../../../app/toasts';
import { SchemaForm } from '../../../engine';
import { deepEqual } from '../../../lib/json';
import type { CollectionModel } from '../../../lib/collections/types';
import { recordFormSchema, recordToFormData } from '../../../lib/record-form';
import { clearFieldErrors, setFieldErrors } from '../../../state/field-errors';
import { createUploadStore, RecordEditorContext, type RecordEditorContextValue } from '../../../widgets/record/context';
import { AuthProvidersTab } from './AuthProvidersTab';
import { deleteDraft, draftKey, draftOf, readDraft, saveDraft } from './drafts';
import { buildRecordPayload, toFormData } from './payload';
import './record-editor.css';

export type RecordEditorPanelProps = {
  collection: CollectionModel;
  /** null = new record */
  record: RecordModel | null;
  /** Opens as a new record prefilled from this one (id, created, updated and files cleared). */
  duplicateOf?: RecordModel | null;
  open: boolean;
  onClose(): void;
  onSaved(record: RecordModel): void;
  onDeleted(id: string): void;
  /** The form's DOM id (and its fields' id prefix); another one when nested in another editor. */
  formId?: string;
  /** The latest realtime change of this record (from the records list's subscription). */
  remoteChange?: { action: 'create' | 'update' | 'delete'; record: RecordModel; seq: number } | null;
};

type Data = Record<string, unknown>;

export const MESSAGES = {
  created: 'Successfully created record.',
  updated: 'Successfully updated record.',
  deleted: 'Successfully deleted record.',
  confirmDelete: 'Do you really want to delete the selected record?',
  confirmClose: 'You have unsaved changes. Do you really want to close the panel?',
  confirmDiscard: 'You have unsaved changes. Do you really want to discard them?',
  confirmVerified: 'Do you really want to manually change the verified account state?',
  loadFailed: (id: string) => `Unable to load record with id "${id}"`,
  changedElsewhere: 'This record was changed elsewhere after you opened it.',
  deletedElsewhere: 'This record was deleted elsewhere.',
  reloadedElsewhere: 'This record was changed elsewhere; the form shows the new version.',
  confirmOverwrite: 'This record was changed elsewhere. Do you really want to overwrite those changes?',
  verificationSent: (email: string) => `Successfully sent verification email to ${email}.`,
  resetSent: (email: string) => `Successfully sent password reset email to ${email}.`,
};

const FORM_ID = 'record-editor-form';

/** The record a duplicate starts from: no id, created, updated or files. */
export function duplicateSource(collection: CollectionModel, source: RecordModel): RecordModel {
  const copy: Record<string, unknown> = { ...source, id: '', created: '', updated: '' };
  for (const f of collection.schema) if (f.type === 'file') copy[f.name] = Array.isArray(source[f.name]) ? [] : '';
  if (collection.type === 'auth') copy.verified = false;
  return copy as RecordModel;
}

/** What "unsaved changes" compares: passwords count only while they are being set. */
function comparable(data: Data, isNew: boolean): Data {
  const out: Data = { ...data };
  delete out.changePassword;
  if (!isNew && !data.changePassword) {
    delete out.password;
    delete out.passwordConfirm;
  }
  for (const k of Object.keys(out)) if (out[k] === undefined || out[k] === '') delete out[k];
  return out;
}

export default function RecordEditorPanel({
  collection,
  record,
  duplicateOf,
  open,
  onClose,
  onSaved,
  onDeleted,
  formId = FORM_ID,
  remoteChange = null,
}: RecordEditorPanelProps) {
  // the record being edited (fresh from the server) or null while creating
  const [current, setCurrent] = useState<RecordModel | null>(null);
  const [dupOf, setDupOf] = useState<RecordModel | null>(null);
  const [loading, setLoading] = useState(false);
  const [data, setData] = useState<Data>({});
  const [pristine, setPristine] = useState<Data>({});
  const [formKey, setFormKey] = useState(0);
  const [busy, setBusy] = useState(false);
  const [saveMenu, setSaveMenu] = useState(false);
  const [tab, setTab] = useState<'account' | 'providers'>('account');
  const [draft, setDraft] = useState<Data | null>(null);
  const [store, setStore] = useState(createUploadStore);
  /** What happened to the record elsewhere since it was loaded ('reloaded': a clean form was refreshed). */
  const [elsewhere, setElsewhere] = useState<'changed' | 'deleted' | 'reloaded' | null>(null);
  const saveMenuRef = useRef<HTMLDivElement>(null);

  const isNew = !current;
  const isAuth = collection.type === 'auth';
  const form = useMemo(() => recordFormSchema(collection, { isNew }), [collection, isNew]);
  const key = draftKey(collection.id, current?.id);

  /** Starts the form from a record (or a new / duplicated one). */
  const start = (rec: RecordModel | null, dup: RecordModel | null) => {
    setCurrent(rec);
    setDupOf(dup);
    const base = rec ?? (dup ? duplicateSource(collection, dup) : null);
    const initial = recordToFormData(collection, base);
    if (!rec) initial.id = '';
    setData(initial);
    setPristine(rec ? initial : recordToFormData(collection, null));
    setStore(createUploadStore());
    setFormKey((k) => k + 1);
    setTab('account');
    setElsewhere(null);
    clearFieldErrors();
    // a stored draft that differs from the starting data is offered back
    const stored = readDraft(draftKey(collection.id, rec?.id));
    setDraft(stored && !deepEqual(stored, draftOf(initial)) ? stored : null);
  };

  // Each opening starts from the record as stored (reloaded: the list holds excerpts).
  useEffect(() => {
    if (!open) return;
    if (!record) {
      start(null, duplicateOf ?? null);
      return;
    }
    let live = true;
    start(record, null);
    setLoading(true);
    pb.collection(collection.id)
      .getOne(record.id, { requestKey: null })
      .then((fresh) => live && start(fresh, null))
      .catch((err) => {
        if (!live || (err as { isAbort?: boolean })?.isAbort) return;
        addErrorToast(MESSAGES.loadFailed(record.id));
        onClose();
      })
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, record?.id, duplicateOf?.id, collection.id]);

  const dirty = !deepEqual(comparable(data, isNew), comparable(pristine, isNew));
  const canSave = !busy && !loading && dirty && elsewhere !== 'deleted';

  // A realtime change of this record: our own save comes back with the `updated` we already hold.
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  useEffect(() => {
    if (!remoteChange || !current || busy || remoteChange.record.id !== current.id) return;
    if (remoteChange.action === 'delete') {
      setElsewhere('deleted');
      return;
    }
    if (remoteChange.action !== 'update' || remoteChange.record.updated === current.updated) return;
    if (dirtyRef.current) {
      setElsewhere('changed');
      return;
    }
    let live = true;
    pb.collection(collection.id)
      .getOne(current.id, { requestKey: null })
      .then((fresh) => {
        if (!live || dirtyRef.current) return;
        start(fresh, null);
        setElsewhere('reloaded');
      })
      .catch(() => live && setElsewhere('changed'));
    return () => {
      live = false;
    };
    // only a new change matters, not the form's own state changes
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [remoteChange?.seq]);

  /** Drops the local edits and loads the version saved elsewhere. */
  const loadRemoteVersion = () => {
    if (!current) return;
    const go = () =>
      void pb
        .collection(collection.id)
        .getOne(current.id, { requestKey: null })
        .then((fresh) => start(fresh, null))
        .catch((err) => handleError(err));
    if (dirty) confirm(MESSAGES.confirmDiscard, go);
    else go();
  };

  // Drafts follow the form: stored while it differs from the record, dropped when it does not.
  useEffect(() => {
    if (!open || loading) return;
    if (dirty) saveDraft(key, data);
    else if (!draft) deleteDraft(key);
  }, [open, loading, dirty, data, key, draft]);

  const change = (next: Data) => {
    const prev = data;
    let value = next;
    if (!isNew && prev.changePassword && !next.changePassword) value = { ...next, password: '', passwordConfirm: '' };
    setData(value);
    if (isAuth && !isNew && !!prev.verified !== !!next.verified) {
      confirm(
        MESSAGES.confirmVerified,
        () => {},
        () => setData((d) => ({ ...d, verified: !!prev.verified })),
      );
    }
  };

  const save = async (keepOpen: boolean) => {
    if (!canSave) return;
    if (elsewhere === 'changed') {
      confirm(MESSAGES.confirmOverwrite, () => {
        setElsewhere(null);
        void doSave(keepOpen);
      });
      return;
    }
    await doSave(keepOpen);
  };

  const doSave = async (keepOpen: boolean) => {
    clearFieldErrors();
    const built = buildRecordPayload(collection, data, { isNew, original: current, uploads: store.uploads });
    if (!built.ok) {
      setFieldErrors(built.errors);
      return;
    }
    setBusy(true);
    try {
      const body = toFormData(built);
      const saved = isNew ? await pb.collection(collection.id).create(body) : await pb.collection(collection.id).update(current.id, body);
      addSuccessToast(isNew ? MESSAGES.created : MESSAGES.updated);
      deleteDraft(key);
      deleteDraft(draftKey(collection.id, saved.id));
      setDraft(null);
      onSaved(saved);
      if (keepOpen) start(saved, null);
      else onClose();
    } catch (err) {
      handleError(err);
    } finally {
      setBusy(false);
    }
  };

  // Ctrl/Cmd+S saves and keeps the panel open.
  const saveRef = useRef(save);
  useEffect(() => {
    saveRef.current = save;
  });
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's') {
        // a nested editor (the image picker's 'New record') on top: only the top panel saves
        const overlay = document.getElementById(formId)?.closest('[data-overlay-id]')?.getAttribute('data-overlay-id');
        if (overlay && !isTopOverlay(overlay)) return;
        e.preventDefault();
        void saveRef.current(true);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, formId]);

  useEffect(() => {
    if (!saveMenu) return;
    const close = (e: MouseEvent) => {
      if (!saveMenuRef.current?.contains(e.target as Node)) setSaveMenu(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [saveMenu]);

  const remove = () => {
    if (!current) return;
    confirm(MESSAGES.confirmDelete, async () => {
      try {
        await pb.collection(collection.id).delete(current.id);
        addSuccessToast(MESSAGES.deleted);
        deleteDraft(key);
        onDeleted(current.id);
        onClose();
      } catch (err) {
        handleError(err);
      }
    });
  };

  const duplicate = () => {
    if (!current) return;
    const go = () => start(null, current);
    if (dirty) confirm(MESSAGES.confirmDiscard, go);
    else go();
  };

  const sendEmail = (kind: 'verification' | 'reset') => {
    const email = String(current?.email ?? '');
    if (!email) return;
    const text =
      kind === 'verification'
        ? `Do you really want to send a verification email to ${email}?`
        : `Do you really want to send a password reset email to ${email}?`;
    confirm(text, async () => {
      try {
        if (kind === 'verification') await pb.collection(collection.id).requestVerification(email);
        else await pb.collection(collection.id).requestPasswordReset(email);
        addSuccessToast(kind === 'verification' ? MESSAGES.verificationSent(email) : MESSAGES.resetSent(email));
      } catch (err) {
        handleError(err);
      }
    });
  };

  const restoreDraft = () => {
    if (!draft) return;
    const restored: Data = { ...data };
    for (const [k, v] of Object.entries(draft)) if (k in (form.schema.properties as Record<string, unknown>) || k === 'id') restored[k] = v;
    setData(restored);
    setDraft(null);
    setFormKey((k) => k + 1);
  };
  const discardDraft = () => {
    deleteDraft(key);
    setDraft(null);
  };

  // Closing: unsaved changes ask first (and keep their draft); a clean close drops the draft.
  const beforeHide = () => {
    if (busy) return false;
    if (!dirty) {
      deleteDraft(key);
      return true;
    }
    return new Promise<boolean>((resolve) => confirm(MESSAGES.confirmClose, () => resolve(true), () => resolve(false)));
  };
  const requestClose = async () => {
    if (await beforeHide()) onClose();
  };

  const context: RecordEditorContextValue = useMemo(
    () => ({ collection, record: current, uploads: store.uploads, addUploads: store.addUploads }),
    [collection, current, store],
  );

  const title = isNew ? `New ${collection.name} record` : `Edit ${collection.name} record`;
  const email = String(current?.email ?? '');
  const header = (
    <div className="record-editor-header">
      <h2 className="overlay-panel-title">{title}</h2>
      {!isNew && (
        <MoreMenu label="More record options" className="record-editor-menu" dropdownClassName="record-editor-dropdown">
          {(close) => (
            <>
              {isAuth && !current?.verified && email && (
                <button type="button" role="menuitem" className="dropdown-item" onClick={() => (close(), sendEmail('verification'))}>
                  Send verification email
                </button>
              )}
              {isAuth && email && (
                <button type="button" role="menuitem" className="dropdown-item" onClick={() => (close(), sendEmail('reset'))}>
                  Send password reset email
                </button>
              )}
              <button type="button" role="menuitem" className="dropdown-item" onClick={() => (close(), duplicate())}>
                Duplicate
              </button>
              <button type="button" role="menuitem" className="dropdown-item txt-danger" onClick={() => (close(), remove())}>
                Delete
              </button>
            </>
          )}
        </MoreMenu>
      )}
      {isAuth && !isNew && (
        <div className="record-editor-tabs" role="tablist">
          <button type="button" role="tab" aria-selected={tab === 'account'} className={`record-editor-tab${tab === 'account' ? ' active' : ''}`} onClick={() => setTab('account')}>
            Account
          </button>
          <button type="button" role="tab" aria-selected={tab === 'providers'} className={`record-editor-tab${tab === 'providers' ? ' active' : ''}`} onClick={() => setTab('providers')}>
            Authorized providers
          </button>
        </div>
      )}
    </div>
  );

  const footer = (
    <>
      <button type="button" className="btn btn-transparent" onClick={requestClose} disabled={busy}>
        Cancel
      </button>
      <div className="record-editor-save" ref={saveMenuRef}>
        <button type="submit" form={formId} className={`btn btn-primary${busy ? ' btn-loading' : ''}`} aria-busy={busy || undefined} disabled={!canSave}>
          <span>{isNew ? 'Create' : 'Save changes'}</span>
        </button>
        <button
          type="button"
          className="btn btn-primary record-editor-save-more"
          aria-label="More save options"
          aria-haspopup="menu"
          aria-expanded={saveMenu}
          disabled={!canSave}
          onClick={() => setSaveMenu((o) => !o)}
        >
          ▾
        </button>
        {saveMenu && (
          <div className="dropdown record-editor-save-dropdown" role="menu">
            <button
              type="button"
              role="menuitem"
              className="dropdown-item"
              onClick={() => {
                setSaveMenu(false);
                void save(true);
              }}
            >
              Save and continue <span className="txt-hint txt-sm">(Ctrl+S)</span>
            </button>
          </div>
        )}
      </div>
    </>
  );

  return (
    <OverlayPanel
      open={open}
      onRequestClose={onClose}
      beforeHide={beforeHide}
      header={header}
      ariaLabel={title}
      footer={footer}
      size="lg"
      className={`record-editor-panel${loading ? ' is-loading' : ''}`}
    >
      {draft && tab === 'account' && (
        <div className="alert alert-info record-editor-draft" role="status">
          <span className="flex-fill">The record has previous unsaved changes.</span>
          <button type="button" className="btn btn-sm btn-secondary" onClick={restoreDraft}>
            Restore draft
          </button>
          <button type="button" className="btn btn-sm btn-transparent btn-circle" aria-label="Discard draft" title="Discard draft" onClick={discardDraft}>
            ×
          </button>
        </div>
      )}
      {elsewhere === 'changed' && (
        <div className="alert alert-warning record-editor-elsewhere" role="alert">
          <span className="flex-fill">{MESSAGES.changedElsewhere} Saving will overwrite those changes.</span>
          <button type="button" className="btn btn-sm btn-secondary" onClick={loadRemoteVersion}>
            Load the new version
          </button>
        </div>
      )}
      {elsewhere === 'deleted' && (
        <div className="alert alert-danger record-editor-elsewhere" role="alert">
          <span className="flex-fill">{MESSAGES.deletedElsewhere}</span>
        </div>
      )}
      {elsewhere === 'reloaded' && (
        <div className="alert alert-info record-editor-elsewhere" role="status">
          <span className="flex-fill">{MESSAGES.reloadedElsewhere}</span>
        </div>
      )}
      {dupOf && isNew && <p className="txt-hint txt-sm record-editor-dup">Duplicate of {dupOf.id}</p>}
      <div hidden={tab !== 'account'}>
        <RecordEditorContext.Provider value={context}>
          <SchemaForm
            key={formKey}
            id={formId}
            className="record-editor-form"
            schema={form.schema as never}
            uiSchema={form.uiSchema as never}
            formData={data}
            pristine={pristine}
            onChange={change}
            onSubmit={() => void save(false)}
            disabled={busy || loading}
          />
        </RecordEditorContext.Provider>
      </div>
      {isAuth && current && tab === 'providers' && <AuthProvidersTab collection={collection} record={current} />}
    </OverlayPanel>
  );
}
