// Compression of API answers: brotli or gzip by negotiation for JSON and text bodies above 1 KB.
// Never for event streams (realtime must flush each message), partial content (206 ranges are byte
// offsets of the identity body; @fastify/compress skips them) or stored files (/api/files routes opt
// out: their Range and Content-Length must describe the file as stored). Dashboard assets are
// precompressed at build time (vite-plugin-precompress.ts) and served as they are.
import type { FastifyInstance } from 'fastify';
import fastifyCompress from '@fastify/compress';

const COMPRESS_THRESHOLD = 1024;
/**
 * Bodies up to this size are compressed in one synchronous call rather than through a zlib stream
 * on the thread pool: for a page of records (10 KB of JSON: ~0.05 ms of brotli) the stream's
 * set-up cost several times the compression itself. The plugin's default shrinks with the core
 * count (8 KB on two cores), which sent the usual list page down the stream path.
 */
const SYNC_THRESHOLD = 64 * 1024;
const COMPRESSIBLE = /^(?:application\/(?:[\w.+-]*\+)?json|application\/javascript|text\/(?!event-stream)[\w.+-]+|image\/svg\+xml)(?:;|$)/i;

/** Registers compression; call before any route is added (it hooks route registration). */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  // Runs before the plugin's own onRoute hook: request bodies are never inflated (a compressed
  // upload is not part of the 0.22 API, and inflating would sidestep the body limit), stored files
  // are never compressed.
  app.addHook('onRoute', (route) => {
    route.decompress = false;
    // the health probe's answer is a few bytes: it skips the compression hook altogether (whose
    // first run loads the fetch API's Response class, a cost a cold start should not pay)
    if (route.url.startsWith('/api/files/') || route.url === '/api/health') route.compress = false;
  });
  await app.register(fastifyCompress, {
    global: true,
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip'],
    customTypes: COMPRESSIBLE,
    syncThreshold: SYNC_THRESHOLD,
  });
}
