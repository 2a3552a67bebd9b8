import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The dashboard is served by our server under /_/ (as PocketBase serves its own).
// In `npm run dev` the API is proxied to a server started with `npm run serve`.
export default defineConfig({
  base: '/_/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8090' },
  },
});
