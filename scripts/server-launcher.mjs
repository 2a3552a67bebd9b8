// The built server's entry (copied to dist-server/main.mjs by scripts/build-server.mjs): runs the
// CommonJS bundle next to it through V8's code cache. Compiling the 3 MB bundle is most of a cold
// start; with the cache V8 skips it. The cache is written once, shortly after a start that had none
// (or whose cache V8 rejected, e.g. after a Node upgrade); a read-only install simply runs without.
import fs from 'node:fs';
import { createRequire, Module } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const dir = path.dirname(fileURLToPath(import.meta.url));
const file = path.join(dir, 'server.cjs');
const cacheFile = `${file}.cache`;

let cachedData;
try {
  cachedData = fs.readFileSync(cacheFile);
} catch {
  cachedData = undefined;
}
const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'utf8')), {
  filename: file,
  cachedData,
  // dynamic import() of the external packages loaded on first use
  importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
const module = { exports: {}, filename: file, id: file, loaded: false };
script.runInThisContext()(module.exports, createRequire(file), module, file, dir);

if (!cachedData || script.cachedDataRejected) {
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
  // once start-up is over, so the functions it ran are in the cache too; or at exit if that
  // comes first (a server stopped right after it answered its first request)
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
