import { defineConfig } from 'vitest/config';

// One suite, two stores: PGlite by default, PostgreSQL when TEST_DATABASE_URL is set (.ci/run
// runs both). Every test file gets its own database, copied from a migrated template.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    // A safety net only: the hooks that start processes wait on them by their progress and fail on
    // their own when one stalls (test/helpers/progress.ts); a loaded machine can take minutes.
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
