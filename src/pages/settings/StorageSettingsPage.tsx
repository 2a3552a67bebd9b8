// #/settings/storage: S3 files storage with its connection status (screens/settings-storage.json).
import { ScreenView } from '../../engine/ScreenView';

export default function StorageSettingsPage() {
  return <ScreenView name="settings-storage" />;
}
