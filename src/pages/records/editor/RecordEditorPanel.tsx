/**
 * The record editor panel. The form
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
import { confirm } from '../../../shell/confirm';
import { MoreMenu } from '../../../shell/MoreMenu';
import { OverlayPanel } from '../../../ui/OverlayPanel';
import { addSuccessToast } from '../../../shell/toasts';
import { SchemaForm } from '../../../engine';
import type { CollectionModel } from '../../../lib/collections/types';
import { clearFieldErrors, setFieldErrors } from '../../../engine/field-errors';
import { RecordEditorContext, type NestedRecordEditorProps, type RecordEditorContextValue } from '../../../widgets/record/context';
import { AuthProvidersTab } from './AuthProvidersTab';
import { RecordHistoryTab } from './RecordHistoryTab';
import { t } from '../../../ui/i18n';
import { useAccess } from '../../../state/permissions';
import { recordToFormData } from '../../../lib/record-form';
import { MESSAGES } from './messages';
import { buildRecordPayload, toFormData } from './payload';
import { useRecordDocument, type RemoteChange } from './use-record-document';
import { useSaveShortcut } from './use-save-shortcut';
import './record-editor.css';

export type RecordEditorPanelProps = {
  collection: CollectionModel;
  /** null = new record */
  record: RecordModel | null;
  /** Opens as a new record prefilled from this one (id, created, updated and files cleared). */
  duplicateOf?: RecordModel | null;
  open: boolean;
  onClose(): void;
  /** `created`: the save created the record. */
  onSaved(record: RecordModel, created: boolean): void;
  onDeleted(id: string): void;
  /**
   * Told as a create (id null) or delete is sent, answers what to call once it settled: the list
   * then takes the realtime event, which may come before the answer, as the admin's own.
   */
  onWriteStart?(action: 'create' | 'delete', id: string | null): () => void;
  /** The form's DOM id (and its fields' id prefix); another one when nested in another editor. */
  formId?: string;
  /** The latest realtime change of this record (from the records list's subscription). */
  remoteChange?: RemoteChange | null;
};

const FORM_ID = 'record-editor-form';

