// A real S3-compatible server (s3rver) on 127.0.0.1, a free port and a temp directory, with one
// bucket, for tests that must see the app really talk to S3.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tempDir } from './server';

const require = createRequire(import.meta.url);

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverCtor = new (options: Record<string, unknown>) => S3rverInstance;

export interface TestS3 {
  endpoint: string;
  bucket: string;
  region: string;
  /** s3rver's fixed credentials. */
  accessKey: string;
  secret: string;
  close(): Promise<void>;
}

export async function startS3(bucket = 'outpost-test'): Promise<TestS3> {
  const S3rver = require('s3rver') as S3rverCtor;
  const directory = tempDir('outpost-s3-');
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const addr = await server.run();
  return {
    endpoint: `http://127.0.0.1:${addr.port}`,
    bucket,
    region: 'us-east-1',
    accessKey: 'S3RVER',
    secret: 'S3RVER',
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
