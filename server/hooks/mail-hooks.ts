// 0.22's mailer hooks: for the auth record mails (onMailer{Before,After}Record{Verification,
// ResetPassword,ChangeEmail}Send, tagged with the collection; e.record and e.collection the
// account) and the admin password reset (onMailer{Before,After}AdminResetPasswordSend, e.admin).
// e.message is the mail (to, subject, html, text), which a before-handler may change, or skip by
// returning false; e.meta holds the token (and the new address of an email change).
import type { AppContext } from '../context';
import type { RecordModel } from '../records/model';
import type { AdminRow } from '../services/admins';
import type { MailIntercept, MailMessage, RecordMailTemplate } from '../services/mailer';
import { adminEventWire } from './admin-wire';
import { apiErrorOf, invokeSafely } from './errors';
import type { HookEventWire } from './protocol';
import { recordWire } from './record-wire';
import { collectionJson } from '../collections/normalize';

const EVENT: Record<RecordMailTemplate, string> = {
  verification: 'RecordVerificationSend',
  'password-reset': 'RecordResetPasswordSend',
  'email-change': 'RecordChangeEmailSend',
};

/** The mail as hook code sees 0.22's mailer.Message. */
function messageOut(ctx: AppContext, m: MailMessage): Record<string, unknown> {
  const { senderName, senderAddress } = ctx.settings.get().meta;
  return { from: { name: senderName, address: senderAddress }, to: m.to.map((t) => ({ name: t.name ?? '', address: t.address })), cc: [], bcc: [], subject: m.subject, html: m.html, text: m.text ?? '', headers: {} };
}

/** The handlers' message back (only what Outpost sends: to, subject, html, text). */
function messageIn(value: unknown, fallback: MailMessage): MailMessage {
  if (!value || typeof value !== 'object') return fallback;
  const v = value as { to?: unknown; subject?: unknown; html?: unknown; text?: unknown };
  const to = Array.isArray(v.to) ? v.to.filter((t): t is { address: string; name?: string } => !!t && typeof (t as { address?: unknown }).address === 'string') : fallback.to;
  return { to: to.map((t) => ({ address: t.address, name: typeof t.name === 'string' ? t.name : '' })), subject: String(v.subject ?? fallback.subject), html: String(v.html ?? fallback.html), text: String(v.text ?? '') };
}

/** The intercept for one mail around `before` and `after` (`eventOf`: the event for a message), or undefined when no handler runs. */
function interceptOf(ctx: AppContext, before: string, after: string, tags: string[], eventOf: (message: MailMessage) => HookEventWire): MailIntercept | undefined {
  const hooks = ctx.hooks;
  if (!hooks || !(hooks.has(before, tags) || hooks.has(after, tags))) return undefined;
  const fire = async (name: string, message: MailMessage) => {
    const result = await invokeSafely(() => hooks.trigger(name, tags, eventOf(message)), name);
    if (result.outcome === 'error') throw apiErrorOf(result.error);
    return result;
  };
  return {
    async before(message) {
      if (!hooks.has(before, tags)) return message;
      const result = await fire(before, message);
      return result.outcome === 'stop' ? null : messageIn(result.event?.fields?.message, message);
    },
    async after(message) {
      if (hooks.has(after, tags)) await fire(after, message);
    },
  };
}

/** The intercept for an auth record's mail, or undefined when no handler runs for it. */
export function mailHooks(ctx: AppContext, template: RecordMailTemplate, record: RecordModel, meta: Record<string, unknown>): MailIntercept | undefined {
  const collection = collectionJson(record.collection) as unknown as Record<string, unknown>;
  return interceptOf(ctx, `onMailerBefore${EVENT[template]}`, `onMailerAfter${EVENT[template]}`, [record.collection.id, record.collection.name], (message) => ({
    record: recordWire(record),
    fields: { collection, message: messageOut(ctx, message), meta, mailClient: null },
  }));
}

/** The intercept for an admin's password reset mail, or undefined when no handler runs for it. */
export function adminMailHooks(ctx: AppContext, admin: AdminRow, meta: Record<string, unknown>): MailIntercept | undefined {
  return interceptOf(ctx, 'onMailerBeforeAdminResetPasswordSend', 'onMailerAfterAdminResetPasswordSend', [], (message) => ({
    fields: { admin: adminEventWire(admin), message: messageOut(ctx, message), meta, mailClient: null },
  }));
}
