// Evaluates the hook files in an executor, each as a CommonJS module of its own: its functions are
// real closures over the file's variables (0.22 re-compiles each handler alone, so they are not),
// and `require` resolves from the file's folder, then from the working directory as 0.22's does
// (its handlers' relative requires start there), with Node's built-ins and node_modules.
// `*.pb.ts` files are compiled by esbuild first (types stripped, not checked).
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

type Require = NodeJS.Require;

/** require() for code in `file`: from its folder first, then from `cwd`. */
function requireFor(file: string, cwd: string): Require {
  const own = createRequire(file);
  const fromCwd = createRequire(path.join(cwd, '__outpost_hooks__.js'));
  const req = ((id: string) => {
    try {
      return own(id);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND' || !(id.startsWith('./') || id.startsWith('../'))) throw err;
      return fromCwd(id);
    }
  }) as Require;
  return Object.assign(req, { resolve: own.resolve, cache: own.cache, main: own.main, extensions: own.extensions });
}

let esbuild: typeof import('esbuild') | null = null;

/** The file's JavaScript (a .ts file compiled, with an inline source map for its stack traces). */
function sourceOf(file: string, text: string): string {
  if (!file.endsWith('.ts')) return text;
  esbuild ??= createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  return esbuild.transformSync(text, { loader: 'ts', format: 'cjs', target: 'node20', sourcemap: 'inline', sourcefile: file }).code;
}

/** Runs one hook file (its text as read by the generation) as a module; its errors carry the file's own line numbers. */
export function evaluateFile(file: string, cwd: string, text: string): void {
  const fn = vm.compileFunction(sourceOf(file, text), ['exports', 'require', 'module', '__filename', '__dirname'], { filename: file });
  const module = { exports: {} as unknown };
  fn.call(module.exports, module.exports, requireFor(file, cwd), module, file, path.dirname(file));
}

/** The file and line of an error thrown while `file` ran, from its stack. */
export function placeOf(err: unknown, files: readonly string[]): string {
  const stack = String((err as { stack?: unknown } | null)?.stack ?? '');
  for (const file of files) {
    const at = new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(\\d+)`).exec(stack);
    if (at) return `${path.basename(file)}:${at[1]}`;
  }
  return '';
}
