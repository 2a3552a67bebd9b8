import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { outpostValidators } from './src/engine/vite-plugin-validators.js';
import { precompress } from './scripts/vite-plugin-precompress.js';

// The dashboard is served by our server under /_/ (as PocketBase serves its own).
// In `npm run dev` the API is proxied to a server started with `npm run serve`.
// outpostValidators compiles the schema files' validators at build time (no ajv compiler in the browser);
// precompress writes .br/.gz copies of the built assets, which the server sends by negotiation.
export default defineConfig({
  base: '/_/',
  plugins: [react(), outpostValidators(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      // The validators plugin compiles every schema at build time; its timing report is noise.
      checks: { pluginTimings: false },
      // Everything the entry imports statically ships as one chunk. Left to itself the bundler
      // splits modules the lazy pages share with the entry (React, the API client) into chunks
      // of their own, which the sign-in page then fetches as extra requests that compress worse.
      output: { codeSplitting: { groups: [{ name: 'boot', tags: ['$initial'] }] } },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8090' },
  },
});