export default function RecordEditorPanel({
  collection,
  record,
  duplicateOf,
  open,
  onClose,
  onSaved,
  onDeleted,
  onWriteStart,
  formId = FORM_ID,
  remoteChange = null,
}: RecordEditorPanelProps) {
  const [busy, setBusy] = useState(false);
  const [saveMenu, setSaveMenu] = useState(false);
  const [tab, setTab] = useState<'account' | 'providers' | 'history'>('account');
  const saveMenuRef = useRef<HTMLDivElement>(null);
  const doc = useRecordDocument({ collection, record, duplicateOf, open, onClose, remoteChange, busy, onStart: () => setTab('account') });
  const { current, dupOf, loading, data, pristine, formKey, store, draft, elsewhere, isNew, isAuth, form, dirty } = doc;
  // a scoped admin's role: without update (create, for a new record) the form is read-only
  const access = useAccess();
  const mayWrite = access.records(collection, isNew ? 'create' : 'update');
  const mayCreate = access.records(collection, 'create');
  const mayDelete = access.records(collection, 'delete');
  const canSave = mayWrite && !busy && !loading && dirty && elsewhere !== 'deleted';

  const save = async (keepOpen: boolean) => {
    if (!canSave) return;
    if (elsewhere === 'changed') {
      confirm(MESSAGES.confirmOverwrite, () => {
        doc.setElsewhere(null);
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
    const settled = isNew ? onWriteStart?.('create', null) : undefined;
    try {
      const body = toFormData(built);
      const saved = current ? await pb.collection(collection.id).update(current.id, body) : await pb.collection(collection.id).create(body);
      addSuccessToast(isNew ? MESSAGES.created : MESSAGES.updated);
      doc.discardDraft(saved.id);
      onSaved(saved, isNew);
      if (keepOpen) doc.start(saved, null);
      else onClose();
    } catch (err) {
      handleError(err);
    } finally {
      settled?.();
      setBusy(false);
    }
  };

  // Ctrl/Cmd+S saves and keeps the panel open.
  useSaveShortcut(open, formId, () => void save(true));

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
      const settled = onWriteStart?.('delete', current.id);
      try {
        await pb.collection(collection.id).delete(current.id);
        addSuccessToast(MESSAGES.deleted);
        doc.discardDraft();
        onDeleted(current.id);
        onClose();
      } catch (err) {
        handleError(err);
      } finally {
        settled?.();
      }
    });
  };

  const duplicate = () => {
    if (!current) return;
    const go = () => doc.start(null, current);
    if (dirty) confirm(MESSAGES.confirmDiscard, go);
    else go();
  };

  const sendEmail = (kind: 'verification' | 'reset') => {
    const email = String(current?.email ?? '');
    if (!email) return;
    const text = kind === 'verification' ? t('recordEditor.confirmVerification', { email }) : t('recordEditor.confirmReset', { email });
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

  // Closing: unsaved changes ask first (and keep their draft); a clean close drops the draft.
  const beforeHide = () => {
    if (busy) return false;
    if (!dirty) {
      doc.discardDraft();
      return true;
    }
    return new Promise<boolean>((resolve) => confirm(MESSAGES.confirmClose, () => resolve(true), () => resolve(false)));
  };
  const requestClose = async () => {
    if (await beforeHide()) onClose();
  };

  const context: RecordEditorContextValue = useMemo(
    () => ({ collection, record: current, uploads: store.uploads, addUploads: store.addUploads, NestedEditor: NewRecordEditor }),
    [collection, current, store],
  );

  const title = isNew ? t('recordEditor.titleNew', { name: collection.name }) : t('recordEditor.titleEdit', { name: collection.name });
  const email = String(current?.email ?? '');
  const header = (
    <div className="record-editor-header">
      <h2 className="overlay-panel-title">{title}</h2>
      {!isNew && (mayCreate || mayDelete || (isAuth && email)) && (
        <MoreMenu label={t('recordEditor.moreOptions')} className="record-editor-menu" dropdownClassName="record-editor-dropdown">
          {(close) => (
            <>
              {isAuth && !current?.verified && email && (
                <button type="button" role="menuitem" className="dropdown-item" onClick={() => (close(), sendEmail('verification'))}>
                  {t('recordEditor.sendVerification')}
                </button>
              )}
              {isAuth && email && (
                <button type="button" role="menuitem" className="dropdown-item" onClick={() => (close(), sendEmail('reset'))}>
                  {t('recordEditor.sendReset')}
                </button>
              )}
              {mayCreate && (
                <button type="button" role="menuitem" className="dropdown-item" onClick={() => (close(), duplicate())}>
                  {t('recordEditor.duplicate')}
                </button>
              )}
              {mayDelete && (
                <button type="button" role="menuitem" className="dropdown-item txt-danger" onClick={() => (close(), remove())}>
                  {t('recordWidget.delete')}
                </button>
              )}
            </>
          )}
        </MoreMenu>
      )}
      {!isNew && (
        <div className="record-editor-tabs" role="tablist">
          <button type="button" role="tab" aria-selected={tab === 'account'} className={`record-editor-tab${tab === 'account' ? ' active' : ''}`} onClick={() => setTab('account')}>
            {isAuth ? t('recordEditor.account') : t('audit.tabFields')}
          </button>
          {isAuth && (
            <button type="button" role="tab" aria-selected={tab === 'providers'} className={`record-editor-tab${tab === 'providers' ? ' active' : ''}`} onClick={() => setTab('providers')}>
              {t('recordEditor.providers')}
            </button>
          )}
          {/* the trail shows every admin's changes: full admins only (server/http/permissions.ts) */}
          {access.full && (
            <button type="button" role="tab" aria-selected={tab === 'history'} className={`record-editor-tab${tab === 'history' ? ' active' : ''}`} onClick={() => setTab('history')}>
              {t('audit.tabHistory')}
            </button>
          )}
        </div>
      )}
    </div>
  );

  const footer = (
    <>
      <button type="button" className="btn btn-transparent" onClick={requestClose} disabled={busy}>
        {mayWrite ? t('recordWidget.cancel') : t('common.close')}
      </button>
      {mayWrite && (
        <div className="record-editor-save" ref={saveMenuRef}>
          <button type="submit" form={formId} className={`btn btn-primary${busy ? ' btn-loading' : ''}`} aria-busy={busy || undefined} disabled={!canSave}>
            <span>{isNew ? t('recordEditor.create') : t('recordEditor.saveChanges')}</span>
          </button>
          <button
            type="button"
            className="btn btn-primary record-editor-save-more"
            aria-label={t('recordEditor.moreSave')}
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
                {t('recordEditor.saveContinue')} <span className="txt-hint txt-sm">{t('recordEditor.saveShortcut')}</span>
              </button>
            </div>
          )}
        </div>
      )}
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
          <span className="flex-fill">{t('recordEditor.draft')}</span>
          <button type="button" className="btn btn-sm btn-secondary" onClick={doc.restoreDraft}>
            {t('recordEditor.restoreDraft')}
          </button>
          <button type="button" className="btn btn-sm btn-transparent btn-circle" aria-label={t('recordEditor.discardDraft')} title={t('recordEditor.discardDraft')} onClick={() => doc.discardDraft()}>
            ×
          </button>
        </div>
      )}
      {elsewhere === 'changed' && (
        <div className="alert alert-warning record-editor-elsewhere" role="alert">
          <span className="flex-fill">{MESSAGES.changedElsewhere} {t('recordEditor.overwriteNote')}</span>
          <button type="button" className="btn btn-sm btn-secondary" onClick={doc.loadRemoteVersion}>
            {t('recordEditor.loadNew')}
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
      {dupOf && isNew && <p className="txt-hint txt-sm record-editor-dup">{t('recordEditor.duplicateOf', { id: dupOf.id })}</p>}
      {!mayWrite && tab === 'account' && (
        <p className="alert alert-info record-editor-read-only" role="note">
          {t('roles.readOnlyRecord')}
        </p>
      )}
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
            onChange={doc.change}
            onSubmit={() => void save(false)}
            disabled={busy || loading || !mayWrite}
          />
        </RecordEditorContext.Provider>
      </div>
      {isAuth && current && tab === 'providers' && <AuthProvidersTab collection={collection} record={current} mayUnlink={access.records(collection, 'update')} />}
      {current && tab === 'history' && (
        <RecordHistoryTab
          collection={collection}
          record={current}
          refreshKey={String(current.updated)}
          onRestore={
            !mayWrite
              ? undefined
              : (field, value) => {
                  // the old value in the form's own shape (the field type's conversion), then back to the form
                  const restored = recordToFormData(collection, { ...current, [field]: value })[field];
                  doc.setField(field, restored);
                  setTab('account');
                  addSuccessToast(t('audit.oldValueInForm', { field }));
                }
          }
        />
      )}
    </OverlayPanel>
  );
}

/** A new record's editor opened from inside another editor (see RecordEditorContextValue.NestedEditor). */
function NewRecordEditor(props: NestedRecordEditorProps) {
  return <RecordEditorPanel {...props} record={null} open onDeleted={() => {}} />;
}
