// #/settings/backups: the backups list with refresh and upload, the
// button to start a new backup (only while health says canBackup), the create, restore and
// delete flows, and the 'Backups options' form (screens/settings-backups.json, drawn by the
// schema engine) in a collapsible section.
import { useCallback, useEffect, useRef, useState, type ChangeEvent } from 'react';
import { handleError, pb } from '../../../api/client';
import { getFileToken } from '../../../api/file-token';
import { confirm } from '../../../shell/confirm';
import { IconPlus, IconUpload } from '../../../ui/icons';
import { usePageTitle } from '../../../shell/page-title';
import { RefreshButton } from '../../../shell/RefreshButton';
import { Breadcrumbs, SettingsLayout } from '../../../shell/SettingsLayout';
import { addErrorToast, addSuccessToast } from '../../../shell/toasts';
import { ScreenView } from '../../../engine/ScreenView';
import { Accordion } from '../../../ui/Accordion';
import { fileErrorMessage, listBackups, useCanBackup, type BackupItem } from './backups-api';
import { BackupsList } from './BackupsList';
import { CreateBackupPopup } from './CreateBackupPopup';
import { usePendingCounts } from './pending-migrations';
import { RestoreBackupPopup } from './RestoreBackupPopup';
import './backups.css';
import { t } from '../../../ui/i18n';

export default function BackupsPage() {
  usePageTitle(t('page.settingsBackups'));
  const [items, setItems] = useState<BackupItem[]>([]);
  const [loading, setLoading] = useState(true);
  const [busyKeys, setBusyKeys] = useState<ReadonlySet<string>>(new Set());
  const [uploading, setUploading] = useState(false);
  const [creating, setCreating] = useState(false);
  const [restoring, setRestoring] = useState<string | null>(null);
  const canBackup = useCanBackup();
  const pending = usePendingCounts(items, loading);
  const fileInput = useRef<HTMLInputElement>(null);
  const seq = useRef(0);

  const load = useCallback(async () => {
    const n = ++seq.current;
    setLoading(true);
    try {
      const list = await listBackups();
      if (n === seq.current) setItems(list);
    } catch (err) {
      if (n !== seq.current) return;
      setItems([]);
      handleError(err);
    } finally {
      if (n === seq.current) setLoading(false);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  // when a running backup or restore ends, the list may have changed
  const wasBusy = useRef(false);
  useEffect(() => {
    if (!canBackup) wasBusy.current = true;
    else if (wasBusy.current) {
      wasBusy.current = false;
      void load();
    }
  }, [canBackup, load]);

  const withBusy = async (key: string, fn: () => Promise<void>) => {
    setBusyKeys((s) => new Set(s).add(key));
    try {
      await fn();
    } finally {
      setBusyKeys((s) => {
        const next = new Set(s);
        next.delete(key);
        return next;
      });
    }
  };

  const download = (key: string) =>
    void withBusy(key, async () => {
      const token = await getFileToken();
      const a = document.createElement('a');
      a.href = pb.backups.getDownloadUrl(token, key);
      a.download = key;
      a.rel = 'noopener';
      document.body.appendChild(a);
      a.click();
      a.remove();
    });

  const remove = (key: string) =>
    confirm(t('backups.confirmDelete', { name: key }), () =>
      withBusy(key, async () => {
        try {
          await pb.backups.delete(key, { requestKey: null });
          addSuccessToast(t('backups.deleted', { name: key }));
          setItems((list) => list.filter((b) => b.key !== key));
        } catch (err) {
          handleError(err);
        }
      }),
    );

  const upload = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file || uploading) return;
    setUploading(true);
    try {
      const data = new FormData();
      data.append('file', file);
      await pb.backups.upload(data, { requestKey: null });
      addSuccessToast(t('backups.uploaded'));
      void load();
    } catch (err) {
      const fileMessage = fileErrorMessage(err);
      if (fileMessage) addErrorToast(fileMessage);
      else handleError(err);
    } finally {
      setUploading(false);
    }
  };

  return (
    <SettingsLayout>
      <header className="page-header">
        <Breadcrumbs items={[t('nav.settings'), t('page.settingsBackups')]} />
      </header>
      <div className="page-content">
        <div className="screen-card backups-panel">
          <div className="backups-panel-header">
            <h2 className="backups-title">{t('backups.title')}</h2>
            <RefreshButton loading={loading} onClick={() => void load()} />
            <button
              type="button"
              className={`btn btn-transparent btn-sm btn-circle${uploading ? ' btn-loading' : ''}`}
              aria-label={t('backups.upload')}
              title={t('backups.upload')}
              disabled={uploading}
              onClick={() => fileInput.current?.click()}
            >
              <IconUpload size={16} />
            </button>
            <input ref={fileInput} type="file" accept="application/zip" hidden onChange={(e) => void upload(e)} data-testid="backup-upload-input" />
          </div>

          <BackupsList items={items} loading={loading} busy={busyKeys} pending={pending} onDownload={download} onRestore={setRestoring} onDelete={remove} />

          <div className="backups-create">
            {canBackup ? (
              <button type="button" className="btn btn-secondary" disabled={loading} onClick={() => setCreating(true)}>
                <IconPlus size={16} />
                <span>{t('backups.initialize')}</span>
              </button>
            ) : (
              <span className="backups-in-process txt-muted" role="status">
                <span className="spinner" aria-hidden="true" />
                {t('backups.inProcess')}
              </span>
            )}
          </div>
        </div>

        <div className="backups-options">
          <Accordion title={t('backups.options')}>
            <ScreenView name="settings-backups" />
          </Accordion>
        </div>
      </div>

      <CreateBackupPopup open={creating} onClose={() => setCreating(false)} onCreated={() => void load()} />
      <RestoreBackupPopup name={restoring} onClose={() => setRestoring(null)} />
    </SettingsLayout>
  );
}
