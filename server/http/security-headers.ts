// The headers of echo's Secure middleware, which PocketBase 0.22 puts on every response, plus a
// strict Content-Security-Policy for the dashboard (/_/): no inline script and no eval (validators
// are compiled at build time); inline styles are allowed because the charts, the code editor and
// React's style props set style attributes; images and media may be blob:/data: (file previews,
// thumbnails of files not uploaded yet), and images in rich-text content may live on any https
// host. File downloads set their own sandboxing CSP and may be framed (files.ts). Beyond 0.22:
// Referrer-Policy on every answer (no full dashboard URL with record ids and filters leaks to
// another origin). HSTS is sent by the TLS listener of `serve --https` (tls-listeners.ts) only; behind
// a TLS-terminating proxy, the proxy sends it.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { setResponseHeader } from './response-headers';

const SECURE_HEADERS: Readonly<Record<string, string>> = {
  'X-XSS-Protection': '1; mode=block',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'SAMEORIGIN',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
};

export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "media-src 'self' blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (req, reply, done) => {
    for (const [name, value] of Object.entries(SECURE_HEADERS)) setResponseHeader(reply, name, value);
    if (req.url === '/_' || req.url.startsWith('/_/')) setResponseHeader(reply, 'Content-Security-Policy', DASHBOARD_CSP);
    done();
  });
}

/**
 * Lets the response be framed: 0.22 drops X-Frame-Options when it serves a stored file (clickjacking
 * is no concern there, and PDFs and images should embed); every other answer keeps it.
 */
export function allowFraming(reply: FastifyReply): void {
  reply.removeHeader('X-Frame-Options');
  reply.raw.removeHeader('X-Frame-Options');
}
