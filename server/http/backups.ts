// /api/backups (PocketBase 0.22's apis/backup.go): list, create, upload, download with an admin
// file token, delete and restore, with 0.22's statuses and messages. The work itself lives in
// services/backups; this module maps requests and errors.
import { auditBackup, auditRestore } from '../audit/changes';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { toDateTime } from '../db/layout';
import { findAdminByFileToken } from '../services/admins';
import { InvalidArchiveError, inspectArchive } from '../services/backups/archive';
import { createBackup, type DatabaseSnapshot } from '../services/backups/create';
import { BackupExistsError, openBackupsFs, type BackupsFs } from '../services/backups/fsys';
import { generateBackupName, isBackupKey, MANUAL_BACKUP_PREFIX } from '../services/backups/names';
import { checkDatabase, InvalidDatabaseError, prepareRestore, restorePlan } from '../services/backups/restore';
import { activeOperation, beginOperation, endOperation } from '../services/backups/state';
import { tempRoot } from '../services/backups/temp';
import { logBackgroundError } from '../services/request-log';
import { ApiError, badRequest, fieldError } from '../core/errors';
import { validateBody } from '../core/body-validator';
import { bindForm } from './form-bind';
import { requireAdmin } from './guards';
import { contentDisposition, serveContent } from './serve-content';

const BUSY = 'Try again later - another backup/restore process has already been started.';
const GENERIC = 'Something went wrong while processing your request.';
const MISSING_UPLOAD = 'Missing or invalid uploaded file.';
const CSP = "default-src 'none'; media-src 'self'; style-src 'unsafe-inline'; sandbox";

/** Largest accepted upload (OUTPOST_BACKUP_MAX_UPLOAD_BYTES overrides it). */
function maxUploadBytes(): number {
  const v = Number(process.env.OUTPOST_BACKUP_MAX_UPLOAD_BYTES);
  return Number.isFinite(v) && v > 0 ? v : 1024 ** 3;
}

const rawError = (prefix: string, err: unknown) => badRequest(`${prefix} Raw error: \n${err instanceof Error ? err.message : String(err)}`);

type KeyParams = { key?: string };

