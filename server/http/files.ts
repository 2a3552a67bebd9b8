// /api/files (PocketBase 0.22's apis/file.go and filesystem.Serve): short-lived file tokens, and
// record files served with their stored content type, inline or as attachments, with Range,
// Last-Modified and cache headers, and thumbs generated once on demand. A file found and allowed
// is sent without X-Frame-Options, so PDFs and images embed (0.22 drops it there too).
//
// Protected files ignore the Authorization header: only `?token=` counts, as an admin or record
// *file* token (an auth token is not one); without a valid one the caller is a guest and the
// collection's viewRule decides. A file is only ever served when the record's file field names it,
// and every key goes through the storage's checked segments, so '..', NUL or encoded slashes in the
// URL cannot reach outside the storage directory (or bucket). Files come from where the settings
// say now (../services/storage.ts); a storage that fails is logged and answered 404, as 0.22 does.
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Collection } from '../collections/model';
import { findCollection } from '../collections/store';
import { findAdminByFileToken } from '../services/admins';
import { getStorage, type Storage, type StoredFile } from '../services/storage';
import { checkedKey, fileKey, thumbKey } from '../services/storage-keys';
import { DEFAULT_THUMB_SIZES, ensureThumb, THUMBABLE_CONTENT_TYPES } from '../services/thumbs';
import {
  decodeJwtUnverified,
  newAdminFileToken,
  newRecordFileToken,
  TOKEN_TYPE_ADMIN,
  TOKEN_TYPE_AUTH_RECORD,
} from '../services/tokens';
import type { RequestInfo } from '../query/record-resolver';
import { canAccessRecord, ruleAuthOf } from '../records/auth-store';
import { findAuthRecordByToken } from '../records/auth-tokens';
import { findFileRow, findViewFileOrigin } from '../records/file-rows';
import { ApiError, badRequest, notFound } from '../core/errors';
import { allowFraming } from './security-headers';
import { contentDisposition, serveContent } from './serve-content';
import { isFileField } from '../../src/fields/file/field';
import { downloadHook, hasFileTokenHooks, tokenWithHooks, type IssuedToken } from './file-hooks';

/** Content types a browser may show inline (0.22's inlineServeContentTypes). */
const INLINE_CONTENT_TYPES = new Set([
  'image/png', 'image/jpg', 'image/jpeg', 'image/gif', 'image/webp', 'image/x-icon', 'image/bmp',
  'video/webm', 'video/mp4', 'video/3gpp', 'video/quicktime', 'video/x-ms-wmv',
  'audio/basic', 'audio/aiff', 'audio/mpeg', 'audio/midi', 'audio/mp3', 'audio/wave',
  'audio/wav', 'audio/x-wav', 'audio/x-mpeg', 'audio/x-m4a', 'audio/aac',
  'application/pdf', 'application/x-pdf',
]);

/** Extensions whose sniffed type browsers would mishandle (0.22's manualExtensionContentTypes). */
const EXTENSION_CONTENT_TYPES: Record<string, string> = { '.svg': 'image/svg+xml', '.css': 'text/css' };

const CSP = "default-src 'none'; media-src 'self'; style-src 'unsafe-inline'; sandbox";
const CACHE_CONTROL = 'max-age=2592000, stale-while-revalidate=86400';
const FORBIDDEN_FILE = 'Insufficient permissions to access the file resource.';

type Params = { collection?: string; recordId?: string; filename?: string };

export function registerFiles(app: FastifyInstance, ctx: AppContext): void {
  const tokenHooks = hasFileTokenHooks(ctx);
  app.post('/api/files/token', async (req) => {
    const issued = issueFileToken(ctx, req);
    if (tokenHooks) return tokenWithHooks(ctx, req, issued);
    if (!issued.model) throw badRequest('Failed to generate file token.');
    return { token: issued.token };
  });

  // HEAD first, so Fastify does not derive one from GET (which would zero Content-Length)
  app.head('/api/files/:collection/:recordId/:filename', async (req, reply) => serveFile(ctx, req, reply));
  app.get('/api/files/:collection/:recordId/:filename', async (req, reply) => serveFile(ctx, req, reply));
}

