// Reading one backup's database without restoring it: data.db (and data.db-wal, when the archive
// holds one, as 0.22's own backups may) is streamed out of the zip into a folder of the caller's,
// nothing else is extracted. Local backups are read in place; an S3 backup is read by ranges (the
// central directory through a small block cache, the entry's bytes in one streamed GET), so the
// archive is never downloaded whole. Bounded: a cap on the entries scanned and on data.db's size
// (declared and real), the free disk space, and a time budget; zip work is asynchronous (file
// reads and inflate run off the event loop).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type yauzl from 'yauzl';
import { archiveLimits, entryKind, InvalidArchiveError, safeName, SQLITE_HEADER } from './archive';
import type { BackupsFs } from './fsys';

export interface PeekLimits {
  /** The largest data.db (plus its -wal) read out of an archive. */
  maxDbBytes: number;
  maxEntries: number;
  /** The whole read: entries scanned and bytes copied. */
  timeoutMs: number;
}

const envNumber = (name: string, fallback: number): number => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};

/** OUTPOST_BACKUP_PEEK_MAX_BYTES (default 1 GiB) and OUTPOST_BACKUP_PEEK_TIMEOUT_MS (default 60 s). */
export function peekLimits(): PeekLimits {
  return {
    maxDbBytes: envNumber('OUTPOST_BACKUP_PEEK_MAX_BYTES', 1024 ** 3),
    maxEntries: archiveLimits().maxEntries,
    timeoutMs: envNumber('OUTPOST_BACKUP_PEEK_TIMEOUT_MS', 60_000),
  };
}

/** Reading took longer than its budget (or the storage failed): says nothing about the backup itself. */
export class PeekUnavailableError extends Error {}

/** A ranged read of the storage failed (S3 unreachable): the moment's fault, not the archive's. */
class StorageReadError extends Error {}

const DB_NAMES = ['data.db', 'data.db-wal'] as const;

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/**
 * Copies the backup's data.db (and data.db-wal) into `destDir`; returns data.db's path. Throws
 * InvalidArchiveError for what the archive is (no data.db, not SQLite, too large, a lying size)
 * and PeekUnavailableError for what the moment is (timeout, storage unreachable, disk full).
 */
export async function extractDatabase(fsys: BackupsFs, key: string, size: number, destDir: string, limits = peekLimits()): Promise<string> {
  const budget = new AbortController();
  const timer = setTimeout(() => budget.abort(), limits.timeoutMs);
  timer.unref();
  const signal = budget.signal;
  let zip: yauzl.ZipFile | undefined;
  try {
    zip = await openBackupZip(fsys, key, size);
    if (zip.entryCount > limits.maxEntries) throw new InvalidArchiveError(`Too many entries (more than ${limits.maxEntries}).`);
    const found = await findEntries(zip, signal);
    const db = found.get('data.db');
    if (!db) throw new InvalidArchiveError('The backup has no data.db file at its root.');
    const declared = [...found.values()].reduce((n, e) => n + e.uncompressedSize, 0);
    if (declared > limits.maxDbBytes) {
      throw new InvalidArchiveError(`data.db is too large to read here (${mb(declared)}; the limit is ${mb(limits.maxDbBytes)}).`);
    }
    // a zip bomb: what deflate cannot reach with real data (same rule as a restore's inspection)
    const packed = [...found.values()].reduce((n, e) => n + e.compressedSize, 0);
    if (declared > 1024 * 1024 && declared / Math.max(packed, 1) > archiveLimits().maxRatio) {
      throw new InvalidArchiveError('data.db unpacks to far more than its size in the archive (a zip bomb?).');
    }
    const free = await freeBytes(destDir);
    if (declared > free) throw new PeekUnavailableError(`Not enough disk space to read data.db (${mb(declared)}, ${mb(free)} free).`);
    for (const [name, e] of found) await copyEntry(zip, e, path.join(destDir, name), name === 'data.db', signal);
    return path.join(destDir, 'data.db');
  } catch (err) {
    if (signal.aborted) throw new PeekUnavailableError(`Reading the backup took longer than ${Math.round(limits.timeoutMs / 1000)} s.`);
    if (err instanceof InvalidArchiveError || err instanceof PeekUnavailableError) throw err;
    if (err instanceof StorageReadError) throw new PeekUnavailableError(`The backups storage cannot be read (${err.message}).`);
    throw new InvalidArchiveError(`Invalid zip archive (${(err as Error).message}).`);
  } finally {
    clearTimeout(timer);
    if (zip?.isOpen) zip.close();
  }
}

/** The root entries data.db and data.db-wal (each a regular, unencrypted file, at most once). */
function findEntries(zip: yauzl.ZipFile, signal: AbortSignal): Promise<Map<string, yauzl.Entry>> {
  const found = new Map<string, yauzl.Entry>();
  return new Promise((resolve, reject) => {
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      reject(err);
    };
    signal.addEventListener('abort', () => fail(new Error('aborted')), { once: true });
    zip.on('error', fail);
    zip.on('end', () => !failed && resolve(found));
    zip.on('entry', (e: yauzl.Entry) => {
      if (failed) return;
      try {
        const name = safeName(e.fileName);
        if ((DB_NAMES as readonly string[]).includes(name)) {
          if (entryKind(e) !== 'file') throw new InvalidArchiveError(`"${name}" is not a regular file.`);
          if (e.isEncrypted()) throw new InvalidArchiveError(`Encrypted entries are not supported ("${name}").`);
          if (found.has(name)) throw new InvalidArchiveError(`The entry "${name}" appears more than once.`);
          found.set(name, e);
        }
        zip.readEntry();
      } catch (err) {
        fail(err);
      }
    });
    zip.readEntry();
  });
}

