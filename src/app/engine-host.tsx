// The schema engine's host (src/engine/host.ts): the API client, the shell's error handling and
// toasts, and the page frame of a screen.
import { handleError, pb } from '../api/client';
import type { EngineHost, PageFrameProps } from '../engine/host';
import { lazyComponent } from './lazy-component';
import { addToast } from '../shell/toasts';

/**
 * On demand: page-kind screens are all admin pages, so the frame comes with the admin shell
 * (./admin-shell), and the sign-in page does not download the settings layout.
 */
export const ScreenPageFrame = lazyComponent<PageFrameProps>(() => import('./admin-shell').then((m) => ({ default: m.ScreenPageFrame })));

export const appEngineHost: EngineHost = {
  send: (path, { method, body, requestKey }) => pb.send(path, { method, body, requestKey }),
  cancel: (requestKey) => pb.cancelRequest(requestKey),
  handleError: (err) => handleError(err),
  notify: (type, message, durationMs) => void addToast(type, message, durationMs),
  PageFrame: ScreenPageFrame,
};
