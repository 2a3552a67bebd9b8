// `npm run build` (second half): bundles the server (server/main.ts and everything it imports,
// dependencies included) into one CommonJS file, dist-server/server.cjs, plus a small launcher,
// dist-server/main.mjs, which runs it through V8's code cache (dist-server/server.cjs.cache,
// written after the first start): starting the server transpiles nothing, resolves almost no
// modules and, from the second start on, compiles almost nothing. Native addons and the large SDKs
// the server loads on first use stay external (node_modules). The bundle finds schemas/, screens/
// and dist/ through server/paths.ts, from wherever it is started.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

// Node built-ins a start never uses, loaded on first property access instead: Fastify requires
// http2, https (with tls) and dns at load for options this server never sets (http2, https,
// listening on a host name), and the read pool forks its first child on the first read. Loading
// them cost about 15 ms of every cold start on a 2-core machine. Only modules used through
// properties (never destructured at load, never called) may be listed.
const LAZY_BUILTINS = ['http2', 'https', 'dns', 'child_process'];
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    const filter = new RegExp(`^(node:)?(${LAZY_BUILTINS.join('|')})$`);
    b.onResolve({ filter }, (args) =>
      // the shim's own require is the real module
      args.namespace === 'lazy-builtin' ? { path: args.path, external: true } : { path: args.path.replace(/^node:/, ''), namespace: 'lazy-builtin' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      loader: 'js',
      contents: `let m; const load = () => (m ??= require('node:${args.path}'));
module.exports = new Proxy({}, {
  get: (_, k) => load()[k],
  has: (_, k) => k in load(),
  ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_, k) => { const d = Object.getOwnPropertyDescriptor(load(), k); return d && { ...d, configurable: true }; },
});`,
    }));
  },
};

// `node scripts/build-server.mjs [outdir]` (a test builds a copy of its own)
const outdir = path.resolve(process.argv[2] ?? path.join(root, 'dist-server'));
fs.mkdirSync(outdir, { recursive: true });

await build({
  entryPoints: [path.join(root, 'server', 'main.ts')],
  outfile: path.join(outdir, 'server.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['better-sqlite3', 'sharp', 'nodemailer', '@aws-sdk/*'],
  // @fastify/compress ships a userland copy of Node's streams (readable-stream 4, the same API);
  // Node's own saves evaluating it on every start
  alias: { 'readable-stream': 'node:stream' },
  // the sources are ES modules: import.meta.url is the bundle's own file URL
  define: { 'import.meta.url': '__outpostModuleUrl' },
  banner: { js: "var __outpostModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  legalComments: 'none',
  // less source to read and hash on every start (names stay: stack traces remain readable)
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  plugins: [lazyBuiltins],
});
// the read pool's child processes (server/db/database.ts looks for read-worker next to itself)
await build({
  entryPoints: [path.join(root, 'server', 'db', 'read-worker.ts')],
  outfile: path.join(outdir, 'read-worker.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['better-sqlite3'],
  define: { 'import.meta.url': '__outpostModuleUrl' },
  banner: { js: "var __outpostModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  legalComments: 'none',
  logLevel: 'warning',
});
// an old cache belongs to an old bundle
fs.rmSync(path.join(outdir, 'server.cjs.cache'), { force: true });
fs.copyFileSync(path.join(root, 'scripts', 'server-launcher.mjs'), path.join(outdir, 'main.mjs'));
