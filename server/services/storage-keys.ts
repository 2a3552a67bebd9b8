// Storage keys of record files, as PocketBase 0.22 names them on every backend:
// `{collectionId}/{recordId}/{filename}` and its thumbs `{collectionId}/{recordId}/thumbs_{filename}/{size}_{filename}`.
// A key is only ever built from, or accepted as, plain segments (no separators, NUL, control
// characters or dot names), so neither a local path nor an S3 key can address another place.
import path from 'node:path';

class StorageKeyError extends Error {
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
  if (!isSafeSegment(s)) throw new StorageKeyError(s);
  return s;
}

/** The key of a record's file; throws for unsafe components. */
export const fileKey = (collectionId: string, recordId: string, name: string): string =>
  `${check(collectionId)}/${check(recordId)}/${check(name)}`;

/** The key of a thumb of a record's file; throws for unsafe components. */
export const thumbKey = (collectionId: string, recordId: string, name: string, size: string): string =>
  `${check(collectionId)}/${check(recordId)}/thumbs_${check(name)}/${check(`${size}_${name}`)}`;

/** The folder (key prefix, with its trailing slash) of a record's files, or of a collection's. */
export const folderKey = (...segments: string[]): string => `${segments.map(check).join('/')}/`;

/** A key given from outside (a hook's servedPath): normalised when every segment is plain, else null. */
export function checkedKey(key: string): string | null {
  const segments = key.split('/').filter((s) => s !== '');
  if (segments.length === 0 || !segments.every(isSafeSegment)) return null;
  return segments.join('/');
}

/** The segments of a key, checked again (each backend's last line of defence). */
export function keySegments(key: string): string[] {
  const segments = key.split('/');
  segments.forEach(check);
  return segments;
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

/** The type a file without a stated one is stored with (by its extension). */
export function guessContentType(name: string): string {
  return EXT_TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
}
