// Build step: a tiny classic script <head> loads before the app's module script, for what cannot
// wait for the app's code to arrive and run:
//  - the stored theme choice (`data-theme` on <html>) before the first paint: main.tsx applies it
//    too, but on a slow connection a dark-mode admin saw the page painted white first;
//  - on #/collections, the collections list request (src/lib/boot/early-collections.ts), which every
//    records request waits for.
// The CSP forbids inline scripts (script-src 'self'), so it is an external file, content-hashed under
// assets/ (served immutable, cached), loaded blocking at the top of <head>.
import crypto from 'node:crypto';
import type { Plugin, ResolvedConfig } from 'vite';
import { THEME_STORAGE_KEY } from '../src/lib/theme-key.js';
import { ADMIN_AUTH_STORAGE_KEY, AUTH_STORAGE_KEY } from '../src/lib/auth-keys.js';
import { EARLY_COLLECTIONS_GLOBAL, EARLY_COLLECTIONS_QUERY, startEarlyCollections } from '../src/lib/boot/early-collections.js';

/** The theme: only 'dark' / 'light' are applied; storage that throws (disabled) follows the system. */
const THEME = `try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t==="dark"||t==="light")document.documentElement.dataset.theme=t}catch(e){}\n`;
const args = [[AUTH_STORAGE_KEY, ADMIN_AUTH_STORAGE_KEY], EARLY_COLLECTIONS_GLOBAL, EARLY_COLLECTIONS_QUERY].map((a) => JSON.stringify(a)).join(',');
/** The function's own source (the config loader has stripped its types), called with the keys. */
const BOOT_SCRIPT = `${THEME}(${startEarlyCollections.toString()})(${args});\n`;

export function bootScript(): Plugin {
  const fileName = `assets/boot-${crypto.createHash('sha256').update(BOOT_SCRIPT).digest('hex').slice(0, 8)}.js`;
  let base = '/';
  return {
    name: 'outpost-boot-script',
    apply: 'build', // in `npm run dev` the app does both itself (no slow network to hide)
    configResolved(config: ResolvedConfig) {
      base = config.base;
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName, source: BOOT_SCRIPT });
    },
    transformIndexHtml() {
      return [{ tag: 'script', attrs: { src: base + fileName }, injectTo: 'head-prepend' }];
    },
  };
}