/** A file token for the signed-in admin or auth record (0.22's fileToken before its hooks); no model for anyone else. */
function issueFileToken(ctx: AppContext, req: FastifyRequest): IssuedToken {
  const settings = ctx.settings.get();
  const auth = req.auth;
  if (auth?.kind === 'admin' && auth.admin) {
    const admin = ctx.admins.findById(String(auth.admin.id));
    if (admin) return { model: { admin }, token: newAdminFileToken(settings, admin) };
  } else if (auth?.kind === 'authRecord' && auth.record && auth.collectionId) {
    const tokenKey = String(auth.record.tokenKey ?? '');
    if (tokenKey) {
      const token = newRecordFileToken(settings, { id: String(auth.record.id), tokenKey, collectionId: auth.collectionId });
      return { model: { record: auth.record, collectionId: auth.collectionId }, token };
    }
  }
  return { model: null, token: '' };
}

async function serveFile(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const { collection: collParam = '', recordId = '', filename = '' } = req.params as Params;
  const collection = collParam ? findCollection(ctx, collParam) : undefined;
  if (!collection || !recordId || !filename || !isPlainName(filename)) throw notFound();

  const row = findFileRow(ctx, collection, recordId);
  if (!row) throw notFound();
  const field = collection.schema.find((f) => isFileField(f) && fileNames(row[f.name]).includes(filename));
  if (!field) throw notFound();

  if (field.options?.protected === true && !canViewProtected(ctx, req, collection, row.id)) {
    throw new ApiError(403, FORBIDDEN_FILE);
  }

  // a view's files live with the record they come from
  let owner = { collectionId: collection.id, recordId: String(row.id) };
  if (collection.type === 'view') {
    const origin = findViewFileOrigin(ctx, filename);
    if (!origin) throw notFound();
    owner = origin;
  }

  const storage = getStorage(ctx);
  let originalKey: string;
  try {
    originalKey = fileKey(owner.collectionId, owner.recordId, filename);
  } catch {
    throw notFound();
  }
  const thumb = firstQueryValue(req, 'thumb');
  const sizes = [...DEFAULT_THUMB_SIZES, ...stringList(field.options?.thumbs)];
  const thumbAsked = !!thumb && sizes.includes(thumb);
  const original = await fileInfo(storage, originalKey);
  // 0.22 reads the original's attributes for a thumb before it lets files be framed
  if (!original && thumbAsked) throw notFound();
  allowFraming(reply);
  if (!original) throw notFound();

  let servedKey = originalKey;
  let servedName = filename;
  let served = original;

  if (thumbAsked && THUMBABLE_CONTENT_TYPES.includes(original.contentType)) {
    servedName = `${thumb}_${filename}`;
    try {
      const key = thumbKey(owner.collectionId, owner.recordId, filename, thumb);
      const made = await ensureThumb(storage, originalKey, key, thumb, original.contentType);
      const info = made && (await withContentType(storage, key, made));
      if (info) {
        servedKey = key;
        served = info;
      }
    } catch (err) {
      // 0.22 falls back to the original when a thumb cannot be made
      console.error('[files] thumb generation failed:', err instanceof Error ? err.message : err);
    }
  }

  const hooked = await downloadHook(ctx, req, collection, row, field, { servedPath: servedKey, servedName });
  if (hooked) {
    // what the handlers left: another stored file (0.22's storage key) or another name
    servedName = hooked.servedName;
    const chosen = checkedKey(hooked.servedPath);
    if (chosen !== servedKey) {
      const info = chosen ? await fileInfo(storage, chosen) : null;
      if (!chosen || !info) throw notFound();
      servedKey = chosen;
      served = info;
    }
  }

  return sendFile(req, reply, storage, servedKey, servedName, served);
}

// ---------------------------------------------------------------------------------------------
// access

function canViewProtected(ctx: AppContext, req: FastifyRequest, collection: Collection, recordId: unknown): boolean {
  const token = (firstQueryValue(req, 'token') ?? '').trim();
  let isAdmin = false;
  let auth: Record<string, unknown> | null = null;
  if (token) {
    const claims = decodeJwtUnverified(token);
    if (claims?.type === TOKEN_TYPE_ADMIN) {
      const admin = findAdminByFileToken(ctx.admins, ctx.settings.get(), token);
      // a scoped admin's token passes the rule only on a collection its role reads; elsewhere
      // it is a guest's
      isAdmin = !!admin && ctx.roles.accessOf(admin.id).records(collection, 'read');
    } else if (claims?.type === TOKEN_TYPE_AUTH_RECORD) {
      const found = findAuthRecordByToken(ctx, token, 'recordFileToken');
      if (found) auth = ruleAuthOf(found.collection, found.row);
    }
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'authorization') headers[k] = v;
  const info: RequestInfo = {
    method: req.method,
    query: (req.query ?? {}) as Record<string, unknown>,
    headers,
    data: {},
    auth,
    isAdmin,
    context: 'protectedFile',
  };
  return canAccessRecord(ctx, collection, recordId, collection.viewRule, info);
}

