// The listeners of `serve <domain>` / `--https` (PocketBase 0.22's apis/serve.go): the app served
// over TLS on the HTTPS address with certificates from ACME (server/tls/; the CA's TLS-ALPN-01
// validations answered there, on ALPN acme-tls/1), and on the HTTP address
// only autocert's HTTPHandler(nil): the CA's HTTP-01 requests answered, every GET/HEAD redirected to
// HTTPS (302, the port replaced by 443 as autocert's stripPort does), anything else "Use HTTPS"
// (400). As in 0.22 a www. variant of each domain is covered by the certificates and redirected
// (307) to the bare domain. Beyond 0.22: HSTS on every HTTPS answer (0.22's Secure middleware sets no
// HSTSMaxAge); a TLS answer is HTTP/1.1 (0.22 also offers h2).
import http from 'node:http';
import https from 'node:https';
import { Certificates, normalizeHost } from '../tls/certificates';
import { clientErrorHandler, MAX_HEADER_BYTES } from './client-errors';

/** A year: browsers then keep to HTTPS for this host; subdomains are not claimed (they may be served elsewhere). */
const HSTS = 'max-age=31536000';

const CHALLENGE_PREFIX = '/.well-known/acme-challenge/';

/** What the listeners need of the app (server/app.ts). */
interface Served {
  /** The app's request listener. */
  handle(req: http.IncomingMessage, res: http.ServerResponse): void;
  /** Closes and drains `server` with the app. */
  adopt(server: http.Server | https.Server): void;
}

interface Address {
  host: string;
  port: number;
}

interface TlsPlan {
  https: Address;
  /** null: no HTTP listener (0.22 always has one: the defaults fill it in). */
  http: Address | null;
  /** The certificates' host policy: the domains and their www. variants. */
  hostNames: string[];
  /** www. names redirected to their bare domain. */
  wwwRedirects: string[];
  cacheDir: string;
  directoryUrl: string;
}

/** Go's net.SplitHostPort/JoinHostPort as stripPort uses them: the Host header's name, and host:443 when it named a port. */
function splitHost(hostHeader: string): { name: string; port: string | null } {
  const m = /^(\[[^\]]*\]|[^:]*):(\d*)$/.exec(hostHeader);
  return m ? { name: m[1], port: m[2] } : { name: hostHeader, port: null };
}

function plainError(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  res.end(`${message}\n`);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** autocert.Manager.HTTPHandler(nil): challenge answers, else the way to HTTPS. */
function challengeOrRedirect(certs: Certificates): http.RequestListener {
  return (req, res) => {
    const url = req.url ?? '/';
    const pathname = url.split('?')[0];
    const host = req.headers.host ?? '';
    if (!pathname.startsWith(CHALLENGE_PREFIX)) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return plainError(res, 400, 'Use HTTPS');
      const { name, port } = splitHost(host);
      const target = `https://${port === null ? host : `${name}:443`}${url}`;
      res.writeHead(302, { Location: target, 'Content-Type': 'text/html; charset=utf-8' });
      return void res.end(req.method === 'GET' ? `<a href="${escapeHtml(target)}">Found</a>.\n\n` : undefined);
    }
    // (the CA asks on port 80, with no port in Host; a test CA may name one)
    const name = splitHost(host).name;
    if (!certs.allows(name)) return plainError(res, 403, `acme/autocert: host "${name}" not configured in HostWhitelist`);
    const answer = certs.answers.http.get(pathname.slice(CHALLENGE_PREFIX.length));
    if (answer === undefined) return plainError(res, 404, 'acme/autocert: certificate cache miss');
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(answer);
  };
}

function listen(server: http.Server | https.Server, at: Address): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: at.host, port: at.port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Starts both listeners; rejects (nothing left listening) when an address cannot be bound. */
export async function listenTls(app: Served, plan: TlsPlan): Promise<Certificates> {
  const certs = new Certificates({ hostNames: plan.hostNames, cacheDir: plan.cacheDir, directoryUrl: plan.directoryUrl, httpChallenges: plan.http !== null });
  const www = new Set(plan.wwwRedirects.map(normalizeHost));
  const secure = https.createServer({ SNICallback: certs.sniCallback, ALPNCallback: certs.alpnCallback, minVersion: 'TLSv1.2', maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    res.setHeader('Strict-Transport-Security', HSTS);
    const host = req.headers.host ?? '';
    if (host.toLowerCase().startsWith('www.') && www.has(normalizeHost(splitHost(host).name))) {
      res.writeHead(307, { Location: `https://${host.slice(4)}${req.url ?? '/'}` });
      return void res.end();
    }
    app.handle(req, res);
  });
  secure.on('clientError', clientErrorHandler);
  const plain = plan.http ? http.createServer(challengeOrRedirect(certs)) : null;
  try {
    if (plain && plan.http) await listen(plain, plan.http);
    await listen(secure, plan.https);
  } catch (err) {
    plain?.close();
    certs.close();
    throw err;
  }
  app.adopt(secure);
  if (plain) app.adopt(plain);
  return certs;
}
