import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { outpostValidators } from './src/engine/vite-plugin-validators.js';

// Five projects, one runner: pure unit tests, schema contract tests, server tests over HTTP
// against the real server, the server test files that talk HTTP only run again against the built
// server (its warm start, as users run it), and browser tests driving Debian's Chromium against the
// real server.
export default defineConfig({
  test: {
    projects: [
      // the engine imports the build-time validators (virtual modules served by this plugin)
      { plugins: [outpostValidators()], test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], environment: 'node', setupFiles: ['tests/helpers/i18n-setup.ts'] } },
      { plugins: [outpostValidators()], test: { name: 'contract', include: ['tests/contract/**/*.test.ts'], environment: 'node', setupFiles: ['tests/helpers/i18n-setup.ts'] } },
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
          name: 'server-built',
          // the files that only talk HTTP or run the CLI (no in-process app): tests/helpers/server.ts
          // and tests/helpers/cli.ts start the built server for them
          include: [
            'tests/server/audit.test.ts',
            'tests/server/audit-kill.test.ts',
            'tests/server/audit-hooks.test.ts',
            'tests/server/audit-more.test.ts',
            'tests/server/bad-input.test.ts',
            'tests/server/caddy.test.ts',
            'tests/server/create-rule.test.ts',
            'tests/server/expand-legacy.test.ts',
            'tests/server/files-s3.test.ts',
            'tests/server/find-record.test.ts',
            'tests/server/hooks.test.ts',
            'tests/server/hooks-events.test.ts',
            'tests/server/hooks-events-collections.test.ts',
            'tests/server/hooks-events-admins.test.ts',
            'tests/server/hooks-events-files.test.ts',
            'tests/server/hooks-info.test.ts',
            'tests/server/hooks-pool.test.ts',
            'tests/server/hooks-reload.test.ts',
            'tests/server/hooks-types-file.test.ts',
            'tests/server/hooks-namespaces.test.ts',
            'tests/server/hooks-namespaces-more.test.ts',
            'tests/server/hooks-template.test.ts',
            'tests/server/hostile.test.ts',
            'tests/server/migrations-pb022-compat.test.ts',
            'tests/server/oauth2-emails.test.ts',
            'tests/server/realtime-fairness.test.ts',
            'tests/server/records-filter-operators.test.ts',
            'tests/server/records-io.test.ts',
            'tests/server/reverse-proxy.test.ts',
            'tests/server/shutdown.test.ts',
            'tests/server/sign-in-limiter.test.ts',
            'tests/server/systemd-unit.test.ts',
            'tests/server/tls-acme.test.ts',
          ],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          globalSetup: ['tests/helpers/built-suite-setup.ts'],
          env: { OUTPOST_TEST_BUILT_MAIN: path.resolve(import.meta.dirname, 'tests', '.tmp', 'built-suite', 'main.mjs') },
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
          // A browser on a loaded 2-core CI machine occasionally loses a timing race inside the test
          // (two stops in a row were refused for one such test each); a real defect fails both tries.
          retry: 1,
        },
      },
    ],
  },
});
