import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { outpostValidators } from './src/engine/vite-plugin-validators.js';
import { precompress } from './scripts/vite-plugin-precompress.js';
import { bootScript } from './scripts/vite-plugin-boot-script.js';

// The dashboard is served by our server under /_/ (as PocketBase serves its own).
// In `npm run dev` the API is proxied to a server started with `npm run serve`.
// outpostValidators compiles the schema files' validators at build time (no ajv compiler in the browser);
// precompress writes .br/.gz copies of the built assets, which the server sends by negotiation;
// bootScript emits the script <head> loads first: the stored theme before the first paint, and on
// #/collections the collections request, before the app's script has arrived.
export default defineConfig({
  base: '/_/',
  plugins: [react(), outpostValidators(), bootScript(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      // The validators plugin compiles every schema at build time; its timing report is noise.
      checks: { pluginTimings: false },
      // Everything the entry imports statically ships as one chunk, and so does the form engine's
      // public API (src/engine/index.ts) with everything it imports statically. Left to itself the
      // bundler splits modules shared by several lazy chunks (React, the API client, the engine's
      // keyword names, the tooltip) into chunks of their own, down to a few dozen bytes each, which
      // the sign-in page then fetches as extra requests that compress worse. The shell's and pages'
      // shared modules (src/app, shell, ui, lib) are grouped by the pages that use them, groups under
      // 40 KB merged: #/logs fetched 16 chunks (browsers open 6 connections per host, so they came
      // in rounds), now 7. The shared groups come before the engine's (priority): otherwise the
      // engine's chunk took the modules it shares with the lists (the tooltip, lib/json), and the
      // records, collections and logs screens downloaded and ran the whole form engine (29 KB br)
      // before their first rows.
      output: {
        // the shared groups' names list every page that uses them; the hash alone tells them apart
        chunkFileNames: (chunk) => (chunk.name.startsWith('shared') ? 'assets/shared-[hash].js' : 'assets/[name]-[hash].js'),
        assetFileNames: (asset) => (asset.names[0]?.startsWith('shared') ? 'assets/shared-[hash][extname]' : 'assets/[name]-[hash][extname]'),
        codeSplitting: {
          groups: [
            { name: 'boot', tags: ['$initial'], priority: 3 },
            // the icons the sign-in page and the engine draw: a group of their own, or they are
            // merged into a shared group of the shell's sidebar and search bar (+2 KB br at sign-in)
            { name: 'icons', test: /[\\/]src[\\/]ui[\\/]icons\.tsx$/, priority: 2.5 },
            { name: 'engine', test: /[\\/]src[\\/]engine[\\/]index\.ts$/, priority: 1 },
            { name: 'shared', test: /[\\/]src[\\/](app|shell|ui|lib)[\\/]/, minShareCount: 2, entriesAware: true, entriesAwareMergeThreshold: 40 * 1024, priority: 2 },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8090' },
  },
});
