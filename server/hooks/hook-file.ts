// A file hook code builds with `$filesystem` (0.22's filesystem.File: name, originalName, size,
// reader), on either side of the channel: in the executor, where a handler sets it on a record's
// file field or adds it to a form, and on the main thread, which stores it as an API upload is
// stored. It crosses the channel as a tagged snapshot with its bytes (structured clone keeps the
// Uint8Array; the brand, a symbol, does not cross and is set again).

/** The brand server/migrations/js-models.ts looks for to keep a file on a record as it is. */
const BRAND = Symbol.for('outpost.hooks.file');

export interface FileWire {
  __file: { name: string; originalName: string; size: number; bytes: Uint8Array };
}

/** What `file.reader.open()` gives: readerToString() reads it as UTF-8 text. */
class FileReadCloser {
  constructor(readonly bytes: Uint8Array) {}
  toString(): string {
    return Buffer.from(this.bytes).toString('utf8');
  }
  close(): void {}
}

export class HookFile {
  readonly [BRAND] = true;

  constructor(
    /** The stored name: 0.22's `<snake_name>_<10 random chars><ext>`. */
    readonly name: string,
    readonly originalName: string,
    readonly bytes: Uint8Array,
  ) {}

  get size(): number {
    return this.bytes.length;
  }

  /** 0.22's File.Reader: `open()` gives a reader of the content. */
  get reader(): { open(): FileReadCloser } {
    return { open: () => new FileReadCloser(this.bytes) };
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, originalName: this.originalName, size: this.size };
  }
}

export const isHookFile = (v: unknown): v is HookFile => typeof v === 'object' && v !== null && (v as Record<symbol, unknown>)[BRAND] === true;

const isFileWire = (v: unknown): v is FileWire => typeof v === 'object' && v !== null && typeof (v as { __file?: unknown }).__file === 'object';

/** A record value with its files as snapshots (a file field holds one file, or a list of names and files). */
export function filesToWire(value: unknown): unknown {
  const one = (v: unknown) => (isHookFile(v) ? ({ __file: { name: v.name, originalName: v.originalName, size: v.size, bytes: v.bytes } } satisfies FileWire) : v);
  return Array.isArray(value) ? value.map(one) : one(value);
}

/** The record value with its file snapshots built again into files. */
export function filesFromWire(value: unknown): unknown {
  const one = (v: unknown) => (isFileWire(v) ? new HookFile(v.__file.name, v.__file.originalName, v.__file.bytes) : v);
  return Array.isArray(value) ? value.map(one) : one(value);
}

/** Whether a record value holds a file (a file, or a list with one). */
export const holdsFile = (value: unknown): boolean => isHookFile(value) || (Array.isArray(value) && value.some(isHookFile));