/** `snapshot`: how a backup copies the open databases (from the composition root, server/app.ts). */
export function registerBackups(app: FastifyInstance, ctx: AppContext, snapshot: DatabaseSnapshot): void {
  const fsys = (): BackupsFs => openBackupsFs(ctx.dataDir, ctx.settings.get().backups.s3);

  async function withFs<T>(fn: (f: BackupsFs) => Promise<T>): Promise<T> {
    const f = fsys();
    try {
      return await fn(f);
    } finally {
      f.close();
    }
  }

  app.get('/api/backups', async (req) => {
    requireAdmin(req);
    let items;
    try {
      items = await withFs((f) => f.list());
    } catch (err) {
      throw rawError('Failed to retrieve backup items.', err);
    }
    return items.map((b) => ({ key: b.key, size: b.size, modified: toDateTime(b.modified) }));
  });

  app.post('/api/backups', async (req, reply) => {
    requireAdmin(req);
    if (activeOperation(ctx) !== undefined) throw badRequest(BUSY);
    const form = bindForm(req, { name: 'string' }, 'An error occurred while loading the submitted data.');
    const name = form.name ?? '';
    // the dashboard's form file is the body's schema (0.22's forms.BackupCreate rules)
    validateBody('backups/create', form, {}, GENERIC);
    if (name !== '' && (await withFs((f) => f.stat(name)).catch(() => true))) {
      throw badRequest(GENERIC, { name: fieldError('validation_backup_name_exists', 'The backup file name is invalid or already exists.') });
    }
    const key = name || generateBackupName(MANUAL_BACKUP_PREFIX, ctx.settings.get().meta.appName);
    if (!beginOperation(ctx, key)) throw badRequest(BUSY);
    try {
      await createBackup(ctx, snapshot, key);
    } catch (err) {
      throw badRequest('Failed to create backup.', {}, err instanceof Error ? err.message : String(err));
    } finally {
      endOperation(ctx);
    }
    auditBackup(ctx, 'create', key);
    return reply.status(204).send();
  });

  // Uploads stream to the temp folder (never into memory), capped, and are checked as archives
  // before they are stored: a backup in the list is always one that could be restored.
  void app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: maxUploadBytes(), files: 1, fields: 20, parts: 30, headerPairs: 200 } });
    scope.post('/api/backups/upload', async (req, reply) => {
      requireAdmin(req);
      const max = maxUploadBytes();
      if (Number(req.headers['content-length']) > max + 1024 * 1024) {
        throw new ApiError(413, 'Request entity too large.', { file: fieldError('validation_file_size_limit', `The maximum allowed backup size is ${max} bytes.`) });
      }
      if (!req.isMultipart()) throw badRequest(MISSING_UPLOAD);
      const work = await fsp.mkdtemp(path.join(await tempRoot(ctx.dataDir), 'pb_upload_'));
      try {
        const upload = await receiveFile(req, path.join(work, 'upload.zip'), max);
        await storeUpload(upload);
      } finally {
        await fsp.rm(work, { recursive: true, force: true });
      }
      return reply.status(204).send();
    });
  });

  async function storeUpload(upload: { file: string; name: string }): Promise<void> {
    const fail = (code: string, message: string) => badRequest(GENERIC, { file: fieldError(code, message) });
    // the file's own name, which must be a plain file name (no folders, nothing hidden)
    const name = upload.name;
    if (!isBackupKey(name)) throw fail('validation_invalid_name', 'Invalid backup file name.');
    if (!(await looksLikeZip(upload.file))) {
      throw fail('validation_invalid_mime_type', `Failed to upload ${JSON.stringify(name)} due to unsupported file type.`);
    }
    if (await withFs((f) => f.stat(name))) throw fail('validation_backup_name_exists', 'Backup file with the specified name already exists.');
    // every entry read through (sizes and checksums as declared) and data.db opened as a
    // PocketBase database: what the list shows can be restored
    const dbCopy = path.join(path.dirname(upload.file), 'data.db');
    try {
      await inspectArchive(upload.file, undefined, { verifyInto: dbCopy });
      await checkDatabase(dbCopy);
    } catch (err) {
      if (err instanceof InvalidArchiveError || err instanceof InvalidDatabaseError) throw fail('validation_invalid_backup', `Invalid backup: ${err.message}`);
      throw err;
    }
    try {
      await withFs((f) => f.putFile(name, upload.file));
    } catch (err) {
      // another upload of the same name got there first
      if (err instanceof BackupExistsError) throw fail('validation_backup_name_exists', 'Backup file with the specified name already exists.');
      throw badRequest('Failed to upload backup.', {}, err instanceof Error ? err.message : String(err));
    }
    auditBackup(ctx, 'upload', name);
  }

  app.get('/api/backups/:key', async (req, reply) => {
    const token = firstQuery(req, 'token');
    const admin = findAdminByFileToken(ctx.admins, ctx.settings.get(), token);
    // a scoped admin's file token opens backups only with the backups area
    if (!admin || !ctx.roles.accessOf(admin.id).area('backups')) {
      throw new ApiError(403, 'Insufficient permissions to access the resource.');
    }
    const key = (req.params as KeyParams).key ?? '';
    const f = fsys();
    // the storage stays open while the answer streams (several reads for a multipart range)
    reply.raw.once('close', () => f.close());
    let info;
    try {
      info = isBackupKey(key) ? await f.stat(key) : null;
    } catch (err) {
      throw rawError('Failed to retrieve backup item.', err);
    }
    if (!info) throw rawError('Failed to retrieve backup item.', `the backup "${key}" does not exist`);
    void reply
      .header('Content-Disposition', contentDisposition('attachment', key))
      .header('Content-Security-Policy', CSP)
      .header('Cache-Control', 'no-store');
    return serveContent(req, reply, {
      size: info.size,
      modified: info.modified,
      contentType: 'application/zip',
      open: (range) => f.read(key, range).catch((err: unknown) => Promise.reject(rawError('Failed to retrieve backup item.', err))),
    });
  });

  app.delete('/api/backups/:key', async (req, reply) => {
    requireAdmin(req);
    const key = (req.params as KeyParams).key ?? '';
    if (key !== '' && activeOperation(ctx) === key) throw badRequest('The backup is currently being used and cannot be deleted.');
    try {
      await withFs((f) => f.remove(key));
    } catch (err) {
      throw rawError('Invalid or already deleted backup file.', err);
    }
    auditBackup(ctx, 'delete', key);
    return reply.status(204).send();
  });

  app.post('/api/backups/:key/restore', async (req, reply) => {
    requireAdmin(req);
    if (activeOperation(ctx) !== undefined) throw badRequest(`${BUSY}`);
    const key = (req.params as KeyParams).key ?? '';
    const exists = isBackupKey(key) && (await withFs((f) => f.stat(key)).catch(() => null));
    if (!exists) throw badRequest('Missing or invalid backup file.');
    if (!ctx.restart) throw badRequest('Restore is not available in this mode.');
    if (!beginOperation(ctx, key)) throw badRequest(BUSY);

    let prepared;
    try {
      prepared = await prepareRestore(ctx, key);
    } catch (err) {
      endOperation(ctx);
      if (err instanceof InvalidArchiveError || err instanceof InvalidDatabaseError) {
        throw badRequest(`Failed to restore the backup: ${err.message}`);
      }
      throw rawError('Failed to restore the backup.', err);
    }

    // Answer first, then swap and restart (0.22 answers 204 and restarts a moment later);
    // requests arriving from now on wait for the restarted app.
    const answered = new Promise<void>((resolve) => {
      reply.raw.once('finish', resolve);
      reply.raw.once('close', resolve);
    });
    try {
      auditRestore(ctx, path.join(prepared.dir, 'data.db'), key);
    } catch (err) {
      endOperation(ctx);
      await prepared.discard();
      throw rawError('Failed to restore the backup.', err);
    }
    const plan = restorePlan(ctx.dataDir, prepared);
    ctx.restart(plan, answered).catch((err: unknown) => {
      void prepared.discard();
      logBackgroundError(ctx, 'Failed to restore the backup', err, { key });
    });
    return reply.status(204).send();
  });
}

