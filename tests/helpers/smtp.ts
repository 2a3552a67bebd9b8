// A real SMTP server on 127.0.0.1 and a free port that keeps every message it receives, for
// tests that must see a mail actually leave the app.
import { SMTPServer } from 'smtp-server';

interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** The decoded HTML part. */
  html: string;
}

export interface TestSmtp {
  port: number;
  mails: ReceivedMail[];
  /** Resolves with the next mail matching `predicate` (waits up to `timeoutMs`). */
  waitFor(predicate?: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** `delayMs`: how long the server takes to accept each message (a slow mail server). */
export async function startSmtp(opts: { delayMs?: number } = {}): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    // Plain SMTP without auth: the app's default (tls false) then sends without STARTTLS.
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject: decodeHeader(/^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(raw)?.[1] ?? ''),
          html: htmlPart(raw),
        });
        if (opts.delayMs) setTimeout(() => callback(), opts.delayMs);
        else callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const addr = server.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;

  return {
    port,
    mails,
    async waitFor(predicate = () => true, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = mails.find(predicate);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('No matching mail arrived in time.');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function decodeHeader(value: string): string {
  return value
    .replace(/\r\n[ \t]/g, ' ')
    .replace(/=\?utf-8\?Q\?([^?]*)\?=/gi, (_m, q: string) => decodeQuotedPrintable(q.replace(/_/g, ' ')))
    .replace(/=\?utf-8\?B\?([^?]*)\?=/gi, (_m, b: string) => Buffer.from(b, 'base64').toString('utf8'))
    .replace(/\?=\s+=\?/g, '');
}

function decodeQuotedPrintable(s: string): string {
  const bytes = s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The text/html part of a (possibly multipart) message, transfer-decoded. */
function htmlPart(raw: string): string {
  const parts = raw.split(/\r\n--[^\r\n]+\r\n/);
  for (const part of parts) {
    const [head, ...rest] = part.split('\r\n\r\n');
    if (!/content-type:\s*text\/html/i.test(head)) continue;
    const body = rest.join('\r\n\r\n').replace(/\r\n--[^\r\n]+--\s*$/, '');
    if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) return decodeQuotedPrintable(body);
    if (/content-transfer-encoding:\s*base64/i.test(head)) return Buffer.from(body, 'base64').toString('utf8');
    return body;
  }
  return '';
}
