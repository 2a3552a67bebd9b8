// Where an export's text goes as pages arrive: a file chosen with the File System Access API
// (written chunk by chunk), or a Blob assembled from per-page parts (each part becomes its own
// Blob at once, so the browser may keep it out of the JS heap) and downloaded at the end.
import { downloadBlob } from '../../../lib/browser-io';

export interface ExportSink {
  write(text: string): Promise<void>;
  /** Finishes the file (the Blob sink downloads it here). */
  close(): Promise<void>;
  /** Drops what was written. */
  abort(): Promise<void>;
}

type SaveFilePicker = (opts: { suggestedName: string; types: Array<{ description: string; accept: Record<string, string[]> }> }) => Promise<{
  createWritable(): Promise<{ write(data: string): Promise<void>; close(): Promise<void>; abort(): Promise<void> }>;
}>;

const MIME = { csv: 'text/csv', json: 'application/json' } as const;

export function canStreamToFile(): boolean {
  return typeof window !== 'undefined' && typeof (window as unknown as { showSaveFilePicker?: unknown }).showSaveFilePicker === 'function';
}

/** Asks where to save (throws an AbortError when the user declines). */
export async function fileSink(name: string, format: 'csv' | 'json'): Promise<ExportSink> {
  const picker = (window as unknown as { showSaveFilePicker: SaveFilePicker }).showSaveFilePicker;
  const handle = await picker({ suggestedName: name, types: [{ description: format.toUpperCase(), accept: { [MIME[format]]: ['.' + format] } }] });
  const w = await handle.createWritable();
  return { write: (t) => w.write(t), close: () => w.close(), abort: () => w.abort() };
}

export function blobSink(name: string, format: 'csv' | 'json'): ExportSink {
  let parts: Blob[] = [];
  return {
    async write(text) {
      if (text) parts.push(new Blob([text]));
    },
    async close() {
      const blob = new Blob(parts, { type: `${MIME[format]};charset=utf-8` });
      parts = [];
      downloadBlob(blob, name);
    },
    async abort() {
      parts = [];
    },
  };
}
