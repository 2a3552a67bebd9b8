// `$filesystem` as 0.22 binds tools/filesystem: fileFromPath, fileFromBytes, fileFromMultipart and
// fileFromUrl make a file (../../hook-file.ts) for a record's file field or a form's addFiles. Its
// name is the one an API upload gets (server/records/files.ts: snake-cased, a random suffix, the
// extension cleaned; without one, the extension of the sniffed content type, asked of the main
// thread, which detects it for API uploads). The content is read at once, as 0.22's readers are
// opened when the file is uploaded, and kept with the file.
import fs from 'node:fs';
import path from 'node:path';
import { namespace } from '../../../migrations/js-unsupported';
import { normalizeFileName } from '../../../records/files';
import { HookFile } from '../../hook-file';
import type { Call } from '../app';
import type { BlockingIo } from '../sync-io';
import { goCall } from './fs-info';
import { goGet } from './http';

const DEFAULT_URL_TIMEOUT_S = 120;

/** Bytes from a Go []byte as JS holds one: a byte array, a list of byte values, or text. */
function bytesOf(data: unknown): Buffer {
  if (data instanceof Uint8Array) return Buffer.from(data);
  if (Array.isArray(data)) return Buffer.from(data.map(Number));
  return Buffer.from(data === undefined || data === null ? '' : String(data));
}

/** filepath.Ext of the base name (normalizeFileName keeps it; only a name without one needs the content). */
const hasExt = (name: string) => /\.[^./\\]*$/.test(name.split(/[/\\]/).pop() ?? '');

export function filesystemNamespace(call: Call, io: BlockingIo): object {
  const make = (bytes: Buffer, originalName: string): HookFile => {
    let ext = '';
    if (!hasExt(originalName)) {
      try {
        ext = String(call('files', ['detectExt', new Uint8Array(bytes)]) ?? '');
      } catch {
        // inside runInTransaction the main thread cannot wait for the detection: no extension then
      }
    }
    return new HookFile(normalizeFileName(originalName, ext), originalName, new Uint8Array(bytes));
  };

  return namespace('$filesystem', {
    fileFromPath(p: unknown) {
      const file = String(p ?? '');
      const stat = goCall('stat', file, () => fs.statSync(file));
      if (stat.isDirectory()) throw new Error(`read ${file}: is a directory`);
      return make(goCall('open', file, () => fs.readFileSync(file)), path.basename(file));
    },
    fileFromBytes(data: unknown, name: unknown) {
      const bytes = bytesOf(data);
      if (!bytes.length) throw new Error('cannot create an empty file');
      return make(bytes, String(name ?? ''));
    },
    /**
     * A multipart file header: `{filename, ...}` with its content (`bytes`, or an `open()` reader).
     * Outpost's `c` has no formFile() yet, so only a header a handler builds can be passed.
     */
    fileFromMultipart(header: unknown) {
      const h = (header ?? {}) as { filename?: unknown; bytes?: unknown; open?: () => unknown };
      if (typeof h.filename !== 'string') throw new Error('fileFromMultipart expects a multipart file header ({filename, bytes}); c.formFile() is not supported by Outpost yet');
      const content = h.bytes ?? (typeof h.open === 'function' ? (h.open() as { bytes?: unknown })?.bytes : undefined);
      return make(bytesOf(content), h.filename);
    },
    fileFromUrl(url: unknown, secTimeout: unknown) {
      const seconds = Math.trunc(Number(secTimeout)) || DEFAULT_URL_TIMEOUT_S;
      const target = String(url ?? '');
      const { status, body } = goGet(io, target, Date.now() + seconds * 1000);
      if (status < 200 || status > 399) throw new Error(`failed to download url ${target} (${status})`);
      if (!body.length) throw new Error('cannot create an empty file');
      // Go's path.Base of the whole URL
      return make(body, target.replace(/\/+$/, '').split('/').pop() || '/');
    },
  });
}
