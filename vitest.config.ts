import { defineConfig } from 'vitest/config';

// One suite, two stores: PGlite by default, PostgreSQL when TEST_DATABASE_URL is set (.ci/run
// runs both). Every test file gets its own database, copied from a migrated template.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
