// `npm run build` (second half): bundles the server (server/main.ts and everything it imports,
// dependencies included) into one CommonJS file, dist-server/server.cjs, plus a small launcher,
// dist-server/main.mjs, which runs it with its compiled code cached between starts (see the
// launcher): starting the server transpiles nothing, resolves almost no modules and, from the
// second start on, compiles almost nothing. Native addons and the large SDKs the server loads on
// first use stay external (node_modules). The bundle finds schemas/, screens/ and dist/ through
// server/paths.ts, from wherever it is started.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

// Bundled packages a start never uses, loaded on first use instead (each shim stands in for its
// module and requires it the first time one of its exports is touched or called). Together they
// cost about 15 ms of every cold start on a 2-core machine (Node built-ins were shimmed too, but
// that saved under 5 ms, within the noise, and is no longer done). Only modules used in the way
// their entry says may be listed:
// - 'object': used through properties, never destructured at load;
// - 'function': the module is a function, called (and its properties read) only later;
// - a list of names: destructured at load, each name a function called only later.
const LAZY = {
  // @fastify/static lists files with glob only for `wildcard: false` (never set here)
  glob: ['glob'],
  // @fastify/send builds its HTTP errors with it, on error paths only
  'http-errors': 'function',
  // @fastify/compress looks a type up in it only when our own type pattern does not match
  'mime-db': 'object',
};

/** The shim's source: `target` (what the importer would have loaded) required on first use. */
function lazyShim(kind, target) {
  const load = `let m; const load = () => (m ??= require(${JSON.stringify(target)}));`;
  if (Array.isArray(kind)) {
    return `${load}\n${kind.map((k) => `exports[${JSON.stringify(k)}] = function (...a) { return load()[${JSON.stringify(k)}].apply(this, a); };`).join('\n')}`;
  }
  const traps = `get: (_, k) => load()[k],
  has: (_, k) => k in load(),
  ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_, k) => { const d = Object.getOwnPropertyDescriptor(load(), k); return d && { ...d, configurable: true }; },`;
  if (kind === 'function') {
    // an arrow function target: no own non-configurable keys to contradict the real module's
    return `${load}\nmodule.exports = new Proxy(() => {}, {\n  ${traps}\n  apply: (_, self, a) => load().apply(self, a),\n});`;
  }
  return `${load}\nmodule.exports = new Proxy({}, {\n  ${traps}\n});`;
}

const lazyModules = {
  name: 'lazy-modules',
  setup(b) {
    const filter = new RegExp(`^(${Object.keys(LAZY).join('|')})$`);
    b.onResolve({ filter }, async (args) => {
      // the shim's own require (and the lookup of its target) get the real module
      if (args.pluginData?.lazyTarget || args.namespace === 'lazy') return undefined;
      // the package the importer would get (a nested version included), bundled under the shim
      const real = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: { lazyTarget: true } });
      if (real.errors.length) return { errors: real.errors };
      return { path: real.path, namespace: 'lazy', pluginData: { name: args.path } };
    });
    b.onResolve({ filter: /.*/, namespace: 'lazy' }, (args) => ({ path: args.path }));
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, (args) => ({
      loader: 'js',
      resolveDir: root,
      contents: lazyShim(LAZY[args.pluginData.name], args.path),
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
  // the SQLite driver's JavaScript is bundled, its addon is not (server/db/database.ts names it);
  // acme-client (and its HTTP client and crypto) and @peculiar/x509 load only when serve gets TLS
  // (server/tls/acme-order.ts, alpn-certificate.ts); nats only with --natsUrl (server/cluster/nats-channel.ts)
  external: ['*.node', 'sharp', 'nodemailer', '@aws-sdk/*', 'acme-client', '@peculiar/x509', 'nats'],
  // every import() becomes a require (the external packages are CommonJS, and Node 20.19+ requires
  // ES modules too): the Node 20 launcher's cached script has no dynamic-import callback
  supported: { 'dynamic-import': false },
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
  plugins: [lazyModules],
});
// the read pool's child processes (server/db/read-pool.ts looks for read-worker next to itself)
await build({
  entryPoints: [path.join(root, 'server', 'db', 'read-worker.ts')],
  outfile: path.join(outdir, 'read-worker.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['*.node'],
  define: { 'import.meta.url': '__outpostModuleUrl' },
  banner: { js: "var __outpostModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  legalComments: 'none',
  logLevel: 'warning',
});
// the pb_hooks executors' worker threads (server/hooks/pool.ts looks for hooks-executor next to itself)
await build({
  entryPoints: [path.join(root, 'server', 'hooks', 'executor.ts')],
  outfile: path.join(outdir, 'hooks-executor.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // esbuild compiles *.pb.ts files when a project has them; acorn reads hook handlers (loaded
  // only when a project has hooks, and its messages name import() in text)
  external: ['*.node', 'esbuild', 'acorn'],
  define: { 'import.meta.url': '__outpostModuleUrl' },
  banner: { js: "var __outpostModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  legalComments: 'none',
  logLevel: 'warning',
});
// a dynamic import() left in the bundle would throw in the Node 20 launcher: refuse to build one
// (the read pool's children run read-worker.cjs as a plain file, where import() works)
const code = fs.readFileSync(path.join(outdir, 'server.cjs'), 'utf8');
const at = code.search(/(?<![\w$.])import\s*\(/);
if (at >= 0) throw new Error(`server.cjs still holds a dynamic import(): …${code.slice(Math.max(0, at - 80), at + 80)}…`);
// an old cache belongs to an old bundle
fs.rmSync(path.join(outdir, 'server.cjs.cache'), { force: true });
fs.rmSync(path.join(outdir, '.compile-cache'), { recursive: true, force: true });
fs.copyFileSync(path.join(root, 'scripts', 'server-launcher.mjs'), path.join(outdir, 'main.mjs'));
