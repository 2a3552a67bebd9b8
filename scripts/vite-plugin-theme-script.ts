// Build step: a tiny classic script that sets the stored theme choice (`data-theme` on <html>)
// before the first paint. main.tsx applies it too, but only once the app's module script has
// arrived and run: on a slow connection a dark-mode admin saw the page painted white first. The
// CSP forbids inline scripts (script-src 'self'), so it is an external file, content-hashed under
// assets/ (served immutable, cached), loaded blocking at the top of <head>.
import crypto from 'node:crypto';
import type { Plugin, ResolvedConfig } from 'vite';
import { THEME_STORAGE_KEY } from '../src/lib/theme-key.js';

/** The script: only 'dark' / 'light' are applied; storage that throws (disabled) follows the system. */
const THEME_SCRIPT = `try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t==="dark"||t==="light")document.documentElement.dataset.theme=t}catch(e){}\n`;

export function themeScript(): Plugin {
  const fileName = `assets/boot-theme-${crypto.createHash('sha256').update(THEME_SCRIPT).digest('hex').slice(0, 8)}.js`;
  let base = '/';
  return {
    name: 'outpost-theme-script',
    apply: 'build', // in `npm run dev` main.tsx applies the theme (no slow network to hide)
    configResolved(config: ResolvedConfig) {
      base = config.base;
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName, source: THEME_SCRIPT });
    },
    transformIndexHtml() {
      return [{ tag: 'script', attrs: { src: base + fileName }, injectTo: 'head-prepend' }];
    },
  };
}
