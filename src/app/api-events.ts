// The shell's side of the API client's events: messages as toasts, field errors into the forms'
// store, a signed-out session to the sign-in screen, a forbidden page to the start (a scoped
// admin's 403 is explained instead, and its role read again: screens and buttons follow it).
import { onApiEvent } from '../api/events';
import { setFieldErrors } from '../engine/field-errors';
import { navigate } from '../shell/navigation';
import { addErrorToast } from '../shell/toasts';
import { serverWords, t } from '../ui/i18n';
import { accessKnown, currentAccess, loadAccess } from '../state/permissions';

/** The server's 403 that names no reason (0.22's). */
const GENERIC_FORBIDDEN = 'You are not allowed to perform this request.';

/** Subscribes the shell (main.tsx, once); returns the unsubscribe. */
export function connectApiEvents(): () => void {
  // a 403's message waits for the 'forbidden' event that follows it: whose it is decides its words
  let forbiddenMessage = '';
  return onApiEvent((event) => {
    if (event.type === 'error') {
      if (event.status === 403) forbiddenMessage = serverWords(event.message);
      else if (!event.quiet) addErrorToast(serverWords(event.message));
      if (event.fieldErrors) setFieldErrors(event.fieldErrors);
    } else if (event.type === 'forbidden') {
      const message = forbiddenMessage;
      forbiddenMessage = '';
      // the role is read again either way (it may have changed meanwhile, or not be known yet)
      const known = accessKnown();
      const reread = loadAccess();
      void (known ? Promise.resolve() : reread).then(() => {
        if (currentAccess().full) {
          // as PocketBase 0.22 does
          if (message) addErrorToast(message);
          navigate('/', { replace: true });
        } else {
          // a scoped admin met its role's limit: say why and stay; the role read again hides what
          // it no longer allows (a screen shows src/shell/NoAccess). A refusal that names its
          // reason (a view or rule reaching a collection the role does not read) is shown as given.
          addErrorToast(message && message !== serverWords(GENERIC_FORBIDDEN) ? message : t('roles.forbidden'));
        }
      });
    } else {
      navigate('/login', { replace: true });
    }
  });
}
