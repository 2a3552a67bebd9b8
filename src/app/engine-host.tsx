// The schema engine's host (src/engine/host.ts): the API client, the shell's error handling and
// toasts, and the page frame of a screen (document title, breadcrumb, the settings layout for
// settings routes).
import { handleError, pb } from '../api/client';
import type { EngineHost, PageFrameProps } from '../engine/host';
import { usePageTitle } from './page-title';
import { Breadcrumbs, SettingsLayout } from './SettingsLayout';
import { addToast } from './toasts';

function PageFrame({ title, breadcrumb, route, children }: PageFrameProps) {
  usePageTitle(title);
  const content = (
    <>
      <header className="page-header">
        <Breadcrumbs items={breadcrumb} />
      </header>
      <div className="page-content">{children}</div>
    </>
  );
  return route.startsWith('/settings') ? <SettingsLayout>{content}</SettingsLayout> : <main className="page-wrapper">{content}</main>;
}

export const appEngineHost: EngineHost = {
  send: (path, { method, body, requestKey }) => pb.send(path, { method, body, requestKey }),
  cancel: (requestKey) => pb.cancelRequest(requestKey),
  handleError: (err) => handleError(err),
  notify: (type, message, durationMs) => void addToast(type, message, durationMs),
  PageFrame,
};
