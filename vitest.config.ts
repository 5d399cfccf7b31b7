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
    // A file named *.postgres.test.ts needs PostgreSQL itself (the move from the embedded store to
    // it): it runs on the PostgreSQL leg, and is not part of the PGlite one (rather than a skip).
    exclude: process.env.TEST_DATABASE_URL ? [...configDefaults.exclude] : [...configDefaults.exclude, 'test/**/*.postgres.test.ts'],
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
