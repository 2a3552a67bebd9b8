// #/settings/tokens: durations and secrets of the eight token types (screens/settings-tokens.json).
import { ScreenView } from '../../engine/ScreenView';

export default function TokenOptionsPage() {
  return <ScreenView name="settings-tokens" />;
}
