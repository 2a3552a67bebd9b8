// The built server's entry (copied to dist-server/main.mjs by scripts/build-server.mjs): runs the
// CommonJS bundle next to it with its compiled code cached between starts. Compiling the 2 MB
// bundle is most of a cold start; with a cache V8 skips it.
// - Node 22.1+: Node's own compile cache (module.enableCompileCache), kept in
//   dist-server/.compile-cache, then a plain require.
// - Node 20: the bundle runs through vm.Script with V8's cachedData (dist-server/server.cjs.cache).
//   A script compiled this way loses its dynamic-import callback when V8 accepts the cache, so the
//   bundle holds no import() at all: the build turns every import() into a require and fails if
//   one is left. No importModuleDynamically is passed either, so a stray import() would fail on
//   the first start exactly as on later ones (tests run both), never only on the second.
// Either cache is written once, shortly after a start that had none (or whose cache was rejected,
// e.g. after a Node upgrade); a read-only install simply runs without.
import fs from 'node:fs';
import { createRequire, Module } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const dir = path.dirname(fileURLToPath(import.meta.url));
const file = path.join(dir, 'server.cjs');

if (typeof Module.enableCompileCache === 'function') {
  // a directory that cannot be written is reported in the result, not thrown: start uncached
  Module.enableCompileCache(path.join(dir, '.compile-cache'));
  createRequire(import.meta.url)(file);
} else {
  runWithV8Cache();
}

function runWithV8Cache() {
  const cacheFile = `${file}.cache`;
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'utf8')), { filename: file, cachedData });
  const module = { exports: {}, filename: file, id: file, loaded: false };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dir);
  if (cachedData && !script.cachedDataRejected) return;

  const writeCache = () => {
    try {
      // write then rename: servers starting together never read a half-written cache
      const tmp = `${cacheFile}.${process.pid}`;
      fs.writeFileSync(tmp, script.createCachedData());
      fs.renameSync(tmp, cacheFile);
    } catch {
      /* read-only install: run without a cache */
    }
  };
  // once start-up is over, so the functions it ran are in the cache too; or at exit if that comes
  // first (a server stopped right after it answered its first request)
  const atExit = () => {
    clearTimeout(timer);
    writeCache();
  };
  const timer = setTimeout(() => {
    process.off('exit', atExit);
    writeCache();
  }, 3000).unref();
  process.once('exit', atExit);
}
