// The certificates of `serve <domain>` / `--https`, as autocert.Manager provides them to PocketBase
// 0.22: asked for at the first TLS handshake naming a domain of the host policy (the given domains
// and their www. variants; any other name is refused), kept in memory and in the autocert cache
// (pb_data/.autocert_cache: a restart reuses them), renewed 30 days before they expire. A
// certificate that cannot be obtained fails that handshake with a TLS alert and a log line; the
// next attempt waits a minute, doubling to an hour (the CA limits failed validations).
import crypto from 'node:crypto';
import tls from 'node:tls';
import { domainToASCII } from 'node:url';
import { readCertificate, writeCertificate } from './autocert-cache';
import { AcmeIssuer, type ChallengeAnswers } from './acme-order';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** autocert's RenewBefore default. */
const RENEW_BEFORE_MS = 30 * 24 * HOUR;
/** setTimeout's longest delay: a later renewal is reached in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Entry {
  context: tls.SecureContext;
  notAfter: number;
}

interface CertificatesOptions {
  /** The host policy: certificates are asked for these names only (www. variants included). */
  hostNames: string[];
  /** pb_data/.autocert_cache */
  cacheDir: string;
  /** The ACME directory URL (Let's Encrypt's production one by default). */
  directoryUrl: string;
  /** Whether an HTTP listener answers HTTP-01 challenges (TLS-ALPN-01 is always answered). */
  httpChallenges: boolean;
}

/** A TLS server name as autocert compares it: no trailing dot, lower case, IDNA (punycode). */
export function normalizeHost(name: string): string {
  const trimmed = name.trim().replace(/\.$/, '');
  return trimmed ? domainToASCII(trimmed.toLowerCase()) : '';
}

function entryOf(keyPem: string, chainPem: string): Entry {
  const leaf = new crypto.X509Certificate(chainPem);
  return { context: tls.createSecureContext({ key: keyPem, cert: chainPem }), notAfter: new Date(leaf.validTo).getTime() };
}

let noCertificate: tls.SecureContext | undefined;

