import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two cores: each integration file opens its own databases, so keep parallelism modest.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/shared/src/**/*.test.ts',
            'apps/web/src/**/*.test.ts',
            'test/eslint-config.test.ts',
            'test/fail-on-console.test.ts',
          ],
          environment: 'node',
          setupFiles: ['test/fail-on-console.ts'],
          // Rules, parsers and lint rules that keep no state between files (the realtime
          // parsers' stand-in globals are read by no other unit file); each file's imports cost
          // more than its tests.
          isolate: false,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['apps/server/**/*.test.ts', 'test/**/*.test.ts'],
          // Lints files, starts no server: it runs with the unit tests.
          exclude: [
            ...configDefaults.exclude,
            'test/eslint-config.test.ts',
            'test/fail-on-console.test.ts',
          ],
          globalSetup: ['apps/server/test/global-setup.ts'],
          // Files share a worker's loaded modules instead of importing the server again each
          // (about 1.5 s of CPU per file). They already leave nothing behind: each builds its
          // own app on its own database, and closes its servers, sockets and clients.
          isolate: false,
          environment: 'node',
          setupFiles: ['test/fail-on-console.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
