// Writing one blob of 0.22's local layout (the file and its `.attrs` sidecar in gocloud.dev's
// fileblob format) so that a failure leaves nothing behind: both are written to temporary
// siblings and renamed into place only once complete. A disk that fills mid-write used to leave a
// partial `*.tmp` beside the records' files for good, so the disk stayed full after the failed
// requests; now the temporaries go on every error path, and any a crash left are swept at start.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

/** The suffix of our temporary siblings: `.<12 hex>.tmp` (never a name a record file can have). */
const TEMP_SUFFIX = /\.[0-9a-f]{12}\.tmp$/;
const tempOf = (p: string) => `${p}.${crypto.randomBytes(6).toString('hex')}.tmp`;

export async function writeBlobFile(file: string, data: Buffer, contentType: string, metadata: Record<string, string> | null): Promise<void> {
  const attrs = {
    'user.cache_control': '',
    'user.content_disposition': '',
    'user.content_encoding': '',
    'user.content_language': '',
    'user.content_type': contentType,
    'user.metadata': metadata,
    md5: crypto.createHash('md5').update(data).digest('base64'),
  };
  const tmp = tempOf(file);
  const attrsTmp = tempOf(`${file}.attrs`);
  try {
    await fsp.writeFile(tmp, data);
    await fsp.writeFile(attrsTmp, JSON.stringify(attrs));
    // the sidecar first: a blob is never visible without its content type
    await fsp.rename(attrsTmp, `${file}.attrs`);
    await fsp.rename(tmp, file);
  } catch (err) {
    await Promise.all([fsp.rm(tmp, { force: true }), fsp.rm(attrsTmp, { force: true })]).catch(() => undefined);
    throw err;
  }
}

/**
 * Removes the temporaries a crash or a full disk left below `root` (run at start, in the
 * background: no write of this process is in flight yet). Resolves to how many went.
 */
export async function sweepTempFiles(root: string): Promise<number> {
  let removed = 0;
  const walk = async (dir: string): Promise<void> => {
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile() && TEMP_SUFFIX.test(e.name)) {
        await fsp.rm(p, { force: true }).then(() => removed++, () => undefined);
      }
    }
  };
  await walk(root);
  return removed;
}
