// #/settings: the Application screen (screens/settings-application.json). Loading and saving apply
// the app name and restricted mode everywhere (page titles, sidebar links, collection controls);
// the trusted proxy section gets the hint of ./proxy-hint.tsx (its form places the `proxy` note).
import { useMemo, useState } from 'react';
import { ScreenView } from '../../engine/ScreenView';
import { setAppMeta } from '../../state/app';
import { useProxyHint } from './proxy-hint';

type Loaded = { meta?: { appName?: unknown; hideControls?: unknown }; trustedProxy?: { headers?: unknown } };

const trustedHeaders = (doc: Loaded): string[] => (Array.isArray(doc.trustedProxy?.headers) ? doc.trustedProxy.headers.filter((h): h is string => typeof h === 'string') : []);

export default function ApplicationSettingsPage() {
  const [trusted, setTrusted] = useState<string[] | null>(null);
  const { hint, refresh } = useProxyHint(trusted);
  const notes = useMemo(() => ({ proxy: hint }), [hint]);
  return (
    <ScreenView
      name="settings-application"
      notes={notes}
      onLoaded={(doc) => {
        setAppMeta((doc as Loaded).meta);
        setTrusted(trustedHeaders(doc as Loaded));
      }}
      onDone={(saved) => {
        setAppMeta((saved as Loaded).meta);
        setTrusted(trustedHeaders(saved as Loaded));
        refresh();
      }}
    />
  );
}
