// Page title: page title, app name and product name joined with ' - '.
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { appState } from '../state/app';

export const PRODUCT_NAME = 'Outpost';

export function formatPageTitle(title: string, appName: string): string {
  return [title, appName, PRODUCT_NAME].map((s) => (s ?? '').trim()).filter(Boolean).join(' - ');
}

export function usePageTitle(title: string): void {
  const { appName } = useSnapshot(appState);
  useEffect(() => {
    document.title = formatPageTitle(title, appName);
  }, [title, appName]);
}
