// Browser tests of the hub: a real `switchboard serve` process on a fresh store (a new PGlite data
// dir, or a new PostgreSQL database when the suite runs on PostgreSQL), driven by Debian's
// chromium through playwright-core. Each flow saves a screenshot of every screen it visits under
// test-results/hub/<flow>/ and runs axe-core there: no serious or critical violation.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { freshDb, onPostgres, type TestDb } from '../helpers/db.js';
import { cliResult, startServer, type ServerProcess } from '../helpers/process.js';
import { launchChromium, untilSettled } from './chromium.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const AXE_SOURCE = fs.readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
export const SHOTS = path.join(ROOT, 'test-results/hub');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

export interface SeedOutput {
  accounts: Record<string, { id: string; users: Record<string, string>; keys: Record<string, string>; key_ids: Record<string, string>; workflows: Record<string, string>; automations: Record<string, string>; contacts: Record<string, string>; projects: Record<string, string>; [k: string]: unknown }>;
}

export interface Hub {
  server: ServerProcess;
  baseUrl: string;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** The store's connection string (PostgreSQL) or data dir (PGlite), for operator commands. */
  storeEnv: Record<string, string>;
  /** The server's data directory (its store on PGlite; its set-up token file on either store). */
  dataDir: string;
  /** Runs a `switchboard` operator command against this server's store (through its admin socket on PGlite). */
  cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** Loads a fixture (the `seed` format) and returns `seed --json`'s output: refs → ids, key values. */
  seed(fixture: unknown): Promise<SeedOutput>;
  /** Signs the browser in through the hub's API (the sign-in page itself is tested in its own flow). */
  signIn(email: string, password: string): Promise<void>;
  /** Screenshot the page as <flow>/<nn>-<name>.png and run axe on it; returns the serious/critical violations. */
  visit(name: string): Promise<AxeViolation[]>;
  close(): Promise<void>;
}

/**
 * A hub on a fresh store for one flow. `env` adds server settings; `browserArgs`, chromium's. The
 * server runs every role (API and workers), as `npm start` does.
 */
export async function openHub(flow: string, env: Record<string, string> = {}, opts: { browserArgs?: string[] } = {}): Promise<Hub> {
  let tdb: TestDb | null = null;
  // A data dir on both stores: PGlite's store lives there, and on PostgreSQL the server still
  // writes its set-up token file there (never into the repository's default ./.switchboard).
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-hub-'));
  const storeEnv: Record<string, string> = { SWITCHBOARD_DATA_DIR: dataDir };
  if (onPostgres()) {
    tdb = await freshDb();
    storeEnv.DATABASE_URL = tdb.url!;
  }
  const server = await startServer({ ...storeEnv, SWITCHBOARD_POLL_MS: '100', ...env }, 'all');
  const browser = await launchChromium(opts.browserArgs);
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const dir = path.join(SHOTS, flow);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  let n = 0;
  const cli = (args: string[]) => cliResult(args, storeEnv);
  return {
    cli,
    async seed(fixture) {
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-seed-')), 'fixture.json');
      fs.writeFileSync(file, JSON.stringify(fixture));
      const out = await cli(['seed', file, '--json']);
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
      if (out.code !== 0) throw new Error(`seed failed (${out.code}): ${out.stderr}`);
      return JSON.parse(out.stdout) as SeedOutput;
    },
    async signIn(email, password) {
      const res = await page.request.post(`${server.baseUrl}/hub/api/session`, { data: { email, password }, headers: { origin: server.baseUrl } });
      if (!res.ok()) throw new Error(`sign-in failed: ${res.status()} ${await res.text()}`);
    },
    server,
    baseUrl: server.baseUrl,
    browser,
    context,
    page,
    storeEnv,
    dataDir,
    async visit(name) {
      await untilSettled(page, name);
      n += 1;
      await page.screenshot({ path: path.join(dir, `${String(n).padStart(2, '0')}-${name}.png`), fullPage: true });
      // Runtime.evaluate is not subject to the page's CSP (script-src 'self'), so axe runs as is.
      await page.evaluate(AXE_SOURCE);
      const result = await page.evaluate<{ violations: AxeViolation[] }>(`axe.run(document, { resultTypes: ['violations'] })`);
      return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    },
    async close() {
      await browser.close().catch(() => {});
      await server.stop();
      await tdb?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
