// Serves the built dashboard under /_/ (hash routing: one index.html) and sends / there.
// Security headers and the dashboard's CSP come from security-headers.ts.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { AppContext } from '../context';

export function registerDashboard(app: FastifyInstance, ctx: AppContext): void {
  const dir = ctx.options.dashboardDir ? path.resolve(ctx.options.dashboardDir) : null;
  // with a public folder (pb_public) / is its index.html (public-dir.ts)
  if (!ctx.options.publicDir) app.get('/', (_req, reply) => reply.redirect('/_/', 307));
  if (!dir || !fs.existsSync(path.join(dir, 'index.html'))) {
    app.get('/_/', (_req, reply) =>
      reply.type('text/plain').send('The dashboard is not built. Run `npm run build` (or `npm start`).'),
    );
    return;
  }
  // hashed bundles never change under their name: cached for a year, so nothing revalidates them,
  // and without ETag and Last-Modified (about 75 bytes of headers each; the sign-in page fetches a
  // dozen of them and counts every byte against its 150 KB)
  const assets = path.join(dir, 'assets');
  if (fs.existsSync(assets)) {
    void app.register(fastifyStatic, {
      root: assets,
      prefix: '/_/assets/',
      decorateReply: false,
      index: false,
      etag: false,
      lastModified: false,
      preCompressed: true,
      setHeaders(res) {
        res.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
    });
  }
  void app.register(fastifyStatic, {
    root: dir,
    prefix: '/_/',
    index: false,
    maxAge: '1h',
    // the build writes .br and .gz next to each text asset (vite-plugin-precompress.ts); the
    // plugin picks one by Accept-Encoding and falls back to the file itself
    preCompressed: true,
    setHeaders(res, file) {
      // index.html must not be cached (it names the hashed bundles); hashed assets can be.
      if (/index\.html(\.br|\.gz)?$/.test(file)) res.header('Cache-Control', 'no-cache');
      else if (file.includes(`${path.sep}assets${path.sep}`)) res.header('Cache-Control', 'public, max-age=31536000, immutable');
    },
  });
  // With ignoreTrailingSlash the plugin's own index route does not match /_/; serve it here.
  app.get('/_/', (_req, reply) => reply.header('Cache-Control', 'no-cache').sendFile('index.html'));
}