function firstQuery(req: FastifyRequest, name: string): string {
  const v = (req.query as Record<string, unknown> | undefined)?.[name];
  const first = Array.isArray(v) ? v[0] : v;
  return typeof first === 'string' ? first.trim() : '';
}

/** Streams the multipart `file` field to `dest` (other parts are drained). */
async function receiveFile(req: FastifyRequest, dest: string, max: number): Promise<{ file: string; name: string }> {
  let name: string | null = null;
  try {
    for await (const part of req.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file' || name !== null) {
        part.file.resume();
        continue;
      }
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          size += chunk.length;
          cb(size > max ? new UploadTooLargeError() : null, chunk);
        },
      });
      await pipeline(part.file, counter, fs.createWriteStream(dest));
      if (part.file.truncated) throw new UploadTooLargeError();
      name = part.filename ?? '';
    }
  } catch (err) {
    if (err instanceof UploadTooLargeError || (err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new ApiError(413, 'Request entity too large.', { file: fieldError('validation_file_size_limit', `The maximum allowed backup size is ${max} bytes.`) });
    }
    if (err instanceof ApiError) throw err;
    throw badRequest(MISSING_UPLOAD, {}, err instanceof Error ? err.message : String(err));
  }
  if (name === null) throw badRequest(MISSING_UPLOAD);
  return { file: dest, name };
}

class UploadTooLargeError extends Error {}

/** A zip starts with a local file header (or, when empty, the end-of-central-directory record). */
async function looksLikeZip(file: string): Promise<boolean> {
  const fh = await fsp.open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await fh.read(head, 0, 4, 0);
    return bytesRead === 4 && head[0] === 0x50 && head[1] === 0x4b && ((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6));
  } finally {
    await fh.close();
  }
}
