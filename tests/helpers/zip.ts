// Zips for backup tests: a folder zipped the way PocketBase 0.22 zips pb_data, hand-picked
// entries (for hostile archives), and the entry list of a downloaded archive.
import fs from 'node:fs';
import path from 'node:path';
import yazl from 'yazl';
import yauzl from 'yauzl';

async function finish(zip: yazl.ZipFile): Promise<Buffer> {
  const chunks: Buffer[] = [];
  zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    zip.outputStream.on('end', resolve);
    zip.outputStream.on('error', reject);
  });
  zip.end();
  await done;
  return Buffer.concat(chunks);
}

/** Every regular file under `dir` (except backups/ and the temp folder), as 0.22's archive.Create. */
export async function zipDir(dir: string): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (!rel && (e.name === 'backups' || e.name === '.pb_temp_to_delete')) continue;
      if (e.isDirectory()) walk(r);
      else if (e.isFile()) zip.addBuffer(fs.readFileSync(path.join(dir, r)), r);
    }
  };
  walk('');
  return finish(zip);
}

export interface Entry {
  name: string;
  data?: Buffer;
  /** Unix mode with the file type bits, e.g. 0o120777 for a symlink. */
  mode?: number;
  /** Stored, not deflated (its bytes appear as they are in the zip). */
  store?: boolean;
}

export async function zipEntries(entries: Entry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries) {
    if (e.name.endsWith('/')) zip.addEmptyDirectory(e.name);
    else zip.addBuffer(e.data ?? Buffer.from('x'), e.name, { ...(e.mode ? { mode: e.mode } : {}), ...(e.store ? { compress: false } : {}) });
  }
  return finish(zip);
}

export function listZip(buf: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const names: string[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        names.push(e.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}
