// The project's own front end (pb_public, `--publicDir`) served at /, as PocketBase 0.22's prebuilt
// executable does (apis.StaticDirectoryHandler): the path unescaped and cleaned, a folder answered
// with its index.html, a missing file with the root index.html when `--indexFallback` (SPA routes),
// Go's ServeContent semantics (Last-Modified, preconditions, ranges; serve-content.ts).
// Beyond 0.22: /api/ and /_/ are never answered from the folder, a path whose real location is
// outside the folder (a symlink pointing out) is refused with a 404 and a console warning, only
// regular files are opened (never a FIFO or a device), caching as the dashboard's (HTML
// revalidated, hashed files under assets/ immutable, others an hour), and compression: a `.br` /
// `.gz` sibling the build wrote is sent as is, otherwise text is compressed on the fly
// (compression.ts). The dashboard's strict CSP is not applied: the app's own pages may need inline
// scripts; the secure headers every answer carries apply (security-headers.ts). A pb_hooks route
// with `$apis.staticDirectoryHandler(dir, indexFallback)` is served by the same code
// (serveFromFolder, from hook-routes.ts).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { ApiError } from '../core/errors';
import { serveContent } from './serve-content';

/** 0.22 answers a missing static file through its API error handler: the JSON envelope. */
const notFound = () => new ApiError(404, 'Not Found.');

/** Go's mime.TypeByExtension for what a web front end holds (Go's built-in table). */
const TYPES: Readonly<Record<string, string>> = {
  '.avif': 'image/avif',
  '.css': 'text/css; charset=utf-8',
  '.gif': 'image/gif',
  '.htm': 'text/html; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.ico': 'image/vnd.microsoft.icon',
  '.jpeg': 'image/jpeg',
  '.jpg': 'image/jpeg',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.mjs': 'text/javascript; charset=utf-8',
  '.mp3': 'audio/mpeg',
  '.mp4': 'video/mp4',
  '.otf': 'font/otf',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
  '.webm': 'video/webm',
  '.webmanifest': 'application/manifest+json',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.xml': 'text/xml; charset=utf-8',
};

/** A hashed build output name (Vite's `index-B4f3xYz1.js`, webpack's `main.3f2a1b4c.js`). */
const HASHED = /[-.](?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{8,}\.[A-Za-z0-9]+$/;

interface Found {
  file: string;
  stat: fs.Stats;
  /** The name relative to the folder (for the cache policy). */
  name: string;
}

type Lookup = Found | 'outside' | null;

/** The path's words under / that belong to the server, never to the folder. */
const reserved = (p: string) => /^\/+(?:api|_)(?:\/|$)/.test(p);

/** A folder served as 0.22's StaticDirectoryHandler serves it (pb_public, a hook's staticDirectoryHandler). */
export interface StaticFolder {
  root: string;
  /** A missing path answers the folder's index.html (SPA routes). */
  indexFallback: boolean;
  /** What the console warning names ("public", "pb_hooks"). */
  label: string;
  /** Paths already reported as leading out of the folder. */
  warned: Set<string>;
}

export const staticFolder = (dir: string, indexFallback: boolean, label: string): StaticFolder => ({ root: path.resolve(dir), indexFallback, label, warned: new Set() });

/**
 * Serves `decoded` (the request's path below the folder, already unescaped) from `folder`: the
 * path cleaned (no '..' climbs above the folder), a folder answered with its index.html, a missing
 * file with the root index.html when `indexFallback`, a path whose real location is outside the
 * folder refused with a 404. Null when the folder itself does not exist.
 */
export async function serveFromFolder(req: FastifyRequest, reply: FastifyReply, folder: StaticFolder, decoded: string): Promise<FastifyReply | null> {
  if (decoded.includes('\0')) throw notFound();
  let realRoot: string;
  try {
    realRoot = await fsp.realpath(folder.root);
  } catch {
    return null;
  }
  // path.Clean of a rooted path: no '..' can climb above the folder
  const name = path.posix.normalize(`/${decoded}`).slice(1);
  let found = await lookup(realRoot, name);
  if (found === 'outside') {
    // once per path, and a bounded set: requests cannot grow it without end
    if (!folder.warned.has(name) && folder.warned.size < 1000) {
      folder.warned.add(name);
      console.warn(`[${folder.label}] refused /${name}: it resolves outside ${folder.root} (a symlink pointing out of the folder)`);
    }
    throw notFound();
  }
  if (!found && folder.indexFallback) {
    const index = await lookup(realRoot, 'index.html');
    found = index === 'outside' ? null : index;
  }
  if (!found) throw notFound();
  return send(req, reply, found);
}

export function registerPublicDir(app: FastifyInstance, ctx: AppContext): void {
  const configured = ctx.options.publicDir;
  if (!configured) return;
  const folder = staticFolder(configured, ctx.options.indexFallback ?? true, 'public');

  app.get('/*', async (req, reply) => {
    const raw = req.url.split('?')[0];
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      throw notFound();
    }
    if (reserved(raw) || reserved(decoded) || decoded.includes('\0')) return reply.callNotFound();
    const served = await serveFromFolder(req, reply, folder, decoded);
    if (served) return served;
    // no public folder: / keeps sending to the dashboard, as without one
    if (raw === '/') return reply.redirect('/_/', 307);
    throw notFound();
  });
}