// ---------------------------------------------------------------------------------------------
// records and their file names

function stringList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

/** The file names a stored file field value holds (a JSON array, or one plain name). */
function fileNames(value: unknown): string[] {
  if (typeof value !== 'string' || value === '') return [];
  if (value.startsWith('[')) {
    try {
      return stringList(JSON.parse(value));
    } catch {
      return [];
    }
  }
  return [value];
}


/** A single, harmless path segment (anything else can never be a stored file name). */
function isPlainName(name: string): boolean {
  // eslint-disable-next-line no-control-regex
  return name.length <= 255 && name !== '.' && name !== '..' && !/[/\\\u0000-\u001f]/.test(name);
}

function firstQueryValue(req: FastifyRequest, key: string): string | undefined {
  const v = (req.query as Record<string, unknown> | undefined)?.[key];
  const first = Array.isArray(v) ? v[0] : v;
  return typeof first === 'string' ? first : undefined;
}

// ---------------------------------------------------------------------------------------------
// serving

/** Size, date and the stored content type (else sniffed); null when missing or when the storage fails (logged). */
async function fileInfo(storage: Storage, key: string): Promise<StoredFile | null> {
  try {
    const stat = await storage.stat(key);
    return stat && (await withContentType(storage, key, stat));
  } catch (err) {
    console.error(`[files] ${storage.kind} storage failed to read ${key}:`, err instanceof Error ? err.message : err);
    return null;
  }
}

/** `stat` with a content type: the stored one, else sniffed from the first bytes. */
async function withContentType(storage: Storage, key: string, stat: StoredFile): Promise<StoredFile> {
  return stat.contentType ? stat : { ...stat, contentType: await sniffContentType(storage, key, stat.size) };
}

async function sniffContentType(storage: Storage, key: string, size: number): Promise<string> {
  let head = Buffer.alloc(0);
  if (size > 0) {
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.open(key, { start: 0, end: Math.min(size, 4100) - 1 })) chunks.push(chunk as Buffer);
    head = Buffer.concat(chunks);
  }
  try {
    const { fileTypeFromBuffer } = await import('file-type');
    const detected = await fileTypeFromBuffer(head);
    if (detected) return detected.mime;
  } catch {
    // fall through to the text check
  }
  if (head.length === 0) return 'text/plain; charset=utf-8';
  const looksText = !head.includes(0) && Buffer.from(head.toString('utf8'), 'utf8').equals(head);
  return looksText ? 'text/plain; charset=utf-8' : 'application/octet-stream';
}

/** strconv.ParseBool's true values. */
const isTrue = (v: string | undefined) => v !== undefined && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v);

/** 0.22's filesystem.Serve: disposition, type, sandboxing CSP and cache, then Go's ServeContent. */
async function sendFile(req: FastifyRequest, reply: FastifyReply, storage: Storage, key: string, name: string, info: StoredFile): Promise<FastifyReply> {
  const forceAttachment = isTrue(firstQueryValue(req, 'download'));
  const disposition = !forceAttachment && INLINE_CONTENT_TYPES.has(info.contentType) ? 'inline' : 'attachment';
  void reply
    .header('Content-Disposition', contentDisposition(disposition, name))
    .header('Content-Security-Policy', CSP)
    .header('Cache-Control', CACHE_CONTROL);
  try {
    return await serveContent(req, reply, {
      size: info.size,
      modified: info.modified,
      contentType: EXTENSION_CONTENT_TYPES[path.extname(name)] ?? info.contentType,
      open: (range) => storage.open(key, range),
    });
  } catch (err) {
    // gone since it was found, or the storage failed: 0.22's Serve error is a 404
    if (reply.sent) throw err;
    console.error(`[files] ${storage.kind} storage failed to serve ${key}:`, err instanceof Error ? err.message : err);
    for (const h of ['Content-Disposition', 'Content-Security-Policy', 'Cache-Control', 'Content-Range', 'Accept-Ranges', 'Last-Modified']) reply.removeHeader(h);
    throw notFound();
  }
}
