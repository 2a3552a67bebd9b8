// --hooksWatch: the pb_hooks folder watched, and the hooks reloaded in the running process when its
// files change (0.22 restarts the whole process, 50 ms after any change). Every folder is watched
// on its own (one inotify watch each), skipping hidden folders and node_modules as 0.22 does; Node's
// recursive fs.watch would also watch every file, node_modules included (3,000 files: 3,000 inotify
// watches and 150 ms of blocked start). Changes settle for `debounceMs`; then, unless the folder's
// files (names, sizes, dates; hidden files and node_modules left out, so an editor's swap file
// changes nothing) are as they were at the last load, `reload` runs, one at a time: a change made
// during a reload leads to one more.
import fs from 'node:fs';
import path from 'node:path';

/** 0.22's debounce. */
const DEBOUNCE_MS = 50;

const ignored = (name: string) => name.startsWith('.') || name === 'node_modules';

const isDir = (p: string) => {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** The folder's files, sub-folders included (hidden ones and node_modules left out): path, size, date. */
function folderFingerprint(dir: string): string {
  const parts: string[] = [];
  const walk = (folder: string, rel: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (ignored(e.name)) continue;
      const full = path.join(folder, e.name);
      if (e.isDirectory()) {
        walk(full, `${rel}${e.name}/`);
        continue;
      }
      try {
        const st = fs.statSync(full);
        parts.push(`${rel}${e.name}\0${st.size}\0${st.mtimeMs}`);
      } catch {
        /* gone meanwhile */
      }
    }
  };
  walk(dir, '');
  return parts.join('\n');
}

export interface HooksWatcher {
  /** The reload under way, if any (tests wait for it). */
  readonly reloading: Promise<void> | null;
  close(): void;
}

export interface WatchOptions {
  dir: string;
  /** Loads the files as they are now and puts them in place; its errors are its own to report. */
  reload(changed: string): Promise<void>;
  /** Runs before the files are compared (0.22's reference line written into a new empty file). */
  beforeCompare?(): void;
  debounceMs?: number;
}

/**
 * Watches `dir` (or, while it does not exist, its parent for it to appear) until `close`.
 * `reload` runs once the changes settled and the files differ from the last load.
 */
export function watchHooks(opts: WatchOptions): HooksWatcher {
  const root = path.resolve(opts.dir);
  const watchers = new Map<string, fs.FSWatcher>();
  let parentWatcher: fs.FSWatcher | null = null;
  let timer: NodeJS.Timeout | null = null;
  let lastChange = '';
  let closed = false;
  let reloading: Promise<void> | null = null;
  let again = false;
  opts.beforeCompare?.();
  let loaded = folderFingerprint(root);

  const settled = () => {
    timer = null;
    if (closed) return;
    if (reloading) {
      again = true;
      return;
    }
    opts.beforeCompare?.();
    const now = folderFingerprint(root);
    if (now === loaded) return;
    loaded = now;
    reloading = opts
      .reload(lastChange)
      .catch((err: unknown) => console.error(`[pb_hooks] reload failed: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        reloading = null;
        if (again && !closed) {
          again = false;
          settled();
        }
      });
  };

  const changed = (file: string) => {
    if (closed) return;
    lastChange = file;
    if (timer) clearTimeout(timer);
    timer = setTimeout(settled, opts.debounceMs ?? DEBOUNCE_MS);
  };

  const unwatch = (folder: string) => {
    for (const [p, w] of watchers) {
      if (p === folder || p.startsWith(folder + path.sep)) {
        w.close();
        watchers.delete(p);
      }
    }
  };

  /** Watches `folder` and the folders under it. */
  const watchTree = (folder: string) => {
    if (closed || watchers.has(folder)) return;
    let w: fs.FSWatcher;
    try {
      w = fs.watch(folder, { persistent: false }, (_event, name) => {
        if (!fs.existsSync(folder)) {
          // the folder went away (its watch with it): a root that comes back is waited for
          unwatch(folder);
          if (folder === root) waitForRoot();
          changed(folder);
          return;
        }
        if (!name || ignored(path.basename(name))) return;
        const full = path.join(folder, name);
        if (isDir(full)) watchTree(full);
        changed(full);
      });
    } catch {
      return; // gone already, or not readable
    }
    w.on('error', () => unwatch(folder));
    watchers.set(folder, w);
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true });
    } catch {
      /* gone meanwhile */
    }
    for (const e of entries) if (e.isDirectory() && !ignored(e.name)) watchTree(path.join(folder, e.name));
  };

  /** The hooks folder does not exist (yet): its parent is watched until it does. */
  const waitForRoot = () => {
    if (closed || parentWatcher) return;
    const parent = path.dirname(root);
    try {
      parentWatcher = fs.watch(parent, { persistent: false }, (_event, name) => {
        if (name !== path.basename(root) || !isDir(root)) return;
        parentWatcher?.close();
        parentWatcher = null;
        watchTree(root);
        changed(root);
      });
      parentWatcher.on('error', () => {
        parentWatcher?.close();
        parentWatcher = null;
      });
    } catch {
      /* no parent folder either: nothing to watch, as 0.22 */
    }
    // created between the check and the watch
    if (isDir(root) && parentWatcher) {
      parentWatcher.close();
      parentWatcher = null;
      watchTree(root);
      changed(root);
    }
  };

  if (isDir(root)) watchTree(root);
  else waitForRoot();

  return {
    get reloading() {
      return reloading;
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      for (const w of watchers.values()) w.close();
      watchers.clear();
      parentWatcher?.close();
      parentWatcher = null;
    },
  };
}