/** Streams one entry to `dest`: yauzl holds it to its declared size; data.db must start as SQLite does. */
async function copyEntry(zip: yauzl.ZipFile, e: yauzl.Entry, dest: string, isDb: boolean, signal: AbortSignal): Promise<void> {
  const input = await new Promise<Readable>((resolve, reject) =>
    zip.openReadStream(e, (err, s) => (err || !s ? reject(err ?? new Error('unreadable entry')) : resolve(s))),
  );
  let head = Buffer.alloc(0);
  const check = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      if (isDb && head.length < SQLITE_HEADER.length) {
        head = Buffer.concat([head, chunk.subarray(0, SQLITE_HEADER.length - head.length)]);
        if (head.length === SQLITE_HEADER.length && !head.equals(SQLITE_HEADER)) return cb(new InvalidArchiveError('data.db is not an SQLite database.'));
      }
      cb(null, chunk);
    },
  });
  try {
    await pipeline(input, check, fs.createWriteStream(dest, { flags: 'wx', mode: 0o600 }), { signal });
  } catch (err) {
    if (err instanceof InvalidArchiveError || err instanceof StorageReadError || signal.aborted) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') throw new PeekUnavailableError('Not enough disk space to read data.db.');
    throw new InvalidArchiveError(`The entry "${e.fileName}" cannot be read (${(err as Error).message}).`);
  }
  if (isDb && !head.equals(SQLITE_HEADER)) throw new InvalidArchiveError('data.db is not an SQLite database.');
}

async function freeBytes(dir: string): Promise<number> {
  const st = await fsp.statfs(dir);
  return Math.max(0, st.bavail * st.bsize - 16 * 1024 * 1024);
}

async function openBackupZip(fsys: BackupsFs, key: string, size: number): Promise<yauzl.ZipFile> {
  const { default: yauzl } = await import('yauzl');
  const options = { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true };
  const local = fsys.localPath(key);
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, zip?: yauzl.ZipFile) => {
      if (zip && !err) return resolve(zip);
      reject(err instanceof StorageReadError ? err : new InvalidArchiveError(`Not a valid zip archive (${err?.message ?? 'unreadable'}).`));
    };
    if (local) yauzl.open(local, options, done);
    else yauzl.fromRandomAccessReader(rangeReader(yauzl, fsys, key), size, options, done);
  });
}

const BLOCK = 256 * 1024;
const CACHED_BLOCKS = 16;

/**
 * yauzl's random access over the storage's ranged reads: small reads (the end record, the central
 * directory's headers, a local header) come from 256 KB blocks fetched once and kept (16 at most),
 * so scanning the directory costs a few requests, not one per entry; an entry's data is one
 * streamed range.
 */
function rangeReader(lib: typeof yauzl, fsys: BackupsFs, key: string): yauzl.RandomAccessReader {
  const blocks = new Map<number, Promise<Buffer>>();
  const block = (n: number): Promise<Buffer> => {
    let b = blocks.get(n);
    if (!b) {
      b = fsys.read(key, { start: n * BLOCK, end: n * BLOCK + BLOCK - 1 }).then(readAll);
      b.catch(() => blocks.delete(n));
      blocks.set(n, b);
      if (blocks.size > CACHED_BLOCKS) blocks.delete(blocks.keys().next().value as number);
    }
    return b;
  };
  const Base = lib.RandomAccessReader as unknown as new () => yauzl.RandomAccessReader;
  class StorageRangeReader extends Base {
    read(buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null) => void): void {
      const first = Math.floor(position / BLOCK);
      const last = Math.floor((position + length - 1) / BLOCK);
      const wanted = Array.from({ length: length > 0 ? last - first + 1 : 0 }, (_, i) => block(first + i));
      Promise.all(wanted).then(
        (parts) => {
          const all = Buffer.concat(parts);
          const from = position - first * BLOCK;
          if (all.length < from + length) return callback(new Error('unexpected end of the archive'));
          all.copy(buffer, offset, from, from + length);
          // yauzl reads the byte count too (the declared type leaves it out)
          (callback as (err: Error | null, bytesRead: number) => void)(null, length);
        },
        (err: Error) => callback(new StorageReadError(err.message)),
      );
    }
    _readStreamForRange(start: number, end: number): Readable {
      const out = new PassThrough();
      fsys.read(key, { start, end: end - 1 }).then(
        (s) => void pipeline(s, out).catch((err: Error) => out.destroy(new StorageReadError(err.message))),
        (err: Error) => out.destroy(new StorageReadError(err.message)),
      );
      return out;
    }
  }
  return new StorageRangeReader();
}

async function readAll(s: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
