// Where backups live: pb_data/backups (local) or the root of the backups S3 bucket, as in 0.22
// (app.NewBackupsFilesystem). Both stream: nothing here holds a whole archive in memory.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { createS3Client, s3Sdk } from '../s3';
import type { S3Settings } from '../settings';
import { isBackupKey } from './names';
import { fsyncDir } from './swap';

const LOCAL_BACKUPS_DIR = 'backups';

interface BackupInfo {
  key: string;
  size: number;
  modified: Date;
}

export interface BackupsFs {
  list(prefix?: string): Promise<BackupInfo[]>;
  /** Size and date of one backup, or null when there is none with that key. */
  stat(key: string): Promise<BackupInfo | null>;
  /** Stores the file at `file` (on the local disk) as `key`, replacing an existing one. */
  putFile(key: string, file: string): Promise<void>;
  /** A stream of the backup's bytes, or of bytes start..end inclusive (the caller checked it exists). */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** Copies the backup to a local file. */
  download(key: string, dest: string): Promise<void>;
  /** Removes a backup; rejects when there is none. */
  remove(key: string): Promise<void>;
  /** The local path when the backup is on this disk (restore reads it in place). */
  localPath(key: string): string | null;
  close(): void;
}

/** A backup of that name exists already (put files never replace one). */
export class BackupExistsError extends Error {
  constructor(key: string) {
    super(`The backup "${key}" already exists.`);
  }
}

/**
 * Gives `tmp` the name `dest` unless that name exists, atomically: a hard link fails on an
 * existing name (so two uploads of one name cannot both succeed, the second silently replacing
 * the first). A file system without hard links gets a check, then a rename.
 */
async function placeNew(tmp: string, dest: string, key: string): Promise<void> {
  try {
    await fsp.link(tmp, dest);
    return;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'EEXIST') throw new BackupExistsError(key);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
  }
  if (fs.existsSync(dest)) throw new BackupExistsError(key);
  await fsp.rename(tmp, dest);
}

class MissingBackupError extends Error {
  constructor(key: string) {
    super(`Missing backup file "${key}".`);
  }
}

function checkedKey(key: string): string {
  if (!isBackupKey(key)) throw new MissingBackupError(key);
  return key;
}

function createLocalBackupsFs(dataDir: string): BackupsFs {
  const root = path.join(dataDir, LOCAL_BACKUPS_DIR);
  const file = (key: string) => path.join(root, checkedKey(key));

  async function statFile(key: string): Promise<BackupInfo | null> {
    try {
      const st = await fsp.lstat(file(key));
      return st.isFile() ? { key, size: st.size, modified: st.mtime } : null;
    } catch {
      return null;
    }
  }

  return {
    async list(prefix = '') {
      let names: string[];
      try {
        names = await fsp.readdir(root);
      } catch {
        return [];
      }
      const out: BackupInfo[] = [];
      for (const name of names) {
        if (!name.startsWith(prefix) || !isBackupKey(name)) continue;
        const info = await statFile(name);
        if (info) out.push(info);
      }
      return out;
    },
    stat: statFile,
    async putFile(key, src) {
      const dest = file(key);
      await fsp.mkdir(root, { recursive: true });
      // a temp name beside the target: a listed backup is always a complete file
      const tmp = path.join(root, `.${key}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
      try {
        await fsp.rename(src, tmp).catch(async () => {
          await pipeline(fs.createReadStream(src), fs.createWriteStream(tmp));
        });
        // on the disk before it is acknowledged
        const fh = await fsp.open(tmp, 'r+');
        try {
          await fh.sync();
        } finally {
          await fh.close();
        }
        await placeNew(tmp, dest, key);
        fsyncDir(root);
      } finally {
        await fsp.rm(tmp, { force: true });
      }
    },
    async read(key, range) {
      return fs.createReadStream(file(key), range);
    },
    async download(key, dest) {
      await fsp.copyFile(file(key), dest);
    },
    async remove(key) {
      if (!(await statFile(key))) throw new MissingBackupError(key);
      await fsp.rm(file(key));
    },
    localPath: (key) => file(key),
    close() {},
  };
}

function createS3BackupsFs(cfg: S3Settings): BackupsFs {
  const client: S3Client = createS3Client(cfg);
  // the SDK loads on first use (see ../s3): a server without S3 backups never pays for it
  const { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand } = s3Sdk();
  const Bucket = cfg.bucket;

  async function stat(key: string): Promise<BackupInfo | null> {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: checkedKey(key) }));
      return { key, size: head.ContentLength ?? 0, modified: head.LastModified ?? new Date(0) };
    } catch (err) {
      if (err instanceof MissingBackupError) return null;
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404 || (err as Error).name === 'NotFound' || (err as Error).name === 'NoSuchKey') return null;
      throw err;
    }
  }

  return {
    async list(prefix = '') {
      const out: BackupInfo[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix || undefined, ContinuationToken: token }),
        );
        for (const o of page.Contents ?? []) {
          if (!o.Key || !isBackupKey(o.Key)) continue;
          out.push({ key: o.Key, size: o.Size ?? 0, modified: o.LastModified ?? new Date(0) });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return out;
    },
    stat,
    async putFile(key, src) {
      // one streamed PUT with a known length: the archive goes from disk to the socket, never
      // into memory as a whole (S3 accepts up to 5 GB this way)
      const { size } = await fsp.stat(src);
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: checkedKey(key),
          Body: fs.createReadStream(src),
          ContentLength: size,
          ContentType: 'application/zip',
        }),
      );
    },
    async read(key, range) {
      const Range = range ? `bytes=${range.start}-${range.end}` : undefined;
      const res = await client.send(new GetObjectCommand({ Bucket, Key: checkedKey(key), Range }));
      return res.Body as Readable;
    },
    async download(key, dest) {
      const body = await this.read(key);
      await pipeline(body, fs.createWriteStream(dest));
    },
    async remove(key) {
      if (!(await stat(key))) throw new MissingBackupError(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: checkedKey(key) }));
    },
    localPath: () => null,
    close() {
      client.destroy();
    },
  };
}

/** The backups storage the settings name now (open one per operation; close it after). */
export function openBackupsFs(dataDir: string, s3: S3Settings): BackupsFs {
  return s3.enabled ? createS3BackupsFs(s3) : createLocalBackupsFs(dataDir);
}
