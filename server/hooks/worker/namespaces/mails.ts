// `$mails.*` (0.22's mails package): an auth record's verification, password reset and email
// change mails, an admin's password reset. Synchronous for the handler, as 0.22's are: the main
// thread sends the mail with the API's own code (../../mails-rpc.ts), mailer hooks included, and
// answers once it has gone; a failure (SMTP off, the server refusing) is thrown.
import { namespace } from '../../../migrations/js-unsupported';
import { toWire } from '../../models-wire';

type Call = (method: string, args: unknown[]) => unknown;

export function mailsNamespace(call: Call): object {
  const send = (kind: string, model: unknown, ...rest: unknown[]): void => {
    call('mails', [kind, toWire(model ?? null), ...rest]);
  };
  return namespace('$mails', {
    sendRecordVerification: (_app: unknown, record: unknown) => send('sendRecordVerification', record),
    sendRecordPasswordReset: (_app: unknown, record: unknown) => send('sendRecordPasswordReset', record),
    sendRecordChangeEmail: (_app: unknown, record: unknown, newEmail: unknown) => send('sendRecordChangeEmail', record, newEmail === undefined || newEmail === null ? '' : String(newEmail)),
    sendAdminPasswordReset: (_app: unknown, admin: unknown) => send('sendAdminPasswordReset', admin),
  });
}
