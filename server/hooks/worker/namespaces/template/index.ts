// `$template`: 0.22's template registry (tools/template): `loadFiles(...paths)` and
// `loadString(text)` parse Go html/template text once per executor (cached by the file names or
// the text, a parse error included) and return a renderer whose `render(data)` runs it with the
// handler's data; `addFuncs({name: fn})` adds functions for the templates parsed after it, beside
// Go's built-ins and 0.22's `raw`. As in Go, the files are parsed in order, each a template named
// by its base name (the first one is run; a later `{{define}}` replaces an earlier one unless it is
// empty), and a missing file fails as Go's os.ReadFile does. `loadFS` is not supported.
import fs from 'node:fs';
import path from 'node:path';
import { namespace } from '../../../../migrations/js-unsupported';
import { execute, type Funcs, type TemplateSet } from './exec';
import { BUILTINS, LAZY } from './funcs';
import { isEmptyTree, type Tree } from './nodes';
import { parseTemplate } from './parse';

class Renderer {
  readonly #set: TemplateSet | null;
  readonly #name: string;
  readonly #error: Error | null;

  constructor(set: TemplateSet | null, name: string, error: Error | null) {
    this.#set = set;
    this.#name = name;
    this.#error = error;
  }

  /** Runs the template with `data` as its dot; throws its parse or execution error. */
  render(data?: unknown): string {
    if (this.#error) throw new Error(this.#error.message);
    try {
      return execute(this.#set!, this.#name, data);
    } catch (err) {
      throw new Error(err instanceof Error ? err.message : String(err));
    }
  }
}

/** Adds a parsed text's trees to a set: a later definition replaces an earlier one unless it is empty. */
function associate(trees: Map<string, Tree>, parsed: Map<string, Tree>): void {
  for (const [name, tree] of parsed) {
    if (trees.has(name) && isEmptyTree(tree.root)) continue;
    trees.set(name, tree);
  }
}

/** Go's os.ReadFile error text. */
function readError(file: string, err: NodeJS.ErrnoException): Error {
  const reason: Record<string, string> = { ENOENT: 'no such file or directory', EACCES: 'permission denied', ENOTDIR: 'not a directory' };
  if (err.code === 'EISDIR') return new Error(`read ${file}: is a directory`);
  return new Error(`open ${file}: ${reason[err.code ?? ''] ?? err.message}`);
}

export function templateNamespace(): object {
  const funcs: Funcs = new Map();
  const cache = new Map<string, Renderer>();
  const hasFunction = (current: Funcs) => (name: string) => current.has(name) || name in BUILTINS || LAZY.has(name);

  const load = (key: string, parse: (set: TemplateSet) => string): Renderer => {
    let found = cache.get(key);
    if (!found) {
      // the functions as they are now: a later addFuncs does not change what was parsed
      const set: TemplateSet = { trees: new Map(), funcs: new Map(funcs) };
      try {
        const name = parse(set);
        found = new Renderer(set, name, null);
      } catch (err) {
        found = new Renderer(null, '', err instanceof Error ? err : new Error(String(err)));
      }
      cache.set(key, found);
    }
    return found;
  };

  const registry: Record<string, unknown> = {
    loadFiles(...files: unknown[]): Renderer {
      const names = files.map(String);
      return load(`files:${names.join(',')}`, (set) => {
        if (!names.length) throw new Error('html/template: no files named in call to ParseFiles');
        for (const file of names) {
          let text: string;
          try {
            text = fs.readFileSync(file, 'utf8');
          } catch (err) {
            throw readError(file, err as NodeJS.ErrnoException);
          }
          associate(set.trees, parseTemplate(path.basename(file), text, hasFunction(set.funcs)));
        }
        return path.basename(names[0]);
      });
    },
    loadString(text: unknown): Renderer {
      const source = String(text ?? '');
      return load(`string:${source}`, (set) => {
        associate(set.trees, parseTemplate('', source, hasFunction(set.funcs)));
        return '';
      });
    },
    addFuncs(map: unknown): unknown {
      for (const [name, fn] of Object.entries((map ?? {}) as Record<string, unknown>)) {
        if (typeof fn !== 'function') throw new Error(`value for ${name} not a function`);
        funcs.set(name, fn as (...args: unknown[]) => unknown);
      }
      return proxy;
    },
  };
  const proxy = namespace('$template', registry);
  return proxy;
}
