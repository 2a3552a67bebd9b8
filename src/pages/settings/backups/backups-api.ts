// The backups calls the page makes and the health poll (every 3 s while the
// page is open), kept apart from the components.
import { useEffect, useState } from 'react';
import { pb } from '../../../api/client';
import { formatByteSize } from '../../../lib/byte-size';
import { currentLanguage, serverWords } from '../../../ui/i18n';

const HEALTH_POLL_MS = 3000;

export interface BackupItem {
  key: string;
  size: number;
  modified: string;
}

/** Newest first. */
function sortBackups(items: BackupItem[]): BackupItem[] {
  return [...items].sort((a, b) => (a.modified < b.modified ? 1 : a.modified > b.modified ? -1 : a.key.localeCompare(b.key)));
}

export async function listBackups(): Promise<BackupItem[]> {
  const items = await pb.backups.getFullList({ requestKey: 'backups_list' });
  return sortBackups(items as BackupItem[]);
}

/** 12.30 KB style sizes in the dashboard's language, as in the list's brackets. */
export const formatSize = (bytes: number): string => formatByteSize(bytes, currentLanguage());

/** The server's message of a failed call (in the dashboard's language), else the error's own. */
export function errorMessage(err: unknown): string {
  const r = (err as { response?: { message?: unknown } })?.response;
  if (r && typeof r.message === 'string' && r.message) return serverWords(r.message);
  return err instanceof Error ? err.message : String(err);
}

/** The message of the upload's `file` field error, when the server sent one. */
export function fileErrorMessage(err: unknown): string {
  const file = (err as { response?: { data?: { file?: { message?: unknown; code?: unknown } } } })?.response?.data?.file;
  return typeof file?.message === 'string' ? serverWords(file.message, typeof file.code === 'string' ? file.code : undefined) : '';
}

/** Whether the server can start a backup now (health's canBackup), polled while mounted. */
export function useCanBackup(): boolean {
  const [canBackup, setCanBackup] = useState(true);
  useEffect(() => {
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const res = await pb.health.check({ requestKey: null });
        if (alive) setCanBackup(res?.data?.canBackup !== false);
      } catch {
        // unreachable for a moment (e.g. restarting): keep the last state
      }
      if (alive) timer = setTimeout(() => void poll(), HEALTH_POLL_MS);
    };
    void poll();
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, []);
  return canBackup;
}
