// #/settings/mail: sender, templates and SMTP (screens/settings-mail.json), and the 'Send test
// email' popup (screens/settings-test-email.json) its action opens.
import { useState } from 'react';
import { ScreenView } from '../../engine/ScreenView';
import { TestEmailPopup } from './TestEmailPopup';

export default function MailSettingsPage() {
  const [testing, setTesting] = useState(false);
  return (
    <ScreenView name="settings-mail" onAction={(a) => a.opens === 'settings-test-email' && setTesting(true)}>
      <TestEmailPopup open={testing} onClose={() => setTesting(false)} />
    </ScreenView>
  );
}
