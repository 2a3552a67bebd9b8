// /api/files (PocketBase 0.22's apis/file.go and filesystem.Serve): short-lived file tokens, and
// record files served with their stored content type, inline or as attachments, with Range,
// Last-Modified and cache headers, and thumbs generated once on demand. A file found and allowed
// is sent without X-Frame-Options, so PDFs and images embed (0.22 drops it there too).
//
// Protected files ignore the Authorization header: only `?token=` counts, as an admin or record
// *file* token (an auth token is not one); without a valid one the caller is a guest and the
// collection's viewRule decides. A file is only ever served when the record's file field names it,
// and every path goes through the storage service's checked segments, so '..', NUL or encoded
// slashes in the URL cannot reach outside the storage directory.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Collection } from '../collections/model';
import { findCollection } from '../collections/store';
import { findAdminByFileToken } from '../services/admins';
import { getStorage, isSafeSegment } from '../services/storage';
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
  let originalPath: string;
  try {
    originalPath = storage.path(owner.collectionId, owner.recordId, filename);
  } catch {
    throw notFound();
  }
  const thumb = firstQueryValue(req, 'thumb');
  const sizes = [...DEFAULT_THUMB_SIZES, ...stringList(field.options?.thumbs)];
  const thumbAsked = !!thumb && sizes.includes(thumb);
  const original = await fileInfo(originalPath);
  // 0.22 reads the original's attributes for a thumb before it lets files be framed
  if (!original && thumbAsked) throw notFound();
  allowFraming(reply);
  if (!original) throw notFound();

  let servedPath = originalPath;
  let servedName = filename;
  let served = original;

  if (thumbAsked && THUMBABLE_CONTENT_TYPES.includes(original.contentType)) {
    servedName = `${thumb}_${filename}`;
    try {
      const thumbPath = storage.thumbPath(owner.collectionId, owner.recordId, filename, thumb);
      await ensureThumb(originalPath, thumbPath, thumb, original.contentType);
      const info = await fileInfo(thumbPath);
      if (info) {
        servedPath = thumbPath;
        served = info;
      }
    } catch (err) {
      // 0.22 falls back to the original when a thumb cannot be made
      console.error('[files] thumb generation failed:', err instanceof Error ? err.message : err);
    }
  }

  const hooked = await downloadHook(ctx, req, collection, row, field, { servedPath: storageKey(storage.root, servedPath), servedName });
  if (hooked) {
    // what the handlers left: another stored file (0.22's storage key) or another name
    servedName = hooked.servedName;
    const chosen = keyPath(storage.root, hooked.servedPath);
    if (chosen !== servedPath) {
      const info = chosen ? await fileInfo(chosen) : null;
      if (!chosen || !info) throw notFound();
      servedPath = chosen;
      served = info;
    }
  }

  return sendFile(req, reply, servedPath, servedName, served);
}

/** 0.22's storage key of a file: its path under the storage root, with forward slashes. */
const storageKey = (root: string, p: string) => path.relative(root, p).split(path.sep).join('/');

/** The file a storage key names, when every segment of it is a plain name; null otherwise. */
function keyPath(root: string, key: string): string | null {
  const segments = key.split('/').filter((s) => s !== '');
  if (segments.length === 0 || !segments.every(isSafeSegment)) return null;
  return path.join(root, ...segments);
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
      isAdmin = !!findAdminByFileToken(ctx.admins, ctx.settings.get(), token);
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

interface FileInfo {
  size: number;
  mtime: Date;
  contentType: string;
}

/** Size, mtime and the stored content type (the `.attrs` sidecar, else sniffed); null when missing. */
async function fileInfo(p: string): Promise<FileInfo | null> {
  let st: fs.Stats;
  try {
    st = await fsp.stat(p);
  } catch {
    return null;
  }
  if (!st.isFile()) return null;
  let contentType = '';
  try {
    const attrs = JSON.parse(await fsp.readFile(p + '.attrs', 'utf8')) as Record<string, unknown>;
    if (typeof attrs['user.content_type'] === 'string') contentType = attrs['user.content_type'];
  } catch {
    // no sidecar (a file put there by hand): sniff it
  }
  if (!contentType) contentType = await sniffContentType(p, st.size);
  return { size: st.size, mtime: st.mtime, contentType };
}

async function sniffContentType(p: string, size: number): Promise<string> {
  const handle = await fsp.open(p, 'r');
  let head: Buffer;
  try {
    head = Buffer.alloc(Math.min(size, 4100));
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
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
function sendFile(req: FastifyRequest, reply: FastifyReply, filePath: string, name: string, info: FileInfo): Promise<FastifyReply> {
  const forceAttachment = isTrue(firstQueryValue(req, 'download'));
  const disposition = !forceAttachment && INLINE_CONTENT_TYPES.has(info.contentType) ? 'inline' : 'attachment';
  void reply
    .header('Content-Disposition', contentDisposition(disposition, name))
    .header('Content-Security-Policy', CSP)
    .header('Cache-Control', CACHE_CONTROL);
  return serveContent(req, reply, {
    size: info.size,
    modified: info.mtime,
    contentType: EXTENSION_CONTENT_TYPES[path.extname(name)] ?? info.contentType,
    open: (range) => fs.createReadStream(filePath, range),
  });
}
