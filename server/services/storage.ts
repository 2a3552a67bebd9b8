// Record file storage, where the settings say (PocketBase 0.22's app.NewFilesystem, asked for
// anew by every use): pb_data/storage (./storage-local.ts) or, while `settings.s3.enabled`, the
// S3 bucket (./storage-s3.ts), both under 0.22's keys (./storage-keys.ts). A saved setting takes
// effect with the next request; files already stored stay where they are (0.22 moves none).
import type { Readable } from 'node:stream';
import type { AppContext } from '../context';
import type { S3Settings } from './settings';
import { createLocalStorage } from './storage-local';
import { createS3Storage, type S3Storage } from './storage-s3';

export { isSafeSegment } from './storage-keys';

export interface StoredFile {
  size: number;
  modified: Date;
  /** The type stored with the file; '' when none was (a file put in pb_data/storage by hand). */
  contentType: string;
}

export interface Storage {
  readonly kind: 'local' | 's3';
  /** Stores a record's file with its type (and original name), replacing one of that name; a failed write leaves nothing behind. */
  save(collectionId: string, recordId: string, name: string, data: Buffer, contentType: string, originalName?: string): Promise<void>;
  /** Stores `data` at `key` with its type (thumbs). */
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** Size, date and stored type of the file at `key`; null when there is none (or the key is not one). Rejects when the storage fails. */
  stat(key: string): Promise<StoredFile | null>;
  /** The bytes of the file at `key`, or those of `range` (inclusive). Rejects when it is missing. */
  open(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** The whole file at `key`, or null when there is none. */
  read(key: string): Promise<Buffer | null>;
  /** Removes a record's file and its thumbs; a missing file is fine. */
  remove(collectionId: string, recordId: string, name: string): Promise<void>;
  /** Removes every file of a record. */
  removeRecord(collectionId: string, recordId: string): Promise<void>;
  /** Removes every file of a collection. */
  removeCollection(collectionId: string): Promise<void>;
}

const locals = new WeakMap<AppContext, Storage>();
const remotes = new WeakMap<AppContext, { config: string; storage: S3Storage }>();

const configOf = (s3: S3Settings) => JSON.stringify([s3.bucket, s3.region, s3.endpoint, s3.accessKey, s3.secret, s3.forcePathStyle]);

/** The storage the settings name now: ask for it per operation, never keep it. */
export function getStorage(ctx: AppContext): Storage {
  const s3 = ctx.settings.get().s3;
  if (s3?.enabled) {
    // one client per configuration: a changed one is retired once its operations have ended
    const config = configOf(s3);
    const current = remotes.get(ctx);
    if (current?.config === config) return current.storage;
    if (!current) ctx.onClose.push(() => remotes.get(ctx)?.storage.retire());
    current?.storage.retire();
    const storage = createS3Storage(s3);
    remotes.set(ctx, { config, storage });
    return storage;
  }
  let local = locals.get(ctx);
  if (!local) {
    local = createLocalStorage(ctx.dataDir);
    locals.set(ctx, local);
  }
  return local;
}

/** The local storage folder (pb_data/storage), whichever backend the settings name. */
export { localStorageRoot } from './storage-local';
