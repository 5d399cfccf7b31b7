// An app over a fresh database, driven with inject(). One per test file (beforeAll).
import type { Config } from '../../src/config.js';
import { configWith } from '../../src/config.js';
import type { App } from '../../src/http/app.js';
import type { Retirement } from '../../src/http/retirements.js';
import { createApp } from '../../src/server.js';
import { freshDb, type TestDb } from './db.js';

export interface TestApp extends TestDb {
  app: App;
  config: Config;
}

export async function testApp(overrides: Partial<Config> = {}, opts: { retirements?: readonly Retirement[]; counterClock?: () => number } = {}): Promise<TestApp> {
  const tdb = await freshDb();
  const config = configWith({ rateLimitStore: 'memory', ...overrides });
  const app = await createApp(config, tdb.db, { retirements: opts.retirements, counterClock: opts.counterClock });
  return {
    ...tdb,
    app,
    config,
    close: async () => {
      await app.close();
      await tdb.close();
    },
  };
}
