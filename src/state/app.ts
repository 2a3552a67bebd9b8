// Application-wide settings the shell needs (app name for titles, restricted mode).
import { proxy } from 'valtio';
import { pb } from '../api/client';

export type AppState = { appName: string; hideControls: boolean; loaded: boolean };

export const appState = proxy<AppState>({ appName: '', hideControls: false, loaded: false });

/** Applies a settings `meta` block (call after saving application settings). */
export function setAppMeta(meta: { appName?: unknown; hideControls?: unknown } | null | undefined): void {
  if (!meta) return;
  if (typeof meta.appName === 'string') appState.appName = meta.appName;
  if (meta.hideControls !== undefined) appState.hideControls = !!meta.hideControls;
}

/** Loads GET /api/settings once signed in; a failure is only a console warning. */
export async function loadAppSettings(): Promise<void> {
  try {
    const settings = await pb.settings.getAll({ requestKey: 'app_settings' });
    setAppMeta((settings as { meta?: { appName?: unknown; hideControls?: unknown } })?.meta);
    appState.loaded = true;
  } catch (err) {
    if ((err as { isAbort?: boolean })?.isAbort) return;
    console.warn('Failed to load app settings.', err);
  }
}
