// The nodemailer transport options for the SMTP settings: one place for the API's mails
// (mailer.ts) and the ones hook code sends (server/hooks/worker/namespaces/mail.ts).
import type { Settings } from './settings';

export function smtpTransportOptions(smtp: Settings['smtp']) {
  return {
    host: smtp.host,
    port: smtp.port,
    // tls true = implicit TLS; false = plain connection upgraded with STARTTLS when offered.
    secure: smtp.tls,
    name: smtp.localName || 'localhost',
    auth: smtp.username || smtp.password ? { user: smtp.username, pass: smtp.password } : undefined,
    authMethod: smtp.authMethod === 'LOGIN' ? 'LOGIN' : 'PLAIN',
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  };
}
