// Record files in the S3 bucket of `settings.s3`, as 0.22's filesystem.NewS3 (gocloud.dev's
// s3blob, trimmed) stores them: the object key is the storage key (escaped as s3blob escapes keys),
// Content-Type the file's type, and an upload carries its original name as the user metadata
// `original-filename` (url.PathEscape'd, at most 255 bytes); a thumb carries its original's type
// and no metadata. No temporary objects: a PUT is atomic on S3.
import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { createS3Client, s3Sdk } from './s3';
import type { S3Settings } from './settings';
import type { Storage } from './storage';
import { fileKey, folderKey, guessContentType, keySegments } from './storage-keys';

export interface S3Storage extends Storage {
  /** No new operations will come: the client closes once the running ones (streams included) end. */
  retire(): void;
}

/** A storage that does not answer within this long fails the operation (a GET: until its first byte). */
const ANSWER_TIMEOUT_MS = 30_000;
/** An upload gets longer: its whole body goes within it. */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;
const MAX_ORIGINAL_NAME_BYTES = 255;

/** s3blob's escapeKey: control characters, and the '/' of '../', as `__0x<hex>__`. */
function escapeKey(key: string): string {
  const runes = [...key];
  const escape = (c: string, i: number) => c.codePointAt(0)! < 32 || (i > 1 && c === '/' && runes[i - 1] === '.' && runes[i - 2] === '.');
  return runes.map((c, i) => (escape(c, i) ? `__0x${c.codePointAt(0)!.toString(16)}__` : c)).join('');
}

/** Go's url.PathEscape over the bytes of `value` (s3blob's escape of metadata values). */
function goPathEscape(bytes: Buffer): string {
  let out = '';
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9\-_.~$&+:=@]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const isNotFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
};

export function createS3Storage(cfg: S3Settings): S3Storage {
  const client: S3Client = createS3Client(cfg);
  // the SDK loads here, on first use (./s3.ts): a server that keeps its files on disk never pays for it
  const { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand } = s3Sdk();
  const Bucket = cfg.bucket;
  let running = 0;
  let retired = false;

  const begin = () => {
    running++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--running === 0 && retired) client.destroy();
    };
  };

  /** Runs one request with a deadline for its answer (not for a streamed body read afterwards). */
  async function send<T>(request: (options: { abortSignal: AbortSignal }) => Promise<T>, timeoutMs = ANSWER_TIMEOUT_MS): Promise<T> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    try {
      return await request({ abortSignal: abort.signal });
    } catch (err) {
      if (abort.signal.aborted) throw new Error('The S3 storage did not answer in time.', { cause: err });
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  async function tracked<T>(work: () => Promise<T>): Promise<T> {
    const end = begin();
    try {
      return await work();
    } finally {
      end();
    }
  }

  const objectKey = (key: string) => escapeKey(keySegments(key).join('/'));

  /** `work` on the object of `key`; null for a key that names no file or an object that is not there. */
  async function orNull<T>(key: string, work: (Key: string) => Promise<T>): Promise<T | null> {
    let Key: string;
    try {
      Key = objectKey(key);
    } catch {
      return null;
    }
    try {
      return await work(Key);
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async function putObject(key: string, data: Buffer, contentType: string, metadata?: Record<string, string>): Promise<void> {
    const command = new PutObjectCommand({ Bucket, Key: objectKey(key), Body: data, ContentLength: data.length, ContentType: contentType, Metadata: metadata });
    await send((o) => client.send(command, o), UPLOAD_TIMEOUT_MS);
  }

  async function deleteObject(key: string): Promise<void> {
    const command = new DeleteObjectCommand({ Bucket, Key: objectKey(key) });
    await send((o) => client.send(command, o));
  }

  /** 0.22's DeletePrefix: every object under the prefix, one by one; throws once all were tried when some failed. */
  async function deletePrefix(prefix: string): Promise<void> {
    const failed: unknown[] = [];
    let token: string | undefined;
    do {
      const list = new ListObjectsV2Command({ Bucket, Prefix: escapeKey(prefix), ContinuationToken: token });
      const page = await send((o) => client.send(list, o));
      for (const { Key } of page.Contents ?? []) {
        if (!Key) continue;
        const command = new DeleteObjectCommand({ Bucket, Key });
        await send((o) => client.send(command, o)).catch((err: unknown) => failed.push(err));
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    if (failed.length) throw new Error(`failed to delete the files at ${prefix}`, { cause: failed[0] });
  }

  /** Removes a record's or a collection's folder; segments that are not plain name nothing. */
  function removeFolder(...segments: string[]): Promise<void> {
    let prefix: string;
    try {
      prefix = folderKey(...segments);
    } catch {
      return Promise.resolve();
    }
    return tracked(() => deletePrefix(prefix));
  }

  return {
    kind: 's3',
    retire() {
      retired = true;
      if (running === 0) client.destroy();
    },
    save: (collectionId, recordId, name, data, contentType, originalName) =>
      tracked(() => {
        const metadata = originalName === undefined ? undefined : { 'original-filename': goPathEscape(Buffer.from(originalName, 'utf8').subarray(0, MAX_ORIGINAL_NAME_BYTES)) };
        return putObject(fileKey(collectionId, recordId, name), data, contentType || guessContentType(name), metadata);
      }),
    put: (key, data, contentType) => tracked(() => putObject(key, data, contentType)),
    stat: (key) =>
      tracked(() =>
        orNull(key, async (Key) => {
          const head = await send((o) => client.send(new HeadObjectCommand({ Bucket, Key }), o));
          return { size: head.ContentLength ?? 0, modified: head.LastModified ?? new Date(0), contentType: head.ContentType ?? '' };
        }),
      ),
    async open(key, range) {
      const end = begin();
      try {
        const Range = range ? `bytes=${range.start}-${range.end}` : undefined;
        const command = new GetObjectCommand({ Bucket, Key: objectKey(key), Range });
        const res = await send((o) => client.send(command, o));
        // (in Node the body is an IncomingMessage)
        const body = res.Body as Readable | undefined;
        if (!body) throw new Error(`no body for ${key}`);
        // the client stays open until the body is read or dropped
        body.once('close', end);
        return body;
      } catch (err) {
        end();
        throw err;
      }
    },
    read: (key) =>
      tracked(() =>
        orNull(key, async (Key) => {
          const res = await send((o) => client.send(new GetObjectCommand({ Bucket, Key }), o));
          return res.Body ? Buffer.from(await res.Body.transformToByteArray()) : Buffer.alloc(0);
        }),
      ),
    remove: (collectionId, recordId, name) =>
      tracked(async () => {
        let key: string;
        try {
          key = fileKey(collectionId, recordId, name);
        } catch {
          return;
        }
        await deleteObject(key);
        await deletePrefix(folderKey(collectionId, recordId, `thumbs_${name}`));
      }),
    removeRecord: (collectionId, recordId) => removeFolder(collectionId, recordId),
    removeCollection: (collectionId) => removeFolder(collectionId),
  };
}
