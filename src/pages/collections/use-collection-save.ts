import { useState } from 'react';
import { handleError, pb } from '../../api/client';
import { confirm } from '../../shell/confirm';
import { addSuccessToast } from '../../shell/toasts';
import { clearFieldErrors, setFieldErrors } from '../../engine/field-errors';
import { needsConfirmation, pendingChanges, type PendingChanges } from '../../lib/collections/diff';
import { collectionPayload } from '../../lib/collections/payload';
import type { CollectionModel } from '../../lib/collections/types';
import { collectionsState, removeCollection, upsertCollection } from '../../state/collections';
import { currentAccess } from '../../state/permissions';
import { multipleSwitchErrors } from './multiple-errors';
import { relationTargetErrors } from './relation-targets';
import { migrationCapture } from '../../shell/migration-marker';
import { t } from '../../ui/i18n';

type Options = {
  original: CollectionModel | null;
  draft: CollectionModel;
  isNew: boolean;
  /** The draft differs from the collection as stored. */
  changed: boolean;
  onSaved: (saved: CollectionModel, created: boolean) => void;
  onClose: () => void;
  /** An option kept outside the collection changed (the record history), and how it is saved once the collection is. */
  extraChanged?: boolean;
  saveExtra?: (saved: CollectionModel) => Promise<boolean>;
};

/**
 * Saving and deleting a collection. Saving first checks the relation targets against the known
 * collections (as the server would); saving an existing one with a rename, a multiple→single
 * conversion or a removed field waits for the confirm-changes dialog (`confirmChanges`).
 */
export function useCollectionSave({ original, draft, isNew, changed, onSaved, onClose, extraChanged = false, saveExtra }: Options) {
  const [busy, setBusy] = useState(false);
  const [confirmChanges, setConfirmChanges] = useState<PendingChanges | null>(null);
  const canSave = !busy && (isNew || changed || extraChanged);

  const doSave = async () => {
    setBusy(true);
    clearFieldErrors();
    try {
      const body = collectionPayload(draft);
      const marker = migrationCapture();
      const options = { requestKey: 'collection_save', fetch: marker.fetch };
      // only the option outside the collection changed: the collection itself is not sent
      const saved = (
        isNew ? await pb.collections.create(body, options) : changed ? await pb.collections.update(original!.id, body, options) : original!
      ) as unknown as CollectionModel;
      await saveExtra?.(saved);
      addSuccessToast(t(isNew ? 'collections.created' : 'collections.updated'));
      marker.show();
      upsertCollection(saved);
      setConfirmChanges(null);
      onSaved(saved, isNew);
      onClose();
    } catch (err) {
      setConfirmChanges(null);
      handleError(err);
    } finally {
      setBusy(false);
    }
  };

  const save = () => {
    if (!canSave) return;
    // a scoped admin's list lacks the collections its role does not show, so a relation into one
    // would look broken here: the server checks the targets for it
    const targets = currentAccess().full ? relationTargetErrors(collectionPayload(draft), original, collectionsState.collections) : null;
    const switches = draft.type === 'view' ? null : multipleSwitchErrors(draft.schema);
    if (targets || switches) {
      const schema = { ...(switches?.schema as object | undefined) };
      // one field has one type, so a field index is in one tree at most
      Object.assign(schema, targets?.schema);
      setFieldErrors({ schema });
      return;
    }
    const changes = pendingChanges(original, draft);
    if (!isNew && needsConfirmation(changes)) setConfirmChanges(changes);
    else void doSave();
  };

  const remove = () => {
    if (!original) return;
    const name = original.name;
    confirm(t('collections.confirmDelete', { name }), async () => {
      try {
        const marker = migrationCapture();
        await pb.collections.delete(original.id, { fetch: marker.fetch });
        addSuccessToast(t('collections.deleted', { name }));
        marker.show();
        removeCollection(original.id);
        onClose();
      } catch (err) {
        handleError(err);
      }
    });
  };

  return { busy, canSave, confirmChanges, cancelConfirm: () => setConfirmChanges(null), doSave, save, remove };
}
