// #/settings: the Application screen (screens/settings-application.json). Loading and saving apply
// the app name and restricted mode everywhere (page titles, sidebar links, collection controls).
import { ScreenView } from '../../engine/ScreenView';
import { setAppMeta } from '../../state/app';

type WithMeta = { meta?: { appName?: unknown; hideControls?: unknown } };

export default function ApplicationSettingsPage() {
  return (
    <ScreenView
      name="settings-application"
      onLoaded={(doc) => setAppMeta((doc as WithMeta).meta)}
      onDone={(saved) => setAppMeta((saved as WithMeta).meta)}
    />
  );
}
