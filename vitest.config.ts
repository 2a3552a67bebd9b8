import { defineConfig } from 'vitest/config';
import { outpostValidators } from './src/engine/vite-plugin-validators.js';

// Four projects, one runner: pure unit tests, schema contract tests, server tests over HTTP
// against the real server, and browser tests driving Debian's Chromium against the real server.
export default defineConfig({
  test: {
    projects: [
      // the engine imports the build-time validators (virtual modules served by this plugin)
      { plugins: [outpostValidators()], test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], environment: 'node' } },
      { plugins: [outpostValidators()], test: { name: 'contract', include: ['tests/contract/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 90_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
