// The 'Send test email' popup: template and recipient from schemas/settings/test-email.*, the last
// recipient remembered locally, no closing while sending, 30 s limit ('Test email send timeout.').
import { ScreenView } from '../../engine/ScreenView';

/** Local storage key of the last test email recipient. */
const LAST_TEST_EMAIL_KEY = 'last_email_test';

function lastRecipient(): string {
  try {
    return localStorage.getItem(LAST_TEST_EMAIL_KEY) ?? '';
  } catch {
    return '';
  }
}

export function TestEmailPopup({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <ScreenView
      name="settings-test-email"
      open={open}
      onClose={onClose}
      initial={{ template: 'verification', email: lastRecipient() }}
      onDone={(_res, body) => {
        try {
          if (typeof body.email === 'string') localStorage.setItem(LAST_TEST_EMAIL_KEY, body.email);
        } catch {
          // storage unavailable: nothing to remember
        }
        onClose();
      }}
    />
  );
}
