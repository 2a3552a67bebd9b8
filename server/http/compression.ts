// Compression of API answers: brotli or gzip by negotiation for JSON and text bodies above 14 KB.
// Never for event streams (realtime must flush each message), partial content (206 ranges are byte
// offsets of the identity body; @fastify/compress skips them) or stored files (/api/files routes opt
// out: their Range and Content-Length must describe the file as stored). Dashboard assets are
// precompressed at build time (vite-plugin-precompress.ts) and served as they are.
import type { FastifyInstance } from 'fastify';
import fastifyCompress from '@fastify/compress';

/**
 * Smaller answers are sent as they are (0.22 compresses no API answer): one that fits in TCP's
 * initial congestion window (10 segments, about 14 KB) arrives in the same round trip either way,
 * while compressing it cost the main thread a tenth of a request (a page of 20 records, 3.8 KB:
 * throughput 0.65x the uncompressed server's with brotli, bench/throughput.ts). Typical list pages
 * are below it; exports, large pages and the collections list of a big schema are above.
 */
const COMPRESS_THRESHOLD = 14 * 1024;
/**
 * Whatever is compressed goes through a zlib stream, on libuv's thread pool: above the threshold
 * the compression (hundreds of microseconds of brotli) outweighs the stream's set-up, and the
 * main thread keeps serving meanwhile.
 */
const SYNC_THRESHOLD = 0;
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
