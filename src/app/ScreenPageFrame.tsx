// The frame of a page-kind screen (the engine host's PageFrame): document title, breadcrumb, and
// the settings layout for settings routes.
import type { PageFrameProps } from '../engine/host';
import { usePageTitle } from '../shell/page-title';
import { Breadcrumbs, SettingsLayout } from '../shell/SettingsLayout';

export default function ScreenPageFrame({ title, breadcrumb, route, children }: PageFrameProps) {
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
