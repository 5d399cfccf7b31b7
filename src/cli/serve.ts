// `switchboard serve`: opens the store, migrates (or checks the schema), serves the HTTP API and,
// on the embedded store, the admin socket, and runs the engine (role all or worker); shuts down
// cleanly on SIGTERM/SIGINT. `switchboard worker` is `serve --role worker`: the engine only.
import { pino, type LoggerOptions } from 'pino';
import type { Config } from '../config.js';
import type { Db } from '../db/db.js';
import { appliedVersion, latestVersion, migrate } from '../db/migrate.js';
import { openDb } from '../db/open.js';
import { describeStore, storeCapabilities } from '../db/store-config.js';
import { StatisticsKeeper } from '../db/statistics.js';
import { createApp } from '../server.js';
import type { App } from '../http/app.js';
import { startAdminServer, type AdminServer } from '../admin/server.js';
import { socketPath } from '../admin/protocol.js';
import { choiceArg, parseCommandArgs } from './args.js';
import { filesContext, runOperatorCommand } from './operator.js';
import { createEngine, type Engine } from '../engine/engine.js';
import { createSender, type Sender } from '../delivery/sender.js';
import { describeTransports } from '../delivery/transports/index.js';
import { forgetApiUrl, latestApiUrl, recordApiUrl } from '../delivery/api-url-store.js';
import { uuidv7 } from '../lib/ids.js';
import { releaseStartupGarbage } from '../lib/startup-garbage.js';
import { issueSetupToken } from '../services/setup/service.js';
import { DrainState } from '../http/load-shedding.js';
import { startMetricsServer, type MetricsServer } from './metrics-server.js';
import { removeSetupTokenFile, writeSetupTokenFile } from '../services/setup/token-file.js';

export const WORKER_NEEDS_POSTGRES =
  'a separate worker needs PostgreSQL (set DATABASE_URL): the embedded store is owned by one process, ' +
  'and there `switchboard serve` (role all) runs the engine itself';

export const WORKER_NEEDS_PUBLIC_URL =
  'a worker that sends email over SMTP needs SWITCHBOARD_PUBLIC_URL, the base of the unsubscribe links ' +
  'in its messages: it has no HTTP listener of its own, and a link must reach an API process from the recipient\'s mailbox';

export type Role = 'api' | 'worker' | 'all';

/**
 * The URL this API process records for links (api_urls): its SWITCHBOARD_PUBLIC_URL, else where it
 * really listens (fastify names the bound port, and https under TLS; an any-address listener
 * answers on loopback).
 */
function recordedUrl(config: Config, address: string): string {
  if (config.delivery.publicUrlSet) return config.delivery.publicUrl;
  return address.replace('://[::]:', '://[::1]:').replace('://0.0.0.0:', '://127.0.0.1:');
}

export function parseServeArgs(args: readonly string[]): { role: Role } {
  const p = parseCommandArgs(args, { strings: ['role'] });
  return { role: choiceArg('role', p.strings.get('role') ?? 'all', ['api', 'worker', 'all'] as const) };
}

export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** stdout is a terminal: a person reads it, so the banner is also said as a plain line. */
  tty?: boolean;
}

/** pino options for the app and our own lines; the Authorization header (the API key) is never logged. */
export function loggerOptions(config: Config): LoggerOptions {
  return { level: config.logLevel, redact: { paths: ['req.headers.authorization'], censor: '[redacted]' } };
}

/**
 * In-flight requests get this long to finish after SIGTERM/SIGINT; then the connections still
 * open (a client that stalls mid-request, or trickles a body) are closed, so shutdown is bounded.
 */
export const SHUTDOWN_GRACE_MS = 10_000;

