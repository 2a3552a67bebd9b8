// One certificate from an ACME CA (Let's Encrypt by default) with the HTTP-01 challenge, through
// acme-client: the account (its key kept in the autocert cache, registered on first use with the
// CA's terms accepted, as autocert.AcceptTOS does), an order for one domain, the challenge's answer
// published where the HTTP listener serves it, a fresh ECDSA P-256 key (autocert's default) and the
// chain the CA returns. acme-client is loaded only here, when a TLS start first needs it.
import crypto from 'node:crypto';
import { readAccountKey, writeAccountKey } from './autocert-cache';

export const LETS_ENCRYPT_DIRECTORY = 'https://acme-v02.api.letsencrypt.org/directory';

/** Where the HTTP listener finds the answers to the CA's HTTP-01 requests (token → key authorization). */
export type ChallengeAnswers = Map<string, string>;

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

  async issue(domain: string): Promise<IssuedCertificate> {
    const acme = await this.acme();
    const client = await this.account();
    const keyPem = newKey();
    const [, csr] = await acme.crypto.createCsr({ commonName: domain, altNames: [domain] }, keyPem);
    const chainPem = await client.auto({
      csr,
      termsOfServiceAgreed: true,
      challengePriority: ['http-01'],
      // the CA checks the answer; a self-check from inside would need the public DNS and port 80
      skipChallengeVerification: true,
      challengeCreateFn: async (_authz, challenge, keyAuthorization) => {
        this.answers.set(challenge.token, keyAuthorization);
      },
      challengeRemoveFn: async (_authz, challenge) => {
        this.answers.delete(challenge.token);
      },
    });
    return { keyPem, chainPem };
  }
}
