// Export and import are hidden in restricted mode: the screens send the
// admin to the root, like a failed route condition.
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { navigate } from '../../../shell/navigation';
import { appState } from '../../../state/app';

/** True when the screen must not show; it then replaces the address with the root. */
export function useRestrictedRedirect(): boolean {
  const { hideControls } = useSnapshot(appState);
  useEffect(() => {
    if (hideControls) navigate('/', { replace: true });
  }, [hideControls]);
  return hideControls;
}
