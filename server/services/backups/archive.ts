// Backup archives with yazl/yauzl: the zip PocketBase 0.22 writes (tools/archive), i.e. the
// pb_data content without its backups and temp folders, data.db and logs.db at the root and
// storage/ beside them. Reading is defensive: an archive is inspected entry by entry before a byte
// is extracted (no escaping paths, no links or special files, caps on entries and unpacked size).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, Writable } from 'node:stream';
import zlib from 'node:zlib';
import type yauzl from 'yauzl';

/** Top-level pb_data entries never put into or taken from an archive (0.22's exclude list). */
export const EXCLUDED_ROOT_ENTRIES = ['backups', '.pb_temp_to_delete'];

export interface ArchiveLimits {
  maxEntries: number;
  /** The sum of the entries' unpacked sizes. */
  maxUnpackedBytes: number;
  /** Unpacked size over archive size above which an archive counts as a zip bomb. */
  maxRatio: number;
}

const envNumber = (name: string, fallback: number): number => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};

/** The caps (environment variables raise or lower them for unusual deployments). */
export function archiveLimits(): ArchiveLimits {
  return {
    maxEntries: envNumber('OUTPOST_BACKUP_MAX_ENTRIES', 1_000_000),
    maxUnpackedBytes: envNumber('OUTPOST_BACKUP_MAX_UNPACKED_BYTES', 64 * 1024 ** 3),
    maxRatio: envNumber('OUTPOST_BACKUP_MAX_RATIO', 1000),
  };
}

export class InvalidArchiveError extends Error {}

// ---- writing ----

export interface ArchiveSource {
  /** Name inside the archive, '/'-separated. */
  name: string;
  /** The file on disk to stream into it. */
  file: string;
  mtime: Date;
  /** Stored without compression (already compressed formats). */
  store?: boolean;
}

/** Streams `sources` into a new zip at `dest` (deflate at the fastest level, like 0.22). */
export async function writeArchive(sources: ArchiveSource[], dest: string): Promise<void> {
  // the zip libraries load on first use: a server start never needs them
  const { default: yazl } = await import('yazl');
  const zip = new yazl.ZipFile();
  const out = fs.createWriteStream(dest);
  const done = pipeline(zip.outputStream, out);
  for (const s of sources) {
    zip.addFile(s.file, s.name, { mtime: s.mtime, mode: 0o100644, compressionLevel: s.store ? 0 : 1 });
  }
  zip.end();
  await done;
}

// ---- reading ----

type ZipFile = yauzl.ZipFile;
type Entry = yauzl.Entry;

async function openZip(file: string): Promise<ZipFile> {
  const { default: yauzl } = await import('yauzl');
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true }, (err, zip) =>
      err || !zip ? reject(new InvalidArchiveError(`Not a valid zip archive (${err?.message ?? 'unreadable'}).`)) : resolve(zip),
    ),
  );
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

/** A zip entry's kind from its Unix mode bits (archives made on Windows have none: a plain file). */
export function entryKind(e: Entry): 'file' | 'dir' | 'special' {
  const madeBy = e.versionMadeBy >> 8;
  const mode = (e.externalFileAttributes >>> 16) & S_IFMT;
  const isDirName = e.fileName.endsWith('/');
  if (madeBy === 3 && mode !== 0) {
    if (mode === S_IFDIR) return 'dir';
    if (mode === S_IFREG) return isDirName ? 'special' : 'file';
    return 'special'; // symlink, fifo, device, socket
  }
  return isDirName ? 'dir' : 'file';
}

/** The entry's relative path, or an error for names that could leave the target folder. */
export function safeName(name: string): string {
  const clean = name.replace(/\/+$/, '');
  // eslint-disable-next-line no-control-regex
  if (!clean || clean.startsWith('/') || /^[a-zA-Z]:/.test(clean) || /[\\\u0000-\u001f]/.test(clean)) {
    throw new InvalidArchiveError(`Invalid entry path "${name}".`);
  }
  if (clean.split('/').some((seg) => seg === '' || seg === '.' || seg === '..')) {
    throw new InvalidArchiveError(`Invalid entry path "${name}".`);
  }
  return clean;
}

const isExcluded = (name: string): boolean => EXCLUDED_ROOT_ENTRIES.includes(name.split('/')[0]);

async function eachEntry(zip: ZipFile, fn: (e: Entry) => Promise<void>): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      reject(err instanceof InvalidArchiveError ? err : new InvalidArchiveError(`Invalid zip archive (${(err as Error)?.message ?? err}).`));
    };
    zip.on('error', fail);
    zip.on('end', () => !failed && resolve());
    zip.on('entry', (e: Entry) => {
      fn(e).then(() => !failed && zip.readEntry(), fail);
    });
    zip.readEntry();
  });
}

export interface ArchiveSummary {
  entries: number;
  unpackedBytes: number;
}

export interface InspectOptions {
  /**
   * Also read every entry through: its bytes must match the sizes and CRC-32 its headers declare
   * (headers that lie are refused here, not halfway through a restore), and data.db is copied to
   * this file for the caller to check as a database.
   */
  verifyInto?: string;
}

