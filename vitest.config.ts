import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

// One suite, two stores: PGlite by default, PostgreSQL when TEST_DATABASE_URL is set (.ci/run
// runs both). Every test file gets its own database, copied from a migrated template.
export default defineConfig({
  // The web app's own aliases (web/vite.config.ts), for the hub's unit tests in test/web that
  // import its modules.
  resolve: {
    alias: {
      '@domain': fileURLToPath(new URL('./src/domain', import.meta.url)),
      '@server': fileURLToPath(new URL('./src', import.meta.url)),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    // What only one store has is tested in files named for it, on that store's leg only (rather
    // than as skipped tests on the other): *.postgres.test.ts needs several processes on one
    // database, or PostgreSQL itself (the move to it); *.pglite.test.ts needs the data directory
    // one process owns (the admin socket, the lock, kill -9 of that one process).
    // *.redis.test.ts needs a real Redis it can cut and restore (REDIS_TEST_URL; .ci/run sets it on
    // the PostgreSQL leg).
    exclude: [
      ...configDefaults.exclude,
      process.env.TEST_DATABASE_URL ? 'test/**/*.pglite.test.ts' : 'test/**/*.postgres.test.ts',
      ...(process.env.REDIS_TEST_URL ? [] : ['test/**/*.redis.test.ts']),
    ],
    globalSetup: ['test/helpers/global-setup.ts'],
    // Deadlines for a test that hangs, not speed targets (those live in the benches): wide enough
    // for a machine ten times slower than a quiet one (CI beside other CI runs), since most tests
    // take well under 10 s quiet. Tests wait for conditions, never for fixed times; the hooks that
    // start processes wait on them by their progress and fail on their own when one stalls
    // (test/helpers/progress.ts).
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
