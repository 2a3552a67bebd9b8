// Build step: writes a brotli (.br) and a gzip (.gz) copy next to every text asset of the built
// dashboard, once, at maximum compression; the server's static handler picks one by the request's
// Accept-Encoding (@fastify/static preCompressed), so no asset is compressed per request.
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const TEXT_EXTENSIONS = new Set(['.html', '.js', '.mjs', '.css', '.svg', '.json', '.txt', '.xml', '.map', '.webmanifest', '.ico']);
/** Below this a compressed copy saves too little to be worth a file. */
const MIN_BYTES = 512;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

function listFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? listFiles(p) : [p];
  });
}

/** Compresses the text files of `dir` in place (file.br, file.gz); returns how many it wrote. */
export async function precompressDir(dir: string): Promise<number> {
  const files = listFiles(dir).filter((f) => TEXT_EXTENSIONS.has(path.extname(f)) && fs.statSync(f).size >= MIN_BYTES);
  await Promise.all(
    files.map(async (file) => {
      const data = await fs.promises.readFile(file);
      const [br, gz] = await Promise.all([
        brotli(data, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        }),
        gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      await fs.promises.writeFile(`${file}.br`, br);
      await fs.promises.writeFile(`${file}.gz`, gz);
    }),
  );
  return files.length;
}

export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'outpost-precompress',
    apply: 'build',
    configResolved(c) {
      config = c;
    },
    async closeBundle() {
      await precompressDir(path.resolve(config.root, config.build.outDir));
    },
  };
}
