// `npm run build` (second half): bundles the server (server/main.ts and everything it imports,
// dependencies included) into one ES module, dist-server/main.mjs, so starting it transpiles
// nothing and resolves almost no modules. Native addons stay external (loaded from node_modules).
// The bundle finds schemas/, screens/ and dist/ through server/paths.ts, from wherever it is started.
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

// `node scripts/build-server.mjs [outfile]` (a test builds a copy of its own)
const outfile = path.resolve(process.argv[2] ?? path.join(root, 'dist-server', 'main.mjs'));

await build({
  entryPoints: [path.join(root, 'server', 'main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // native addons, and the large SDKs the server loads on first use, come from node_modules at run time
  external: ['better-sqlite3', 'sharp', 'nodemailer', '@aws-sdk/*'],
  // CommonJS dependencies inside an ES module bundle still call require()
  banner: { js: "import { createRequire as __outpostRequire } from 'node:module'; const require = __outpostRequire(import.meta.url);" },
  legalComments: 'none',
  minify: false,
  keepNames: true,
  logLevel: 'warning',
});
