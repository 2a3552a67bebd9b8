// `new MailerMessage({from, to, cc, bcc, subject, html, text, headers, attachments})` and
// `$app.newMailClient().send(message)`: 0.22's mailer.SmtpClient over the app's SMTP settings,
// synchronous for the handler (nodemailer runs in the executor's helper thread, ../sync-io.ts).
// As 0.22: a plain-text part made from the HTML when there is no text, a Message-ID of the
// sender's domain unless a header gives one, an error thrown when the server refuses the mail.
// Outpost has no sendmail fallback: with SMTP off, send() throws and says so.
import { randomString } from '../../../services/passwords';
import type { BlockingIo } from '../sync-io';
import { castToString } from './form-data';
import { smtpTransportOptions } from '../../../services/smtp-transport';
import type { Settings } from '../../../services/settings';

type Call = (method: string, args: unknown[]) => unknown;

interface Address {
  address: string;
  name: string;
}

/** A mail.Address from {address, name} (or a bare address string). */
function addressOf(value: unknown): Address {
  if (typeof value === 'string') return { address: value, name: '' };
  const v = (value ?? {}) as { address?: unknown; name?: unknown; Address?: unknown; Name?: unknown };
  return { address: castToString(v.address ?? v.Address), name: castToString(v.name ?? v.Name) };
}

const addresses = (value: unknown): Address[] => (Array.isArray(value) ? value.map(addressOf) : []);

export class MailerMessage {
  from: Address = { address: '', name: '' };
  to: Address[] = [];
  bcc: Address[] = [];
  cc: Address[] = [];
  subject = '';
  html = '';
  text = '';
  headers: Record<string, string> = {};
  attachments: Record<string, unknown> | null = null;

  constructor(data?: unknown) {
    if (data && typeof data === 'object') Object.assign(this, data);
  }
}

const SKIPPED = 'style|script|iframe|applet|object|svg|img|button|form|textarea|input|select|option|template|head|title';
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', '#39': "'" };
const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return ENTITIES[e.toLowerCase()] ?? m;
  });

/** 0.22's html2Text, roughly: links as [text](href), list items with "- ", blocks on new lines. */
function htmlToText(html: string): string {
  return decode(
    html
      .replace(new RegExp(`<(${SKIPPED})\\b[^>]*>[\\s\\S]*?</\\1\\s*>`, 'gi'), '')
      .replace(/<(img|input)\b[^>]*>/gi, '')
      .replace(/<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi, (_m, attrs: string, text: string) => {
        const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attrs);
        const url = href ? (href[1] ?? href[2] ?? href[3]) : '';
        const label = text.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim() || 'LINK';
        return `[${label}]${url ? `(${url})` : ''}`;
      })
      .replace(/\s+/g, ' ')
      .replace(/<br\s*\/?>\s*/gi, '\r\n')
      .replace(/\s*<li\b[^>]*>\s*/gi, '\r\n- ')
      .replace(/\s*<\/?(p|div|h[1-6]|ul|ol|table|tr|td|th|blockquote|pre|section|header|footer|body|html)\b[^>]*>\s*/gi, '\r\n')
      .replace(/<[^>]+>/g, '')
      .replace(/(\r\n){2,}/g, '\r\n')
      .replace(/\r\n /g, '\r\n'),
  ).trim();
}

/** An attachment's bytes: text, bytes, or a list of byte values. */
function contentOf(value: unknown): Buffer {
  if (value instanceof Uint8Array) return Buffer.from(value);
  if (Array.isArray(value)) return Buffer.from(value.map(Number));
  return Buffer.from(castToString(value));
}

type SmtpSettings = Settings['smtp'];

/** How long a send may take (nodemailer's own timeouts end it sooner). */
const SEND_TIMEOUT_MS = 150_000;

function send(io: BlockingIo, call: Call, raw: unknown): void {
  const m = raw instanceof MailerMessage ? raw : new MailerMessage(raw);
  const smtp = ((call('settings', []) as { smtp?: SmtpSettings }).smtp ?? {}) as SmtpSettings;
  if (!smtp.enabled) throw new Error('Cannot send the email because SMTP is disabled in the mail settings (Outpost has no sendmail fallback).');
  const from = addressOf(m.from);
  const html = castToString(m.html);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(m.headers ?? {})) headers[k] = castToString(v);
  const domain = from.address.split('@');
  if (!Object.keys(headers).some((k) => k.toLowerCase() === 'message-id') && domain.length === 2) {
    headers['Message-ID'] = `<${randomString(15)}@${domain[1]}>`;
  }
  const list = (a: Address[]) => a.map((x) => (x.name ? { name: x.name, address: x.address } : x.address));
  io.mail(
    {
      transport: smtpTransportOptions(smtp),
      message: {
        from: from.name ? { name: from.name, address: from.address } : from.address,
        to: list(addresses(m.to)),
        cc: list(addresses(m.cc)),
        bcc: list(addresses(m.bcc)),
        subject: castToString(m.subject),
        html,
        text: castToString(m.text) || htmlToText(html),
        headers,
        attachments: Object.entries(m.attachments ?? {}).map(([filename, content]) => ({ filename, content: contentOf(content).toString('base64'), encoding: 'base64' })),
      },
    },
    SEND_TIMEOUT_MS,
  );
}

/** `$app.newMailClient()`: 0.22's mailer.Mailer with its one method. */
export function mailClient(io: BlockingIo, call: Call): object {
  return { send: (message: unknown) => send(io, call, message) };
}
