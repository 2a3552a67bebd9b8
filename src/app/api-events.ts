// The shell's side of the API client's events: messages as toasts, field errors into the forms'
// store, a signed-out session to the sign-in screen, a forbidden page to the start.
import { onApiEvent } from '../api/events';
import { setFieldErrors } from '../engine/field-errors';
import { navigate } from '../shell/navigation';
import { addErrorToast } from '../shell/toasts';
import { serverWords, t } from '../ui/i18n';
import { currentAccess, loadAccess } from '../state/permissions';


/** Subscribes the shell (main.tsx, once); returns the unsubscribe. */
export function connectApiEvents(): () => void {
  return onApiEvent((event) => {
    if (event.type === 'error') {
      if (!event.quiet) addErrorToast(serverWords(event.message));
      if (event.fieldErrors) setFieldErrors(event.fieldErrors);
    } else if (event.type === 'forbidden') {
      // a scoped admin met its role's limit (or the role changed meanwhile): say why, read it again
      if (!currentAccess().full) addErrorToast(t('roles.forbidden'));
      void loadAccess();
      navigate('/', { replace: true });
    } else {
      navigate('/login', { replace: true });
    }
  });
}
