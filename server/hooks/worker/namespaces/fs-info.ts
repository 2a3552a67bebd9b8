// Go's fs.FileInfo and fs.DirEntry for `$os.readDir`, `$filepath.walk` and `$filepath.walkDir`:
// name(), size(), mode() (Go's FileMode bits), modTime(), isDir(), type(), info(); and Go's
// *PathError text for a failed file call ("open /x: no such file or directory").
import fs from 'node:fs';
import path from 'node:path';
import { goTime, type GoTime } from './datetime';

const MODE_DIR = 2 ** 31;
const MODE_SYMLINK = 2 ** 27;
const MODE_DEVICE = 2 ** 26;
const MODE_NAMED_PIPE = 2 ** 25;
const MODE_SOCKET = 2 ** 24;
const MODE_CHAR_DEVICE = 2 ** 21;

/** The FileMode type bits of a stat result. */
function typeBits(s: fs.Stats | fs.Dirent): number {
  if (s.isDirectory()) return MODE_DIR;
  if (s.isSymbolicLink()) return MODE_SYMLINK;
  if (s.isFIFO()) return MODE_NAMED_PIPE;
  if (s.isSocket()) return MODE_SOCKET;
  if (s.isCharacterDevice()) return MODE_DEVICE + MODE_CHAR_DEVICE;
  if (s.isBlockDevice()) return MODE_DEVICE;
  return 0;
}

export interface FileInfo {
  name(): string;
  size(): number;
  mode(): number;
  modTime(): GoTime;
  isDir(): boolean;
  sys(): null;
}

export interface DirEntry {
  name(): string;
  isDir(): boolean;
  type(): number;
  info(): FileInfo;
}

function fileInfo(name: string, s: fs.Stats): FileInfo {
  return {
    name: () => name,
    size: () => s.size,
    mode: () => typeBits(s) + (s.mode & 0o777),
    modTime: () => goTime(s.mtimeMs),
    isDir: () => s.isDirectory(),
    sys: () => null,
  };
}

/** Go's os.Lstat as a FileInfo (its errors in Go's words). */
export function lstatInfo(file: string): FileInfo {
  return fileInfo(path.basename(file), goCall('lstat', file, () => fs.lstatSync(file)));
}

function dirEntry(dir: string, e: fs.Dirent): DirEntry {
  return {
    name: () => e.name,
    isDir: () => e.isDirectory(),
    type: () => typeBits(e),
    info: () => lstatInfo(path.join(dir, e.name)),
  };
}

/** fs.FileInfoToDirEntry. */
export function infoEntry(info: FileInfo): DirEntry {
  return { name: () => info.name(), isDir: () => info.isDir(), type: () => info.mode() - (info.mode() % 0o1000), info: () => info };
}

/** os.ReadDir: the entries sorted by name. */
export function readDirEntries(dir: string): DirEntry[] {
  const entries = goCall('open', dir, () => fs.readdirSync(dir, { withFileTypes: true }));
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((e) => dirEntry(dir, e));
}

const REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EEXIST: 'file exists',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'not a directory',
  EISDIR: 'is a directory',
  ENOTEMPTY: 'directory not empty',
  EINVAL: 'invalid argument',
  EXDEV: 'invalid cross-device link',
};

/** Go's *PathError text: "<op> <path>: <reason>". */
export function pathError(op: string, file: string, err: unknown): Error {
  const code = (err as NodeJS.ErrnoException)?.code ?? '';
  const out = new Error(`${op} ${file}: ${REASONS[code] ?? (err instanceof Error ? err.message : String(err))}`);
  return Object.assign(out, { code });
}

/** Runs a file call, its error in Go's words. */
export function goCall<T>(op: string, file: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw pathError(op, file, err);
  }
}
