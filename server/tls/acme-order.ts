// One certificate from an ACME CA (Let's Encrypt by default) through acme-client: the account (its
// key kept in the autocert cache, registered on first use with the CA's terms accepted, as
// autocert.AcceptTOS does), an order for one domain, a fresh ECDSA P-256 key (autocert's default)
// and the chain the CA returns. The challenges are tried as autocert tries them: TLS-ALPN-01 first
// (answered on the HTTPS address), then, with a new order, HTTP-01 (answered on the HTTP address,
// when there is one). acme-client is loaded only here, when a TLS start first needs it.
import crypto from 'node:crypto';
import tls from 'node:tls';
import { alpnChallengeCertificate } from './alpn-certificate';
import { readAccountKey, writeAccountKey } from './autocert-cache';

export const LETS_ENCRYPT_DIRECTORY = 'https://acme-v02.api.letsencrypt.org/directory';

/** Where the listeners find the answers to the CA's requests while an order waits for it. */
export interface ChallengeAnswers {
  /** HTTP-01: token → key authorization, served by the HTTP listener. */
  http: Map<string, string>;
  /** TLS-ALPN-01: domain → the self-signed acme-tls/1 certificate, served by the HTTPS listener. */
  tlsAlpn: Map<string, tls.SecureContext>;
}

type ChallengeType = 'tls-alpn-01' | 'http-01';

interface IssuedCertificate {
  keyPem: string;
  chainPem: string;
}

/** A new EC P-256 key (PKCS #8 PEM: acme-client reads no other form; autocert reads it too). */
function newKey(): string {
  const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/** A key as acme-client takes it: autocert's cache holds SEC 1 ("EC PRIVATE KEY") or PKCS #1 ones. */
const asPkcs8 = (pem: string) => crypto.createPrivateKey(pem).export({ type: 'pkcs8', format: 'pem' }).toString();

type AcmeModule = typeof import('acme-client');
let acmeModule: Promise<AcmeModule> | null = null;

/** Orders certificates from one CA with one account; orders for several domains may run at once. */
export class AcmeIssuer {
  private client: Promise<InstanceType<AcmeModule['Client']>> | null = null;

  constructor(
    private readonly directoryUrl: string,
    private readonly cacheDir: string,
    private readonly answers: ChallengeAnswers,
    /** Whether an HTTP listener answers HTTP-01 (without one only TLS-ALPN-01 can succeed). */
    private readonly httpChallenges: boolean,
  ) {}

  private async acme(): Promise<AcmeModule> {
    acmeModule ??= import('acme-client');
    return acmeModule;
  }

  private account(): Promise<InstanceType<AcmeModule['Client']>> {
    this.client ??= this.acme().then(async (acme) => {
      const cached = readAccountKey(this.cacheDir);
      const accountKey = cached ? asPkcs8(cached) : newKey();
      if (!cached) writeAccountKey(this.cacheDir, accountKey);
      // a few retries of the CA's transient answers (badNonce is retried by the library itself)
      const client = new acme.Client({ directoryUrl: this.directoryUrl, accountKey, backoffAttempts: 5 });
      try {
        await client.createAccount({ termsOfServiceAgreed: true });
      } catch (err) {
        // a key the CA knows: the library follows with an account update the CA may refuse as
        // empty (pebble does); the account URL it learnt is all an order needs
        try {
          client.getAccountUrl();
        } catch {
          throw err;
        }
      }
      return client;
    });
    // a failed set-up (the module, the key) is tried again at the next order
    this.client.catch(() => (this.client = null));
    return this.client;
  }

  /** A certificate for `domain`, and the challenge that proved it. */
  async issue(domain: string): Promise<IssuedCertificate & { challenge: ChallengeType }> {
    const acme = await this.acme();
    const client = await this.account();
    const keyPem = newKey();
    const [, csr] = await acme.crypto.createCsr({ commonName: domain, altNames: [domain] }, keyPem);
    const types: ChallengeType[] = this.httpChallenges ? ['tls-alpn-01', 'http-01'] : ['tls-alpn-01'];
    const failures: string[] = [];
    // autocert's verifyRFC: each type once, a new order each time (a failed challenge invalidates its order)
    for (let i = 0; i < types.length; i++) {
      const attempt: { type: ChallengeType | null } = { type: null };
      try {
        const chainPem = await client.auto({
          csr,
          termsOfServiceAgreed: true,
          challengePriority: types.slice(i),
          // the CA checks the answer; a self-check from inside would need the public DNS and the ports
          skipChallengeVerification: true,
          challengeCreateFn: async (_authz, challenge, keyAuthorization) => {
            // (acme-client's types list http-01 and dns-01 only)
            const type: string = challenge.type;
            if (type === 'tls-alpn-01') {
              const { keyPem: alpnKey, certPem: alpnCert } = await alpnChallengeCertificate(domain, keyAuthorization);
              this.answers.tlsAlpn.set(domain, tls.createSecureContext({ key: alpnKey, cert: alpnCert }));
            } else if (type === 'http-01' && this.httpChallenges) {
              this.answers.http.set(challenge.token, keyAuthorization);
            } else {
              throw new Error(`the CA offers none of the challenges answered here (${types.join(', ')})`);
            }
            attempt.type = type;
          },
          challengeRemoveFn: async (_authz, challenge) => {
            if ((challenge.type as string) === 'tls-alpn-01') this.answers.tlsAlpn.delete(domain);
            else this.answers.http.delete(challenge.token);
          },
        });
        return { keyPem, chainPem, challenge: attempt.type ?? types[i] };
      } catch (err) {
        // a failure before any challenge (the CA, the account) is not one the next type can mend
        const tried = attempt.type;
        if (!tried) throw err;
        failures.push(`${tried}: ${err instanceof Error ? err.message : String(err)}`);
        // the next pass offers only the types after the one that failed
        i = types.indexOf(tried);
      }
    }
    throw new Error(failures.join('; '));
  }
}
