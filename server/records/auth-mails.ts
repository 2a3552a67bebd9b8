// The account mails of 0.22 (mails/record.go, mails/admin.go): an auth record's verification,
// password reset and email change, and an admin's password reset, each with a new token, built
// from the settings templates and sent with the mailer hooks (onMailer*Send) around them. The
// API's flows send with these (adding their throttle and the "sent at" stamp), and so do
// pb_hooks' `$mails.*`, which send as 0.22's do: no throttle, no stamp.
import type { AppContext } from '../context';
import { adminMailHooks, mailHooks } from '../hooks/mail-hooks';
import type { AdminRow } from '../services/admins';
import { sendAdminPasswordResetMail, sendRecordTemplateMail } from '../services/mailer';
import { newAdminPasswordResetToken, newRecordEmailChangeToken, newRecordPasswordResetToken, newRecordVerificationToken } from '../services/tokens';
import type { RecordModel } from './model';

/** What an auth record's tokens are signed with. */
const keysOf = (record: RecordModel) => ({
  id: String(record.data.id ?? ''),
  tokenKey: String(record.data.tokenKey ?? ''),
  collectionId: record.collection.id,
  email: String(record.data.email ?? ''),
});

/** The verification mail to the record's address (0.22's SendRecordVerification). */
export async function mailRecordVerification(ctx: AppContext, record: RecordModel): Promise<void> {
  const settings = ctx.settings.get();
  const token = newRecordVerificationToken(settings, keysOf(record));
  await sendRecordTemplateMail(settings, 'verification', keysOf(record).email, token, mailHooks(ctx, 'verification', record, { token }));
}

/** The password reset mail to the record's address (0.22's SendRecordPasswordReset). */
export async function mailRecordPasswordReset(ctx: AppContext, record: RecordModel): Promise<void> {
  const settings = ctx.settings.get();
  const token = newRecordPasswordResetToken(settings, keysOf(record));
  await sendRecordTemplateMail(settings, 'password-reset', keysOf(record).email, token, mailHooks(ctx, 'password-reset', record, { token }));
}

/** The email change confirmation, sent to the new address (0.22's SendRecordChangeEmail). */
export async function mailRecordEmailChange(ctx: AppContext, record: RecordModel, newEmail: string): Promise<void> {
  const settings = ctx.settings.get();
  const token = newRecordEmailChangeToken(settings, keysOf(record), newEmail);
  await sendRecordTemplateMail(settings, 'email-change', newEmail, token, mailHooks(ctx, 'email-change', record, { token, newEmail }));
}

/** The admin password reset mail (0.22's SendAdminPasswordReset). */
export async function mailAdminPasswordReset(ctx: AppContext, admin: AdminRow): Promise<void> {
  const settings = ctx.settings.get();
  const token = newAdminPasswordResetToken(settings, admin);
  await sendAdminPasswordResetMail(settings, admin.email, token, adminMailHooks(ctx, admin, { token }));
}
