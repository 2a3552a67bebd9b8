// Record files on this disk, in 0.22's local layout: pb_data/storage/{key}, each blob with a
// `{filename}.attrs` JSON sidecar in the gocloud.dev fileblob format 0.22 writes (user.content_type,
// md5, ...). Every path is built from checked segments and verified to stay inside the storage
// root, so '../', separators and NUL bytes can never reach the file system.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { writeBlobFile } from './blob-file';
import type { Storage } from './storage';
import { fileKey, folderKey, guessContentType, keySegments } from './storage-keys';

export const localStorageRoot = (dataDir: string) => path.resolve(dataDir, 'storage');

export function createLocalStorage(dataDir: string): Storage {
  const root = localStorageRoot(dataDir);

  /** The path of a key inside the root; throws for anything else. */
  function pathOf(key: string): string {
    const p = path.join(root, ...keySegments(key.replace(/\/$/, '')));
    const rel = path.relative(root, p);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) throw new Error(`Invalid storage path: ${JSON.stringify(key)}`);
    return p;
  }

  /** pathOf, or null for a key that is not one. */
  function maybePath(key: string): string | null {
    try {
      return pathOf(key);
    } catch {
      return null;
    }
  }

  async function write(p: string, data: Buffer, contentType: string, metadata: Record<string, string> | null): Promise<void> {
    await fsp.mkdir(path.dirname(p), { recursive: true });
    await writeBlobFile(p, data, contentType, metadata);
  }

  async function removeFolder(...segments: string[]): Promise<void> {
    let dir: string;
    try {
      dir = pathOf(folderKey(...segments));
    } catch {
      return;
    }
    await fsp.rm(dir, { recursive: true, force: true });
  }

  return {
    kind: 'local',
    async save(collectionId, recordId, name, data, contentType, originalName) {
      const p = pathOf(fileKey(collectionId, recordId, name));
      await write(p, data, contentType || guessContentType(name), originalName ? { 'original-filename': originalName } : null);
    },
    async put(key, data, contentType) {
      await write(pathOf(key), data, contentType, null);
    },
    async stat(key) {
      const p = maybePath(key);
      if (!p) return null;
      let st: fs.Stats;
      try {
        st = await fsp.stat(p);
      } catch {
        return null;
      }
      if (!st.isFile()) return null;
      let contentType = '';
      try {
        const attrs = JSON.parse(await fsp.readFile(p + '.attrs', 'utf8')) as Record<string, unknown>;
        if (typeof attrs['user.content_type'] === 'string') contentType = attrs['user.content_type'];
      } catch {
        // no sidecar (a file put there by hand)
      }
      return { size: st.size, modified: st.mtime, contentType };
    },
    async open(key, range) {
      return fs.createReadStream(pathOf(key), range);
    },
    async read(key) {
      const p = maybePath(key);
      if (!p) return null;
      try {
        return await fsp.readFile(p);
      } catch {
        return null;
      }
    },
    async remove(collectionId, recordId, name) {
      let p: string;
      try {
        p = pathOf(fileKey(collectionId, recordId, name));
      } catch {
        return;
      }
      await fsp.rm(p, { force: true });
      await fsp.rm(p + '.attrs', { force: true });
      await fsp.rm(path.join(path.dirname(p), 'thumbs_' + name), { recursive: true, force: true });
    },
    removeRecord: (collectionId, recordId) => removeFolder(collectionId, recordId),
    removeCollection: (collectionId) => removeFolder(collectionId),
  };
}