/**
 * Checks an archive without extracting it: readable zip, entry names inside the data dir and
 * each at most once, only files and folders, caps respected, a data.db file at the root that
 * starts as an SQLite database does; with `verifyInto`, every entry's content too.
 */
export async function inspectArchive(file: string, limits = archiveLimits(), options: InspectOptions = {}): Promise<ArchiveSummary> {
  const { size } = await fsp.stat(file);
  const zip = await openZip(file);
  try {
    if (zip.entryCount > limits.maxEntries) throw new InvalidArchiveError(`Too many entries (more than ${limits.maxEntries}).`);
    let unpacked = 0;
    let hasDb = false;
    const seen = new Set<string>();
    await eachEntry(zip, async (e) => {
      const name = safeName(e.fileName);
      const kind = entryKind(e);
      if (kind === 'special') throw new InvalidArchiveError(`Links and special files are not allowed ("${e.fileName}").`);
      if (e.isEncrypted()) throw new InvalidArchiveError(`Encrypted entries are not supported ("${e.fileName}").`);
      // two entries of one name: which one a restore would keep is anyone's guess
      if (seen.has(name)) throw new InvalidArchiveError(`The entry "${name}" appears more than once.`);
      seen.add(name);
      unpacked += e.uncompressedSize;
      if (unpacked > limits.maxUnpackedBytes) throw new InvalidArchiveError('The unpacked backup would be too large.');
      const isDb = name === 'data.db' && kind === 'file';
      if (isDb) hasDb = true;
      if (kind === 'file' && options.verifyInto) await readEntry(zip, e, isDb ? options.verifyInto : undefined, isDb);
    });
    if (unpacked > 1024 * 1024 && unpacked / Math.max(size, 1) > limits.maxRatio) {
      throw new InvalidArchiveError('The archive unpacks to far more than its size (a zip bomb?).');
    }
    if (!hasDb) throw new InvalidArchiveError('The backup has no data.db file at its root.');
    return { entries: zip.entryCount, unpackedBytes: unpacked };
  } finally {
    zip.close();
  }
}

export const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Reads one entry through: yauzl fails a stream whose length differs from the declared size, the
 * CRC-32 is compared here, and data.db must start with SQLite's header (copied to `copyTo`).
 */
async function readEntry(zip: ZipFile, e: Entry, copyTo: string | undefined, isDb: boolean): Promise<void> {
  const input = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
    zip.openReadStream(e, (err, s) => (err || !s ? reject(err ?? new Error('unreadable entry')) : resolve(s))),
  );
  let crc = 0;
  let head = Buffer.alloc(0);
  const check = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      if (head.length < SQLITE_HEADER.length) head = Buffer.concat([head, chunk.subarray(0, SQLITE_HEADER.length - head.length)]);
      crc = zlib.crc32(chunk, crc);
      cb(null, chunk);
    },
  });
  const sink = copyTo ? fs.createWriteStream(copyTo, { mode: 0o600 }) : new Writable({ write: (_c, _e, cb) => cb() });
  try {
    await pipeline(input, check, sink);
  } catch (err) {
    throw new InvalidArchiveError(`The entry "${e.fileName}" cannot be read (${(err as Error).message}).`);
  }
  if (isDb && !head.equals(SQLITE_HEADER)) throw new InvalidArchiveError('data.db is not an SQLite database.');
  if (crc >>> 0 !== e.crc32 >>> 0) throw new InvalidArchiveError(`The entry "${e.fileName}" does not match its checksum.`);
}

/** Extracts an inspected archive into `dest` (created), skipping the excluded root folders. */
export async function extractArchive(file: string, dest: string, limits = archiveLimits()): Promise<void> {
  await fsp.mkdir(dest, { recursive: true });
  const zip = await openZip(file);
  let written = 0;
  try {
    await eachEntry(zip, async (e) => {
      const name = safeName(e.fileName);
      const kind = entryKind(e);
      if (kind === 'special') throw new InvalidArchiveError(`Links and special files are not allowed ("${e.fileName}").`);
      if (isExcluded(name)) return;
      const target = path.join(dest, ...name.split('/'));
      if (kind === 'dir') {
        await fsp.mkdir(target, { recursive: true });
        return;
      }
      await fsp.mkdir(path.dirname(target), { recursive: true });
      const input = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
        zip.openReadStream(e, (err, s) => (err || !s ? reject(err ?? new Error('unreadable entry')) : resolve(s))),
      );
      // counts what really comes out (yauzl also checks it against the declared size)
      const counter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          written += chunk.length;
          if (written > limits.maxUnpackedBytes) cb(new InvalidArchiveError('The unpacked backup would be too large.'));
          else cb(null, chunk);
        },
      });
      // 'wx': a duplicate entry name cannot overwrite what an earlier entry wrote
      await pipeline(input, counter, fs.createWriteStream(target, { flags: 'wx', mode: 0o644 }));
    });
  } finally {
    zip.close();
  }
}