/** RFC 8737's ALPN protocol name: a CA validating a TLS-ALPN-01 challenge. */
const ACME_TLS_ALPN = 'acme-tls/1';
const ACME_VALIDATION = Symbol('acme-tls/1 validation');
type AcmeSocket = tls.TLSSocket & { [ACME_VALIDATION]?: true };

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class Certificates {
  /** The challenge answers the listeners serve while an order waits for the CA. */
  readonly answers: ChallengeAnswers = { http: new Map(), tlsAlpn: new Map() };
  private readonly allowed: Set<string>;
  private readonly issuer: AcmeIssuer;
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<Entry>>();
  private readonly failures = new Map<string, { until: number; delayMs: number }>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly refusedLogged = new Set<string>();
  private closed = false;

  constructor(private readonly options: CertificatesOptions) {
    this.allowed = new Set(options.hostNames.map(normalizeHost).filter(Boolean));
    this.issuer = new AcmeIssuer(options.directoryUrl, options.cacheDir, this.answers, options.httpChallenges);
  }

  /** Whether `host` (a Host header's name or a TLS server name) is one the certificates are for. */
  allows(host: string): boolean {
    return this.allowed.has(normalizeHost(host));
  }

  /**
   * tls.createServer's ALPNCallback (`this` is the TLS socket): HTTP/1.1, or acme-tls/1 for a CA
   * validating TLS-ALPN-01 (it offers nothing else), which then gets the challenge's certificate.
   * In TLS 1.3 OpenSSL calls this before the certificate callback (sniCallback reads the mark); in
   * TLS 1.2 after it, so the certificate is replaced here.
   */
  get alpnCallback(): (this: tls.TLSSocket, hello: { servername: string; protocols: string[] }) => string | undefined {
    const answers = this.answers.tlsAlpn;
    return function ({ servername, protocols }) {
      if (protocols.includes(ACME_TLS_ALPN)) {
        (this as AcmeSocket)[ACME_VALIDATION] = true;
        const challenge = answers.get(normalizeHost(servername ?? ''));
        if (challenge) this.setKeyCert(challenge);
        return ACME_TLS_ALPN;
      }
      // another protocol alone (h2) is refused with a TLS alert, as Go refuses it
      return protocols.includes('http/1.1') ? 'http/1.1' : undefined;
    };
  }

  /**
   * tls.createServer's SNICallback (`this` is the TLS socket): the handshake waits for the
   * certificate. Without one it goes on with a context that has no certificate, so OpenSSL ends it
   * with a handshake_failure alert (an error passed to the callback would drop the connection with
   * no alert). A TLS-ALPN-01 validation gets the challenge's certificate; in TLS 1.2 this runs
   * before the ALPN callback, so while a validation is pending for the name the challenge's
   * certificate is the answer (waiting for the order would wait for that validation).
   */
  get sniCallback(): (this: tls.TLSSocket, servername: string, cb: (err: Error | null, ctx?: tls.SecureContext) => void) => void {
    const answers = this.answers.tlsAlpn;
    const contextFor = (name: string) => this.contextFor(name);
    return function (servername, cb) {
      const refuse = () => cb(null, (noCertificate ??= tls.createSecureContext({})));
      const challenge = answers.get(normalizeHost(servername));
      if ((this as AcmeSocket)[ACME_VALIDATION] || (challenge && this.getProtocol() === 'TLSv1.2')) {
        return challenge ? cb(null, challenge) : refuse();
      }
      contextFor(servername).then((ctx) => cb(null, ctx), refuse);
    };
  }

  async contextFor(servername: string): Promise<tls.SecureContext> {
    const name = normalizeHost(servername);
    if (!name) throw new Error('missing server name');
    if (!this.allowed.has(name)) {
      // once per name (scanners try many): the host policy is the answer, not an incident
      if (this.refusedLogged.size < 100 && !this.refusedLogged.has(name)) {
        this.refusedLogged.add(name);
        console.log(`[tls] refused a TLS handshake for "${name}": not one of the served domains (${[...this.allowed].join(', ')})`);
      }
      throw new Error(`acme/autocert: host "${name}" not configured in HostWhitelist`);
    }
    const entry = this.entries.get(name);
    if (entry && Date.now() < entry.notAfter) return entry.context;
    let pending = this.pending.get(name);
    if (!pending) {
      pending = this.load(name).finally(() => this.pending.delete(name));
      this.pending.set(name, pending);
    }
    return (await pending).context;
  }

  /** Stops the renewal timers (an order under way ends on its own). */
  close(): void {
    this.closed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private async load(name: string): Promise<Entry> {
    const cached = readCertificate(this.options.cacheDir, name);
    if (cached) {
      const entry = entryOf(cached.keyPem, cached.chainPem);
      console.log(`[tls] using the cached certificate for ${name} (valid until ${cached.notAfter.toISOString()})`);
      this.keep(name, entry);
      return entry;
    }
    const failure = this.failures.get(name);
    if (failure && Date.now() < failure.until) {
      throw new Error(`no certificate for ${name}: the last attempt failed; the next one is after ${new Date(failure.until).toISOString()}`);
    }
    try {
      const entry = await this.obtain(name);
      this.failures.delete(name);
      return entry;
    } catch (err) {
      const delayMs = failure ? Math.min(failure.delayMs * 2, HOUR) : MINUTE;
      this.failures.set(name, { until: Date.now() + delayMs, delayMs });
      console.error(
        `[tls] could not obtain a certificate for ${name} from ${this.options.directoryUrl}: ${errorText(err)}. ` +
          `TLS handshakes for ${name} fail until one is obtained (next attempt in ${delayMs / 1000} s at the earliest).`,
      );
      throw err;
    }
  }

  private async obtain(name: string): Promise<Entry> {
    const challenges = this.options.httpChallenges ? 'TLS-ALPN-01 on the HTTPS address, then HTTP-01 on the HTTP address' : 'TLS-ALPN-01 on the HTTPS address';
    console.log(`[tls] asking ${this.options.directoryUrl} for a certificate for ${name} (${challenges})`);
    const issued = await this.issuer.issue(name);
    writeCertificate(this.options.cacheDir, name, issued.keyPem, issued.chainPem);
    const entry = entryOf(issued.keyPem, issued.chainPem);
    console.log(`[tls] obtained a certificate for ${name} with ${issued.challenge} (valid until ${new Date(entry.notAfter).toISOString()})`);
    this.keep(name, entry);
    return entry;
  }

  /** Serves `entry` for `name` and schedules its renewal (autocert: 30 days before, with up to an hour of jitter). */
  private keep(name: string, entry: Entry): void {
    this.entries.set(name, entry);
    const due = entry.notAfter - RENEW_BEFORE_MS - Math.floor(Math.random() * HOUR);
    this.renewAt(name, due);
  }

  private renewAt(name: string, at: number): void {
    if (this.closed) return;
    clearTimeout(this.timers.get(name));
    const delay = Math.max(0, at - Date.now());
    const timer = setTimeout(() => (delay > MAX_TIMER_MS ? this.renewAt(name, at) : void this.renew(name)), Math.min(delay, MAX_TIMER_MS));
    // a pending renewal never keeps the process alive
    timer.unref();
    this.timers.set(name, timer);
  }

  private async renew(name: string): Promise<void> {
    if (this.closed) return;
    const current = this.entries.get(name);
    console.log(`[tls] renewing the certificate for ${name}${current ? ` (expires ${new Date(current.notAfter).toISOString()})` : ''}`);
    try {
      await this.obtain(name);
    } catch (err) {
      // the current certificate keeps serving while it is valid; the next try is in an hour
      console.error(`[tls] could not renew the certificate for ${name}: ${errorText(err)} (next attempt in an hour)`);
      this.renewAt(name, Date.now() + HOUR);
    }
  }
}
