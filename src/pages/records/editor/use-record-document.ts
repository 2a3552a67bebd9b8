/**
 * The record editor's document: the record as stored (loaded fresh on each opening, the list holds
 * excerpts), the form data and the copy "unsaved changes" compares it with, the files picked for
 * upload, the draft kept in local storage while the form differs, and what happened to the record
 * elsewhere (a realtime change) since it was loaded.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { RecordModel } from 'pocketbase';
import { handleError, pb } from '../../../api/client';
import { confirm } from '../../../shell/confirm';
import { addErrorToast } from '../../../shell/toasts';
import { clearFieldErrors } from '../../../engine/field-errors';
import type { CollectionModel } from '../../../lib/collections/types';
import { deepEqual } from '../../../lib/json';
import { recordFormSchema, recordToFormData } from '../../../lib/record-form';
import { createUploadStore } from '../../../widgets/record/context';
import { fieldOptionsUi } from '../field-options-ui';
import { fieldDefinition } from '../../../fields/registry';
import { deleteDraft, draftKey, draftOf, readDraft, saveDraft } from './drafts';
import { MESSAGES } from './messages';
import { localizeRecordForm } from './form-words';

type Data = Record<string, unknown>;

/** What happened to the record elsewhere since it was loaded ('reloaded': a clean form was refreshed). */
type Elsewhere = 'changed' | 'deleted' | 'reloaded' | null;

/** The latest realtime change of the record (from the records list's subscription). */
export type RemoteChange = { action: 'create' | 'update' | 'delete'; record: RecordModel; seq: number };

type Options = {
  collection: CollectionModel;
  /** null = new record */
  record: RecordModel | null;
  duplicateOf?: RecordModel | null;
  open: boolean;
  onClose(): void;
  remoteChange?: RemoteChange | null;
  /** A save is under way: a realtime echo of it is not a change made elsewhere. */
  busy: boolean;
  /** Called whenever the form starts over from a record. */
  onStart(): void;
};

/** The record a duplicate starts from: no id, created, updated or files. */
function duplicateSource(collection: CollectionModel, source: RecordModel): RecordModel {
  const copy: Record<string, unknown> = { ...source, id: '', created: '', updated: '' };
  for (const f of collection.schema) if (fieldDefinition(f.type).uploads) copy[f.name] = Array.isArray(source[f.name]) ? [] : '';
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

export function useRecordDocument({ collection, record, duplicateOf, open, onClose, remoteChange = null, busy, onStart }: Options) {
  // the record being edited (fresh from the server) or null while creating
  const [current, setCurrent] = useState<RecordModel | null>(null);
  const [dupOf, setDupOf] = useState<RecordModel | null>(null);
  const [loading, setLoading] = useState(false);
  const [data, setData] = useState<Data>({});
  const [pristine, setPristine] = useState<Data>({});
  const [formKey, setFormKey] = useState(0);
  const [draft, setDraft] = useState<Data | null>(null);
  const [store, setStore] = useState(createUploadStore);
  const [elsewhere, setElsewhere] = useState<Elsewhere>(null);

  const isNew = !current;
  const isAuth = collection.type === 'auth';
  const form = useMemo(() => localizeRecordForm(recordFormSchema(collection, { isNew, optionsUi: fieldOptionsUi })), [collection, isNew]);
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
    setElsewhere(null);
    clearFieldErrors();
    onStart();
    // a stored draft that differs from the starting data is offered back
    const stored = readDraft(draftKey(collection.id, rec?.id));
    setDraft(stored && !deepEqual(stored, draftOf(initial)) ? stored : null);
  };

  // Each opening starts from the record as stored.
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

  /** Puts `value` into field `name` (an old value from the History tab): the form is rebuilt with it. */
  const setField = (name: string, value: unknown) => {
    setData((d) => ({ ...d, [name]: value }));
    setFormKey((k) => k + 1);
  };

  const restoreDraft = () => {
    if (!draft) return;
    const restored: Data = { ...data };
    for (const [k, v] of Object.entries(draft)) if (k in (form.schema.properties as Record<string, unknown>) || k === 'id') restored[k] = v;
    setData(restored);
    setDraft(null);
    setFormKey((k) => k + 1);
  };

  /** Forgets the draft (and, after a save that gave the record its id, the new record's). */
  const discardDraft = (savedId?: string) => {
    deleteDraft(key);
    if (savedId) deleteDraft(draftKey(collection.id, savedId));
    setDraft(null);
  };

  return { current, dupOf, loading, data, pristine, formKey, store, draft, elsewhere, setElsewhere, isNew, isAuth, form, dirty, start, change, loadRemoteVersion, restoreDraft, discardDraft, setField };
}