async function closeWithin(app: App, graceMs: number): Promise<void> {
  const timer = setTimeout(() => app.server.closeAllConnections(), graceMs);
  timer.unref();
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Connections the kernel queues until the server accepts them (it caps this at net.core.somaxconn).
 * Node's default of 511 overflows under a burst of connections (one client opening thousands):
 * the kernel then drops new connections' handshakes, every client's alike, and they retry after
 * 1, 3, 7 s. A longer queue holds the burst while the server accepts (and caps) it.
 */
export const LISTEN_BACKLOG = 4096;

/**
 * Where the process's log lines go: stdout, written asynchronously. A synchronous write per line
 * (pino's default for stdout) blocks the event loop on every request; here lines queue in memory
 * and go out in batches while the loop serves requests. pino flushes what is queued when the
 * process exits, and the shutdown path flushes before it reports "stopped".
 */
export function logDestination(): ReturnType<typeof pino.destination> {
  return pino.destination({ dest: 1, sync: false });
}

/** Resolves with the exit code once the server has shut down (or failed to start). */
export async function serve(config: Config, role: Role, io: Output): Promise<number> {
  const logStream = logDestination();
  const log = pino(loggerOptions(config), logStream);
  let db: Db | null = null;
  let app: App | null = null;
  let admin: AdminServer | null = null;
  let statistics: StatisticsKeeper | null = null;
  let engine: Engine | null = null;
  let sender: Sender | null = null;
  let metricsServer: MetricsServer | null = null;
  const processId = uuidv7();
  let urlRecorded = false;
  const release = async () => {
    // The engine finishes or releases its runs while the store is still open; the sender records
    // the outcome of the messages it is sending.
    statistics?.stop();
    await Promise.allSettled([engine?.stop(), sender?.stop(), app ? closeWithin(app, SHUTDOWN_GRACE_MS) : null, admin?.close(), metricsServer?.close()]);
    if (urlRecorded) await forgetApiUrl(db!, processId).catch((err) => log.warn({ err }, 'could not remove this process from api_urls'));
    await db?.close(); // on PGlite this also releases the data-dir lock
  };
  const capabilities = storeCapabilities(config);
  if (role === 'worker' && !capabilities.multiProcess) {
    io.err(`error: ${WORKER_NEEDS_POSTGRES}\n`);
    return 1;
  }
  // Real email to real mailboxes: a link built from this process's HOST and PORT (it listens on
  // neither) or from whatever a development API process recorded would not reach us from there.
  if (role === 'worker' && config.delivery.emailTransport === 'smtp' && !config.delivery.publicUrlSet) {
    io.err(`error: ${WORKER_NEEDS_PUBLIC_URL}\n`);
    return 1;
  }

  // Signals are ours from here on. A SIGTERM while the process is still starting (a supervisor
  // stopping it, or a caller that saw the engine's first work before the banner) must stop it
  // cleanly once start-up is done, never kill it with the default action and leave its runs
  // claimed. A second signal exits at once, as it does later.
  let signalled: NodeJS.Signals | null = null;
  let stopRunning: ((signal: NodeJS.Signals) => void) | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      // The operator insists: do not wait for in-flight requests.
      logStream.flushSync();
      io.err(`second ${signal}: exiting without waiting\n`);
      process.exit(1);
    }
    signalled = signal;
    stopRunning?.(signal);
  };
  const unhook = () => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  let address: string | null = null;
  const drain = new DrainState();
  let setupToken: string | null = null;
  let setupTokenFile: string | null = null;
  try {
    db = await openDb(config, { retryLog: log });
    if (config.autoMigrate) {
      const applied = await migrate(db);
      if (applied.length) log.info({ applied }, 'applied migrations');
    } else {
      const have = await appliedVersion(db);
      const want = latestVersion();
      // Rolling deploys migrate first; until then /readyz answers 503 and says why.
      // A store never migrated has no tables at all: nothing could be served, not even /readyz.
      if (have === 0) throw new Error('the store has no schema yet: run `switchboard migrate` first (SWITCHBOARD_AUTO_MIGRATE=false)');
      if (have < want) log.warn({ schema: have, expected: want }, 'schema is older than this release; run `switchboard migrate`');
    }
    // PGlite keeps no planner statistics by itself: analyze now and periodically (no-op on PostgreSQL).
    statistics = new StatisticsKeeper(db, (err) => log.warn({ err }, 'refreshing planner statistics failed'));
    await statistics.start();
    // Its own listener, up before the app so a scrape sees the start-up's requests too.
    if (config.metrics) metricsServer = await startMetricsServer(config.metrics, db, log.child({ component: 'metrics' }));
    const metrics = metricsServer?.metrics;
    if (role !== 'worker') app = await createApp(config, db, { logger: { ...loggerOptions(config), stream: logStream }, drain, metrics });
    if (app && capabilities.ownsDataDir) {
      // Only this process may open the data dir, so operator commands come to it over this socket.
      const store = db;
      admin = await startAdminServer(
        socketPath(config.dataDir),
        (req) => runOperatorCommand(store, req.argv, filesContext(req.files ?? {}, 'server')),
        log.child({ component: 'admin' }),
      );
    }
    if (app) {
      address = await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
      // Where workers without SWITCHBOARD_PUBLIC_URL point their links. A store whose schema is
      // older than this release (rolling deploy) has no table for it yet: serve anyway.
      try {
        await recordApiUrl(db, processId, recordedUrl(config, address));
        urlRecorded = true;
      } catch (err) {
        log.warn({ err }, 'could not record this process\'s URL for links in messages (api_urls)');
      }
    } else if (!config.delivery.publicUrlSet && !(await latestApiUrl(db).catch(() => null))) {
      log.warn(
        { publicUrl: config.delivery.publicUrl },
        'no SWITCHBOARD_PUBLIC_URL and no API process has recorded its URL yet: unsubscribe links use HOST and PORT until one does',
      );
    }
    // While the store has no account, the hub's set-up page is open: from loopback as is, from
    // anywhere else only with this token (printed here, its hash stored, void once set-up is done).
    if (app && config.hub) setupToken = await issueSetupToken(db);
    if (setupToken) {
      try {
        setupTokenFile = writeSetupTokenFile(config.dataDir, setupToken);
      } catch (err) {
        log.warn({ err, dataDir: config.dataDir }, 'could not write the set-up token file: set-up works from a browser on this machine; for another, set SWITCHBOARD_DATA_DIR to a directory this user may write and restart');
      }
    } else if (app && config.hub) {
      // Set-up is over: a token file left from before holds a void token.
      try {
        removeSetupTokenFile(config.dataDir);
      } catch (err) {
        log.warn({ err }, 'could not remove the old set-up token file');
      }
    }
    if (role !== 'api') {
      engine = createEngine(db, config, log.child({ component: 'engine' }), metrics);
      await engine.start();
      // Delivers the outbox next to the engine that fills it (docs/architecture.md §11).
      sender = createSender(db, config, log.child({ component: 'sender' }), metrics);
      await sender.start();
    }
  } catch (err) {
    await release().catch(() => {});
    unhook();
    io.err(`error: the server did not start: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }

  // Development providers are named at start-up (docs/architecture.md §10.5), where an operator
  // sees them.
  const engineNote = engine
    ? `engine: up to ${config.engine.concurrency} runs at once, LLM provider ${config.llm.provider}` +
      (config.llm.provider === 'local' ? ' (development, offline)' : '') +
      `; delivery: ${describeTransports(config.delivery)}`
    : 'no engine';
  const head = address ? `switchboard listening on ${address}; role ${role}` : `switchboard worker running (owner ${engine!.owner})`;
  const line =
    `${head}; ${engineNote}; store: ${describeStore(config)}` + (admin ? `; admin socket: ${admin.path}` : '') + (metricsServer ? `; metrics on ${metricsServer.address}/metrics` : '');
  const setupUrl = setupToken ? `${recordedUrl(config, address!)}/setup` : null;
  const announce = () => {
    // The banner is a log line like the rest (collectors parse every line), logged whatever
    // LOG_LEVEL says: it is the one line that says where the server is. A terminal also gets it
    // plainly, with the set-up token itself: the log only ever names the token's file.
    const banner = log.child({}, { level: 'info' });
    banner.info({ address, role, store: describeStore(config), adminSocket: admin?.path ?? null, metrics: metricsServer ? `${metricsServer.address}/metrics` : null }, line);
    if (setupUrl) {
      const where = setupTokenFile ? `the set-up token in ${setupTokenFile} (readable by this user only)` : 'the set-up token (printed on a terminal only)';
      banner.info({ setupUrl, setupTokenFile }, `first-run set-up: open ${setupUrl} in a browser; from another machine it asks for ${where}`);
    }
    if (io.tty) {
      io.out(line + '\n' + (setupUrl ? `first-run set-up: open ${setupUrl} in a browser; from another machine it asks for the set-up token ${setupToken}\n` : ''));
    }
  };

  return new Promise<number>((resolve) => {
    const done = (code: number) => {
      unhook();
      log.info('stopped');
      // Everything is closed; should a stray handle keep the event loop alive, exit anyway.
      setTimeout(() => process.exit(code), 3_000).unref();
      resolve(code);
    };
    const stop = async (signal: NodeJS.Signals) => {
      // A balancer polling /readyz sees 503 and stops sending here while the listener still
      // answers what it sends meanwhile; only then does the listener close (load-shedding.ts).
      const drainMs = app ? config.http.drainDelayMs : 0;
      if (drainMs > 0) {
        drain.start();
        log.info({ signal, drainDelayMs: drainMs }, 'draining: /readyz answers 503 while requests are still served');
        await new Promise((r) => setTimeout(r, drainMs));
      }
      log.info({ signal }, 'shutting down: finishing in-flight requests');
      release().then(
        () => done(0),
        (err) => {
          log.error({ err }, 'shutdown failed');
          done(1);
        },
      );
    };
    // Asked to stop while starting: stop now, without announcing a server that is going away.
    if (signalled) return void stop(signalled);
    stopRunning = (signal) => void stop(signal);
    releaseStartupGarbage();
    announce();
  });
}