/** `name` inside the folder: a regular file, or a folder's index.html; 'outside' when it leads out. */
async function lookup(realRoot: string, name: string, depth = 0): Promise<Lookup> {
  let real: string;
  try {
    real = await fsp.realpath(path.join(realRoot, name));
  } catch {
    return null;
  }
  if (real !== realRoot && !real.startsWith(realRoot + path.sep)) return 'outside';
  const stat = await fsp.stat(real).catch(() => null);
  if (!stat) return null;
  if (stat.isDirectory()) return depth === 0 ? lookup(realRoot, path.posix.join(name, 'index.html'), 1) : null;
  return stat.isFile() ? { file: real, stat, name: path.relative(realRoot, real).split(path.sep).join('/') } : null;
}

function cacheControl(name: string, contentType: string): string {
  if (contentType.startsWith('text/html')) return 'no-cache';
  if (name.startsWith('assets/') && HASHED.test(name)) return 'public, max-age=31536000, immutable';
  return 'public, max-age=3600';
}

async function contentType(found: Found): Promise<string> {
  const known = TYPES[path.extname(found.file).toLowerCase()];
  if (known) return known;
  // Go sniffs the rest; text or bytes is what matters to a browser here
  const handle = await fsp.open(found.file, 'r');
  try {
    const head = Buffer.alloc(Math.min(found.stat.size, 512));
    await handle.read(head, 0, head.length, 0);
    const text = !head.includes(0) && Buffer.from(head.toString('utf8'), 'utf8').equals(head);
    return text ? 'text/plain; charset=utf-8' : 'application/octet-stream';
  } finally {
    await handle.close();
  }
}

/** Whether Accept-Encoding takes `encoding` (listed, or `*`, with a q above 0). */
function accepts(header: string, encoding: string): boolean {
  return header.split(',').some((part) => {
    const [token, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    if (token !== encoding && token !== '*') return false;
    const q = params.find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  });
}

/** A `.br` / `.gz` sibling the client accepts, as the build wrote it next to the file. */
async function precompressed(req: FastifyRequest, found: Found): Promise<{ file: string; stat: fs.Stats; encoding: string } | null> {
  if (req.headers.range) return null;
  const header = String(req.headers['accept-encoding'] ?? '');
  for (const [encoding, ext] of [['br', '.br'], ['gzip', '.gz']] as const) {
    if (!accepts(header, encoding)) continue;
    const file = found.file + ext;
    const stat = await fsp.lstat(file).catch(() => null);
    // a plain file beside the original (never a link), written with or after it
    if (stat?.isFile() && stat.mtimeMs >= found.stat.mtimeMs) return { file, stat, encoding };
  }
  return null;
}

async function send(req: FastifyRequest, reply: FastifyReply, found: Found): Promise<FastifyReply> {
  const type = await contentType(found);
  void reply.header('Cache-Control', cacheControl(found.name, type));
  const packed = await precompressed(req, found);
  if (packed) {
    // sent as the build wrote it: the compression hook leaves an encoded answer alone
    void reply.header('Content-Encoding', packed.encoding).header('Vary', 'Accept-Encoding');
    return serveContent(req, reply, {
      size: packed.stat.size,
      modified: found.stat.mtime,
      contentType: type,
      open: () => fs.createReadStream(packed.file),
    });
  }
  return serveContent(req, reply, {
    size: found.stat.size,
    modified: found.stat.mtime,
    contentType: type,
    open: (range) => fs.createReadStream(found.file, range ? { start: range.start, end: range.end } : {}),
  });
}
