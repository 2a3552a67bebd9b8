// A connection check against the configured S3-compatible storage (POST /api/settings/test/s3):
// lists at most one object of the bucket, which needs the endpoint, the credentials and the bucket
// to be right, and reports the storage's own error message when they are not.
import { createRequire } from 'node:module';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from './settings';

// The SDK is required on first use (through node_modules, outside the server bundle): it is large
// and most servers never talk to S3, so it must not weigh on the cold start.
const requireAtRuntime = createRequire(import.meta.url);
export const s3Sdk = () => requireAtRuntime('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');

/** The client for an S3 config (shared with the storage code once files go to S3). */
export function createS3Client(cfg: S3Settings): S3Client {
  const endpoint = cfg.endpoint && !/^[a-z][a-z0-9+.-]*:\/\//i.test(cfg.endpoint) ? `https://${cfg.endpoint}` : cfg.endpoint;
  return new (s3Sdk().S3Client)({
    endpoint: endpoint || undefined,
    region: cfg.region || 'us-east-1',
    forcePathStyle: cfg.forcePathStyle,
    credentials: { accessKeyId: cfg.accessKey, secretAccessKey: cfg.secret },
    // Checksums only when an operation requires them: S3-compatible servers (MinIO, s3rver, older
    // Ceph) reject or mangle the newer default ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 1,
  });
}

/** Resolves when the bucket can be listed; rejects with the storage's error otherwise. */
export async function testS3Connection(cfg: S3Settings, timeoutMs = 25_000): Promise<void> {
  const client = createS3Client(cfg);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    await client.send(new (s3Sdk().ListObjectsV2Command)({ Bucket: cfg.bucket, MaxKeys: 1 }), { abortSignal: abort.signal });
  } catch (err) {
    if (abort.signal.aborted) throw new Error('The S3 storage did not answer in time.');
    throw err;
  } finally {
    clearTimeout(timer);
    client.destroy();
  }
}

/** The message of an S3 SDK error: the storage's own message, else the error name or status. */
export function s3ErrorMessage(err: unknown): string {
  if (err instanceof Error) {
    const meta = (err as { $metadata?: { httpStatusCode?: number } }).$metadata;
    const msg = err.message && err.message !== 'UnknownError' ? err.message : '';
    if (msg) return msg;
    return [err.name, meta?.httpStatusCode ? `(status ${meta.httpStatusCode})` : ''].filter(Boolean).join(' ');
  }
  return String(err);
}
