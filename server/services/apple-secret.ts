// Sign in with Apple's client secret: an ES256 JWT signed with the developer's private key, with
// the team id as issuer, the client (services) id as subject, Apple as audience and at most
// 15777000 s (about 6 months) of validity, as Apple documents it.
import { importPKCS8, SignJWT } from 'jose';

const APPLE_AUDIENCE = 'https://appleid.apple.com';

export interface AppleSecretInput {
  clientId: string;
  teamId: string;
  keyId: string;
  /** PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----"). */
  privateKey: string;
  /** Seconds. */
  duration: number;
}

export async function appleClientSecret(input: AppleSecretInput): Promise<string> {
  let key: Awaited<ReturnType<typeof importPKCS8>>;
  try {
    key = await importPKCS8(input.privateKey, 'ES256');
  } catch {
    throw new Error('The private key is not a valid PKCS#8 EC P-256 key.');
  }
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: input.keyId, typ: 'JWT' })
    .setIssuer(input.teamId)
    .setSubject(input.clientId)
    .setAudience(APPLE_AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + input.duration)
    .sign(key);
}
