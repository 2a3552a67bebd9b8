// The certificate a CA's TLS-ALPN-01 validation expects (RFC 8737): self-signed for the one
// domain, with the SHA-256 of the key authorization in the critical acmeIdentifier extension. Made
// here rather than with acme-client's createAlpnCertificate, whose certificate may only sign other
// certificates (keyUsage keyCertSign): OpenSSL finds no TLS 1.2 cipher for such a key. Go's acme
// package marks its own for digital signatures and server authentication, as this one is.
// @peculiar/x509 (acme-client's own) loads only here, when an order first needs it.
import crypto from 'node:crypto';

const ACME_IDENTIFIER_OID = '1.3.6.1.5.5.7.1.31';
const ECDSA_P256 = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const DAY = 86_400_000;

export async function alpnChallengeCertificate(domain: string, keyAuthorization: string): Promise<{ keyPem: string; certPem: string }> {
  const x509 = await import('@peculiar/x509');
  const { subtle } = crypto.webcrypto;
  x509.cryptoProvider.set(crypto.webcrypto as unknown as ReturnType<typeof x509.cryptoProvider.get>);
  const keys = await subtle.generateKey(ECDSA_P256, true, ['sign', 'verify']);
  // DER: an OCTET STRING of the 32 bytes
  const identifier = Buffer.concat([Buffer.from([0x04, 0x20]), crypto.createHash('sha256').update(keyAuthorization).digest()]);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    // positive (a leading 01 byte) and unique
    serialNumber: `01${crypto.randomBytes(15).toString('hex')}`,
    name: [{ CN: [domain] }],
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 7 * DAY),
    keys,
    signingAlgorithm: ECDSA_P256,
    extensions: [
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: domain }]),
      new x509.Extension(ACME_IDENTIFIER_OID, true, identifier),
    ],
  });
  const pkcs8 = Buffer.from(await subtle.exportKey('pkcs8', keys.privateKey));
  const keyPem = crypto.createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({ type: 'pkcs8', format: 'pem' }).toString();
  return { keyPem, certPem: cert.toString('pem') };
}
