// Record file storage: pb_data/storage/{collectionId}/{recordId}/{filename}, each blob with a
// `{filename}.attrs` JSON sidecar in the gocloud.dev fileblob format PocketBase 0.22 writes
// (user.content_type, md5, ...), thumbs in `thumbs_{filename}/{size}_{filename}`.
// Every path is built from checked components and verified to stay inside the storage root, so
// '../', separators and NUL bytes can never reach the file system. S3 comes later behind the same
// interface.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../context';
import { writeBlobFile } from './blob-file';

interface FileStat {
  size: number;
  contentType: string;
}

export interface Storage {
  /** Writes a blob and its .attrs sidecar, atomically: a failed write leaves nothing behind. */
  save(
    collectionId: string,
    recordId: string,
    name: string,
    data: Buffer,
    contentType: string,
    originalName?: string,
  ): Promise<void>;
  /** The blob, or null when it does not exist. */
  read(collectionId: string, recordId: string, name: string): Promise<Buffer | null>;
  /** Size and content type (from the sidecar, else guessed from the extension), or null. */
  stat(collectionId: string, recordId: string, name: string): Promise<FileStat | null>;
  /** The absolute path of a blob; throws StoragePathError for unsafe components. */
  path(collectionId: string, recordId: string, name: string): string;
  /** Removes a blob, its sidecar and its thumbs; missing files are fine. */
  remove(collectionId: string, recordId: string, name: string): Promise<void>;
  /** Removes a record's whole folder. */
  removeRecord(collectionId: string, recordId: string): Promise<void>;
  /** Removes a collection's whole folder. */
  removeCollection(collectionId: string): Promise<void>;
  /** The absolute path of a thumb: {record}/thumbs_{name}/{size}_{name}. */
  thumbPath(collectionId: string, recordId: string, name: string, size: string): string;
  /** The storage root (pb_data/storage). */
  readonly root: string;
}

class StoragePathError extends Error {
  constructor(component: string) {
    super(`Invalid storage path component: ${JSON.stringify(component)}`);
  }
}

/** A single path segment that is safe on every platform: no separators, NUL, or dot names. */
export function isSafeSegment(s: string): boolean {
  if (typeof s !== 'string' || s === '' || s.length > 255) return false;
  if (s === '.' || s === '..') return false;
  // eslint-disable-next-line no-control-regex
  return !/[/\\\u0000-\u001f:]/.test(s);
}

function check(s: string): string {
  if (!isSafeSegment(s)) throw new StoragePathError(s);
  return s;
}

const EXT_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json',
  '.pdf': 'application/pdf',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mp4': 'video/mp4',
  '.mp3': 'audio/mpeg',
  '.zip': 'application/zip',
};

function guessContentType(name: string): string {
  return EXT_TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
}

function createLocalStorage(dataDir: string): Storage {
  const root = path.resolve(dataDir, 'storage');

  function inside(p: string): string {
    const rel = path.relative(root, p);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) throw new StoragePathError(p);
    return p;
  }

  function recordDir(collectionId: string, recordId: string): string {
    return inside(path.join(root, check(collectionId), check(recordId)));
  }

  function blobPath(collectionId: string, recordId: string, name: string): string {
    return inside(path.join(recordDir(collectionId, recordId), check(name)));
  }

  async function readAttrs(p: string): Promise<Record<string, unknown> | null> {
    try {
      return JSON.parse(await fsp.readFile(p + '.attrs', 'utf8')) as Record<string, unknown>;
    } catch {
      return null;
    }
  }

  return {
    root,
    path: blobPath,
    thumbPath(collectionId, recordId, name, size) {
      const dir = path.join(recordDir(collectionId, recordId), 'thumbs_' + check(name));
      return inside(path.join(dir, check(`${size}_${name}`)));
    },
    async save(collectionId, recordId, name, data, contentType, originalName) {
      const p = blobPath(collectionId, recordId, name);
      await fsp.mkdir(path.dirname(p), { recursive: true });
      await writeBlobFile(p, data, contentType || guessContentType(name), originalName ? { 'original-filename': originalName } : null);
    },
    async read(collectionId, recordId, name) {
      let p: string;
      try {
        p = blobPath(collectionId, recordId, name);
      } catch {
        return null;
      }
      try {
        return await fsp.readFile(p);
      } catch {
        return null;
      }
    },
    async stat(collectionId, recordId, name) {
      let p: string;
      try {
        p = blobPath(collectionId, recordId, name);
      } catch {
        return null;
      }
      let st: fs.Stats;
      try {
        st = await fsp.stat(p);
      } catch {
        return null;
      }
      if (!st.isFile()) return null;
      const attrs = await readAttrs(p);
      const ct = attrs && typeof attrs['user.content_type'] === 'string' ? attrs['user.content_type'] : '';
      return { size: st.size, contentType: ct || guessContentType(name) };
    },
    async remove(collectionId, recordId, name) {
      let p: string;
      try {
        p = blobPath(collectionId, recordId, name);
      } catch {
        return;
      }
      await fsp.rm(p, { force: true });
      await fsp.rm(p + '.attrs', { force: true });
      await fsp.rm(path.join(path.dirname(p), 'thumbs_' + name), { recursive: true, force: true });
    },
    async removeRecord(collectionId, recordId) {
      let dir: string;
      try {
        dir = recordDir(collectionId, recordId);
      } catch {
        return;
      }
      await fsp.rm(dir, { recursive: true, force: true });
    },
    async removeCollection(collectionId) {
      let dir: string;
      try {
        dir = inside(path.join(root, check(collectionId)));
      } catch {
        return;
      }
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}

const instances = new WeakMap<AppContext, Storage>();

/** The app's storage (one per context). */
export function getStorage(ctx: AppContext): Storage {
  let s = instances.get(ctx);
  if (!s) {
    s = createLocalStorage(ctx.dataDir);
    instances.set(ctx, s);
  }
  return s;
}
