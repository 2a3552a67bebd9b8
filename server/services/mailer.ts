// Outgoing mail over the SMTP settings, and the mails PocketBase 0.22 sends. PocketBase falls back
// to the local sendmail when SMTP is off; we do not, we say so loudly and report an error.
import type { EmailTemplate, Settings } from './settings';
import { smtpTransportOptions } from './smtp-transport';

interface MailAddress {
  name?: string;
  address: string;
}

export interface MailMessage {
  to: MailAddress[];
  subject: string;
  html: string;
  /** The plain-text part; derived from the HTML when empty. */
  text?: string;
}

/**
 * Work around one send (0.22's mailer hooks): `before` may change the message or return null to
 * skip it (no error); `after` follows a successful send.
 */
export interface MailIntercept {
  before(message: MailMessage): Promise<MailMessage | null>;
  after(message: MailMessage): Promise<void>;
}

export class MailerDisabledError extends Error {
  constructor() {
    super('Cannot send the email because SMTP is disabled in the mail settings (there is no sendmail fallback).');
    this.name = 'MailerDisabledError';
  }
}

/** Sends one HTML mail (plus a plain-text part) from the configured sender. */
async function sendMail(settings: Settings, message: MailMessage): Promise<void> {
  const smtp = settings.smtp;
  if (!smtp.enabled) {
    const err = new MailerDisabledError();
    console.warn(`[mailer] "${message.subject}" to ${message.to.map((t) => t.address).join(', ')} was not sent: ${err.message}`);
    throw err;
  }
  // loaded on first use: nodemailer is large and must not weigh on the server's cold start
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport(smtpTransportOptions(smtp));
  try {
    await transport.sendMail({
      from: { name: settings.meta.senderName, address: settings.meta.senderAddress },
      to: message.to.map((t) => ({ name: t.name ?? '', address: t.address })),
      subject: message.subject,
      html: message.html,
      text: message.text || htmlToText(message.html),
    });
  } finally {
    transport.close();
  }
}

interface TemplateParams {
  appName?: string;
  appUrl?: string;
  token?: string;
  actionUrl?: string;
}

/** Replaces {APP_NAME}, {APP_URL}, {TOKEN} and {ACTION_URL} (the ones given) in `text`. */
function renderTemplate(text: string, params: TemplateParams): string {
  const pairs: Array<[string, string | undefined]> = [
    ['{APP_NAME}', params.appName],
    ['{APP_URL}', params.appUrl],
    ['{TOKEN}', params.token],
    ['{ACTION_URL}', params.actionUrl],
  ];
  let out = text;
  for (const [placeholder, value] of pairs) if (value !== undefined) out = out.split(placeholder).join(value);
  return out;
}

/** Resolves a settings template as 0.22 does: action URL first, then the body with it, then the subject. */
function resolveTemplate(template: EmailTemplate, appName: string, appUrl: string, token: string) {
  const actionUrl = normalizeUrl(renderTemplate(template.actionUrl, { appName, appUrl, token }));
  const body = renderTemplate(template.body, { appName, appUrl, token, actionUrl });
  const subject = renderTemplate(template.subject, { appName, appUrl });
  return { subject, body, actionUrl };
}

/** Collapses repeated slashes in a URL's path (an appUrl ending with "/" must not yield "//_/"). */
function normalizeUrl(raw: string): string {
  try {
    const url = new URL(raw);
    url.pathname = url.pathname.replace(/\/{2,}/g, '/');
    return url.toString();
  } catch {
    return raw;
  }
}

/**
 * The admin password reset mail of 0.22 (a fixed template, not a settings one), resolved by the
 * same template code as the record mails and wrapped in 0.22's mail layout.
 */
const ADMIN_PASSWORD_RESET_TEMPLATE: EmailTemplate = {
  subject: 'Reset admin password',
  actionUrl: '{APP_URL}/_/#/confirm-password-reset/{TOKEN}',
  body: [
    '<p>Hello,</p>',
    '<p>Follow this link to reset your admin password for {APP_NAME}.</p>',
    '<p>',
    '  <a class="btn" href="{ACTION_URL}" target="_blank" rel="noopener">Reset password</a>',
    '  <a class="fallback-link" href="{ACTION_URL}" target="_blank" rel="noopener">{ACTION_URL}</a>',
    '</p>',
    '<p><i>If you did not request to reset your password, please ignore this email and the link will expire on its own.</i></p>',
  ].join('\n'),
  hidden: false,
};

export async function sendAdminPasswordResetMail(settings: Settings, email: string, token: string, intercept?: MailIntercept): Promise<void> {
  const { appName, appUrl } = settings.meta;
  const { subject, body } = resolveTemplate(ADMIN_PASSWORD_RESET_TEMPLATE, escapeHtml(appName), appUrl, token);
  await sendIntercepted(settings, { to: [{ address: email }], subject, html: wrapInLayout(body) }, intercept);
}

/** Sends `message` through the hooks around it (a before-handler may change it, or skip it). */
async function sendIntercepted(settings: Settings, message: MailMessage, intercept?: MailIntercept): Promise<void> {
  const final = intercept ? await intercept.before(message) : message;
  if (!final) return;
  await sendMail(settings, final);
  await intercept?.after(final);
}

export type RecordMailTemplate = 'verification' | 'password-reset' | 'email-change';

const TEMPLATE_KEYS: Record<RecordMailTemplate, keyof Pick<Settings['meta'], 'verificationTemplate' | 'resetPasswordTemplate' | 'confirmEmailChangeTemplate'>> = {
  verification: 'verificationTemplate',
  'password-reset': 'resetPasswordTemplate',
  'email-change': 'confirmEmailChangeTemplate',
};

/** Sends one of the three auth record mails built from the settings templates. */
export async function sendRecordTemplateMail(
  settings: Settings,
  template: RecordMailTemplate,
  to: string,
  token: string,
  intercept?: MailIntercept,
): Promise<void> {
  const { appName, appUrl } = settings.meta;
  const { subject, body } = resolveTemplate(settings.meta[TEMPLATE_KEYS[template]], appName, appUrl, token);
  await sendIntercepted(settings, { to: [{ address: to }], subject, html: body }, intercept);
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

function wrapInLayout(content: string): string {
  return [
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">',
    '<html xmlns="http://www.w3.org/1999/xhtml">',
    '<head>',
    '<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />',
    '<meta name="viewport" content="width=device-width,initial-scale=1" />',
    '<style>',
    'body{padding:20px 30px;margin:0;color:#16161a;background:#fff;font-size:14px;line-height:20px;font-family:Source Sans Pro,sans-serif,emoji}',
    'p{display:block;margin:10px 0}',
    '.fallback-link{display:none !important;word-break:break-all;font-size:11px;color:#666f75}',
    '.btn{display:inline-block;color:#fff !important;background:#16161a !important;text-decoration:none !important;line-height:40px;min-width:150px;text-align:center;padding:0 20px;margin:5px 0;font-weight:bold;border-radius:6px}',
    '</style>',
    '</head>',
    '<body>',
    content,
    '</body>',
    '</html>',
  ].join('\n');
}

/** A readable plain-text part: links become "text (url)", tags go, entities are decoded. */
function htmlToText(html: string): string {
  return html
    .replace(/<(style|head)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<a\b[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, (_m, href: string, text: string) => `${text.trim()} (${href})`)
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
