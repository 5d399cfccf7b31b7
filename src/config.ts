// The one place that reads the environment. Everything else receives a frozen Config.
import path from 'node:path';
import v8 from 'node:v8';
import { ConfigError, EnvReader, isAddressOrRange, type Env } from './config-reader.js';

export { ConfigError };

/** PG_PIPELINE_LANES when unset; also the lanes of a PostgresDb made without a config (tests, tools). */
export const DEFAULT_PIPELINE_LANES = 2;

export interface Config {
  readonly env: 'development' | 'production';
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** PostgreSQL connection string; null means the embedded PGlite store under dataDir. */
  readonly databaseUrl: string | null;
  readonly pgPoolMax: number;
  /** Pipelined PostgreSQL connections besides the pool, for statements outside a transaction (db/pg-lanes.ts). */
  readonly pgPipelineLanes: number;
  readonly redisUrl: string | null;
  /** Where rate-limit windows are counted: one process (memory) or shared by all (postgres, redis). */
  readonly rateLimitStore: 'memory' | 'postgres' | 'redis';
  /** fastify `trustProxy`: false, a hop count, or a list of proxy addresses/CIDRs. Never a blanket true. */
  readonly trustProxy: false | number | string[];
  /** Deployment-wide early access switch: false answers every /v1 request 404 api_not_available. */
  readonly apiOpen: boolean;
  readonly autoMigrate: boolean;
  /** The hub (web console at / and its API at /hub/api); false for API-only deployments. */
  readonly hub: boolean;
  /** Where /metrics is served, on a listener of its own (SWITCHBOARD_METRICS_ADDR); null: off. */
  readonly metrics: { host: string; port: number } | null;
  /**
   * Origins (scheme://host[:port]) the hub also answers to as itself besides its public URL and
   * loopback (SWITCHBOARD_HUB_ORIGINS): a LAN name people type. Normalised, lower case.
   */
  readonly hubOrigins: readonly string[];
  readonly tls: { readonly certFile: string; readonly keyFile: string } | null;
  readonly logLevel: string;
  /** How long an `in_progress` idempotency row may stay locked before its outcome is called unknown. */
  readonly idempotencyLockTimeoutMs: number;
  /** A shared rate-limit store (Redis, PostgreSQL) that has not answered within this falls back to the process's own count. */
  readonly rateLimitTimeoutMs: number;
  /**
   * On a shared store, how long one renewal lets an API process trust its API-key cache
   * (src/keys/auth-member.ts): the longest a revoke waits for a process that stopped answering.
   */
  readonly authCacheLeaseMs: number;
  /**
   * Credit (micros) an account starts with when the hub's set-up page or `account create` makes
   * it, so a new account can run an AI block at once. Seeds set their own credit_micros.
   */
  readonly startingCreditMicros: number;
  readonly http: HttpConfig;
  readonly engine: EngineConfig;
  readonly llm: LlmConfig;
  readonly delivery: DeliveryConfig;
}

/** Connection and request deadlines (a slow or hostile client must not hold the server). */
export interface HttpConfig {
  /** A request must have sent its headers and whole body within this. */
  requestTimeoutMs: number;
  /** A body that sends nothing for this long is cut. */
  bodyIdleTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Connections one client address may hold at once; past it a new connection is closed at once. */
  maxConnectionsPerAddress: number;
  /**
   * After the first SIGTERM, /readyz answers 503 for this long while requests are still served, so
   * a load balancer takes the process out before its listener closes; then the shutdown proper.
   */
  drainDelayMs: number;
  /** Requests are shed (503, Retry-After) while the event loop lags by more than this on average; 0 never. */
  shedEventLoopDelayMs: number;
  /** Requests are shed while the JS heap holds more than this many bytes; 0 never. */
  shedHeapUsedBytes: number;
}

export interface EngineConfig {
  /** Runs a process works on at once. */
  concurrency: number;
  /** Lease on a claimed run; heartbeats renew it; an expired lease lets another worker take over. */
  leaseMs: number;
  /** Idle poll interval (NOTIFY wakes workers sooner on PostgreSQL). */
  pollMs: number;
  /** Delay between queuing a run and its start (0 = as soon as a worker is free). */
  startDelayMs: number;
  /** A run stops `partial` after this long. The spec: up to two minutes. */
  runTimeLimitMs: number;
  /** A run stops `partial` after this many block executions. */
  stepLimit: number;
  /**
   * Attempts in all a run gets when its execution throws (a store error, a bug): retried after an
   * exponential backoff with jitter, then ended `failed` ("gave up after N attempts"). Counted
   * between two waits (an automation wait, an approval), so a long drip campaign is not failed by
   * errors months apart.
   */
  runMaxAttempts: number;
  /** The first retry of a run that threw waits about this long; each next one twice as long (jittered), at most 5 minutes. */
  runRetryBaseMs: number;
  /** source.web: hosts the operator allows even though they resolve to private addresses. */
  webAllowHosts: readonly string[];
  webTimeoutMs: number;
  webMaxBytes: number;
}

export interface LlmConfig {
  /** 'local' is the deterministic offline development provider. */
  provider: 'local' | 'openai-compatible';
  baseUrl: string | null;
  apiKey: string | null;
  model: string;
  /** Billing: micros per 1,000 tokens (input and output alike). */
  microsPer1kTokens: number;
  timeoutMs: number;
  /** A call answered 429 or 5xx is tried again, up to this many attempts in all, within the run's time limit. */
  maxAttempts: number;
}

/** Where outbox rows go (docs/architecture.md §10.5): development transports keep them in the outbox. */
export interface DeliveryConfig {
  /** 'outbox' (development): messages are stored in the outbox only and nothing leaves. */
  emailTransport: 'outbox' | 'smtp';
  /** smtp:// or smtps:// with optional user:password (never logged). */
  smtpUrl: string | null;
  emailFrom: string;
  smsTransport: 'outbox' | 'http';
  /** The http SMS provider: POST {to, body, message_id} as JSON. */
  smsWebhookUrl: string | null;
  /** Sent as `Authorization: Bearer …` to the SMS webhook when set. */
  smsWebhookToken: string | null;
  /** Base of the links in messages (unsubscribe), without a trailing slash. */
  publicUrl: string;
  /** True when SWITCHBOARD_PUBLIC_URL set publicUrl; false when it is derived from HOST and PORT. */
  publicUrlSet: boolean;
  /** Shared secret of POST /inbound/sms; null disables the endpoint. */
  inboundSmsSecret: string | null;
  /** One message's send may take this long before the transport gives up. */
  sendTimeoutMs: number;
  /** A row `sending` for longer than this belongs to a sender that died: it becomes `unknown`. */
  stuckAfterMs: number;
  /** Messages one process sends at once. */
  concurrency: number;
  /** Billing: micros per SMS segment (160 GSM-7 characters, or 70 UCS-2 units; less when split). */
  smsMicrosPerSegment: number;
  /** A send that failed in a way that may pass is tried again, up to this many attempts in all ... */
  sendMaxAttempts: number;
  /** ... and within this long of the first attempt; then the message is `failed`. */
  sendRetryWindowMs: number;
}

function trustProxy(r: EnvReader): false | number | string[] {
  const raw = r.env.TRUST_PROXY;
  if (raw === undefined || raw.trim() === '' || raw.trim().toLowerCase() === 'false') return false;
  const v = raw.trim();
  if (/^\d+$/.test(v)) return Number(v);
  if (['true', 'yes', '1', '*'].includes(v.toLowerCase())) {
    r.fail(
      'TRUST_PROXY must be a hop count or a comma-separated list of proxy addresses, never a blanket yes ' +
        '(a spoofed X-Forwarded-For would dodge the failed-auth throttle)',
    );
    return false;
  }
  const list = v.split(',').map((s) => s.trim()).filter(Boolean);
  for (const entry of list) {
    if (!['loopback', 'linklocal', 'uniquelocal'].includes(entry) && !isAddressOrRange(entry)) {
      r.fail(`TRUST_PROXY entry ${JSON.stringify(entry)} is not an address, CIDR range or hop count`);
    }
  }
  return list;
}

/**
 * SWITCHBOARD_HUB_ORIGINS: comma-separated origins, each http(s)://host[:port] and nothing more (a
 * path, query or credentials would say the operator meant something else).
 */
function hubOrigins(r: EnvReader): readonly string[] {
  const out: string[] = [];
  for (const entry of (r.str('SWITCHBOARD_HUB_ORIGINS') ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    let u: URL | null = null;
    try {
      u = new URL(entry);
    } catch {
      /* reported below */
    }
    const bare = u && (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password && u.pathname === '/' && !u.search && !u.hash;
    // No wildcards: a browser sends one exact origin, and "*" would read as "any" to whoever set it.
    if (!u || !bare || !/^https?:\/\/[^/*]+\/?$/i.test(entry)) {
      r.fail(`SWITCHBOARD_HUB_ORIGINS entry ${JSON.stringify(entry)} is not an origin such as http://switchboard.lan:8080 (a scheme, a host and an optional port; no path)`);
      continue;
    }
    out.push(u.origin.toLowerCase());
  }
  return Object.freeze([...new Set(out)]);
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function logLevel(r: EnvReader): string {
  const raw = r.env.LOG_LEVEL;
  const v = raw?.trim().toLowerCase() || 'info';
  if ((LOG_LEVELS as readonly string[]).includes(v)) return v;
  r.fail(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(raw)}`);
  return 'info';
}

function rateLimitStore(r: EnvReader, databaseUrl: string | null): Config['rateLimitStore'] {
  const raw = r.choice('SWITCHBOARD_RATE_LIMIT_STORE', 'auto', ['auto', 'memory', 'postgres', 'redis'] as const, 'auto, memory, postgres or redis');
  const redis = Boolean(r.str('REDIS_URL'));
  if (raw === 'auto') return redis ? 'redis' : databaseUrl ? 'postgres' : 'memory';
  if (raw === 'redis' && !redis) r.fail('SWITCHBOARD_RATE_LIMIT_STORE=redis needs REDIS_URL');
  if (raw === 'postgres' && !databaseUrl) r.fail('SWITCHBOARD_RATE_LIMIT_STORE=postgres needs DATABASE_URL');
  return raw;
}

function llmConfig(r: EnvReader, environment: string): LlmConfig {
  const provider = r.choice('SWITCHBOARD_LLM_PROVIDER', 'local', ['local', 'openai-compatible'] as const);
  const baseUrl = r.url('SWITCHBOARD_LLM_BASE_URL', ['http', 'https']);
  if (provider === 'openai-compatible' && !baseUrl && !r.env.SWITCHBOARD_LLM_BASE_URL?.trim()) {
    r.fail('SWITCHBOARD_LLM_PROVIDER=openai-compatible needs SWITCHBOARD_LLM_BASE_URL');
  }
  if (environment === 'production' && provider === 'local') {
    r.fail('SWITCHBOARD_ENV=production refuses the local development LLM provider; set SWITCHBOARD_LLM_PROVIDER');
  }
  return {
    provider,
    baseUrl,
    apiKey: r.str('SWITCHBOARD_LLM_API_KEY'),
    model: r.str('SWITCHBOARD_LLM_MODEL') ?? 'gpt-4o-mini',
    microsPer1kTokens: r.int('SWITCHBOARD_LLM_MICROS_PER_1K_TOKENS', 2_000, 0, 100_000_000),
    timeoutMs: r.int('SWITCHBOARD_LLM_TIMEOUT_MS', 60_000, 100, 600_000),
    maxAttempts: r.int('SWITCHBOARD_LLM_MAX_ATTEMPTS', 4, 1, 20),
  };
}

function deliveryConfig(r: EnvReader, environment: string, host: string, port: number, tls: boolean): DeliveryConfig {
  const emailTransport = r.choice('SWITCHBOARD_EMAIL_TRANSPORT', 'outbox', ['outbox', 'smtp'] as const);
  const smsTransport = r.choice('SWITCHBOARD_SMS_TRANSPORT', 'outbox', ['outbox', 'http'] as const);
  const smtpUrl = r.url('SWITCHBOARD_SMTP_URL', ['smtp', 'smtps']);
  if (emailTransport === 'smtp' && !r.str('SWITCHBOARD_SMTP_URL')) r.fail('SWITCHBOARD_EMAIL_TRANSPORT=smtp needs SWITCHBOARD_SMTP_URL');
  const smsWebhookUrl = r.url('SWITCHBOARD_SMS_WEBHOOK_URL', ['http', 'https']);
  if (smsTransport === 'http' && !r.str('SWITCHBOARD_SMS_WEBHOOK_URL')) r.fail('SWITCHBOARD_SMS_TRANSPORT=http needs SWITCHBOARD_SMS_WEBHOOK_URL');
  const publicUrl = r.url('SWITCHBOARD_PUBLIC_URL', ['http', 'https']);
  const inboundSmsSecret = r.str('SWITCHBOARD_INBOUND_SMS_SECRET');
  if (inboundSmsSecret && inboundSmsSecret.length < 16) r.fail('SWITCHBOARD_INBOUND_SMS_SECRET must be at least 16 characters');
  const emailFrom = r.str('SWITCHBOARD_EMAIL_FROM');
  if (environment === 'production') {
    // Like the local LLM: a development transport would silently send nothing to real people.
    if (emailTransport === 'outbox') r.fail('SWITCHBOARD_ENV=production refuses the outbox (development) email transport; set SWITCHBOARD_EMAIL_TRANSPORT=smtp');
    if (smsTransport === 'outbox') r.fail('SWITCHBOARD_ENV=production refuses the outbox (development) SMS transport; set SWITCHBOARD_SMS_TRANSPORT=http');
    // Unsubscribe links must reach the server from the recipient's mailbox, not 127.0.0.1.
    if (!r.str('SWITCHBOARD_PUBLIC_URL')) r.fail('SWITCHBOARD_ENV=production needs SWITCHBOARD_PUBLIC_URL (the base of unsubscribe links)');
    if (!emailFrom) r.fail('SWITCHBOARD_ENV=production needs SWITCHBOARD_EMAIL_FROM');
  }
  const sendTimeoutMs = r.int('SWITCHBOARD_SEND_TIMEOUT_MS', 30_000, 100, 600_000);
  const stuckAfterMs = r.int('SWITCHBOARD_OUTBOX_STUCK_MS', 300_000, 1_000, 86_400_000);
  if (stuckAfterMs <= sendTimeoutMs) {
    // Otherwise a slow but live send would be called unknown while it is still going.
    r.fail('SWITCHBOARD_OUTBOX_STUCK_MS must be longer than SWITCHBOARD_SEND_TIMEOUT_MS');
  }
  return {
    emailTransport,
    smtpUrl,
    emailFrom: emailFrom ?? 'Switchboard <switchboard@localhost>',
    smsTransport,
    smsWebhookUrl,
    smsWebhookToken: r.str('SWITCHBOARD_SMS_WEBHOOK_TOKEN'),
    publicUrl: (publicUrl ?? `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, ''),
    publicUrlSet: publicUrl !== null,
    inboundSmsSecret,
    sendTimeoutMs,
    stuckAfterMs,
    concurrency: r.int('SWITCHBOARD_SENDER_CONCURRENCY', 4, 1, 256),
    smsMicrosPerSegment: r.int('SWITCHBOARD_SMS_MICROS_PER_SEGMENT', 8_000, 0, 100_000_000),
    sendMaxAttempts: r.int('SWITCHBOARD_SEND_MAX_ATTEMPTS', 8, 1, 100),
    sendRetryWindowMs: r.int('SWITCHBOARD_SEND_RETRY_WINDOW_MS', 86_400_000, 1_000, 30 * 86_400_000),
  };
}

/**
 * SWITCHBOARD_METRICS_ADDR: `PORT` (on loopback) or `HOST:PORT` (`[::1]:PORT` for IPv6); off when
 * unset. Never the public listener: metrics name routes, queues and load, which are the
 * operator's business, so a bare port stays on this machine.
 */
function metricsAddress(r: EnvReader): { host: string; port: number } | null {
  const raw = r.str('SWITCHBOARD_METRICS_ADDR');
  if (raw === null) return null;
  const m = /^(?:(\[[0-9a-fA-F:.]+\]|[^\s:[\]]+):)?(\d{1,5})$/.exec(raw.trim());
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) {
    r.fail(`SWITCHBOARD_METRICS_ADDR must be PORT or HOST:PORT (e.g. 9464 or 127.0.0.1:9464), got ${JSON.stringify(raw)}`);
    return null;
  }
  return { host: m[1] ? m[1].replace(/^\[|\]$/g, '') : '127.0.0.1', port };
}

/** Reads and checks every setting; a bad start reports every problem at once (ConfigError.problems). */
export function loadConfig(env: Env = process.env): Config {
  const r = new EnvReader(env);
  const environment = r.choice('SWITCHBOARD_ENV', 'development', ['development', 'production'] as const);
  let databaseUrl = r.str('DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    r.fail('DATABASE_URL must start with postgres:// or postgresql://');
    databaseUrl = null;
  }
  const certFile = r.str('TLS_CERT_FILE') ?? '';
  const keyFile = r.str('TLS_KEY_FILE') ?? '';
  if (Boolean(certFile) !== Boolean(keyFile)) r.fail('TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  const port = r.int('PORT', 8080, 0, 65535);
  const host = r.str('HOST') ?? '127.0.0.1';
  const cfg: Config = {
    env: environment,
    port,
    host,
    dataDir: path.resolve(r.str('SWITCHBOARD_DATA_DIR') ?? '.switchboard'),
    databaseUrl,
    pgPoolMax: r.int('PG_POOL_MAX', 10, 1, 1000),
    pgPipelineLanes: r.int('PG_PIPELINE_LANES', DEFAULT_PIPELINE_LANES, 0, 64),
    redisUrl: r.url('REDIS_URL', ['redis', 'rediss']),
    rateLimitStore: rateLimitStore(r, databaseUrl),
    trustProxy: trustProxy(r),
    apiOpen: r.bool('SWITCHBOARD_API_OPEN', true),
    autoMigrate: r.bool('SWITCHBOARD_AUTO_MIGRATE', true),
    hub: r.bool('SWITCHBOARD_HUB', true),
    metrics: metricsAddress(r),
    hubOrigins: hubOrigins(r),
    tls: certFile && keyFile ? { certFile, keyFile } : null,
    logLevel: logLevel(r),
    idempotencyLockTimeoutMs: r.int('SWITCHBOARD_IDEMPOTENCY_LOCK_TIMEOUT_MS', 120_000, 1_000, 86_400_000),
    // From the counters' answer times under `npm run bench` (README, "A rate-limit store that
    // fails"): at 100 ms ordinary load made a PostgreSQL or Redis counter fall back.
    rateLimitTimeoutMs: r.int('SWITCHBOARD_RATE_LIMIT_TIMEOUT_MS', 1_000, 500, 10_000),
    authCacheLeaseMs: r.int('SWITCHBOARD_AUTH_CACHE_LEASE_MS', 5_000, 1_000, 60_000),
    // US$5 to try things in development; in production credit is the operator's decision.
    startingCreditMicros: r.int('SWITCHBOARD_STARTING_CREDIT_MICROS', environment === 'production' ? 0 : 5_000_000, 0, Number.MAX_SAFE_INTEGER),
    http: Object.freeze({
      requestTimeoutMs: r.int('SWITCHBOARD_REQUEST_TIMEOUT_MS', 30_000, 1_000, 600_000),
      bodyIdleTimeoutMs: r.int('SWITCHBOARD_BODY_IDLE_TIMEOUT_MS', 10_000, 500, 600_000),
      keepAliveTimeoutMs: r.int('SWITCHBOARD_KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000),
      maxConnectionsPerAddress: r.int('SWITCHBOARD_MAX_CONNECTIONS_PER_ADDRESS', 256, 1, 1_000_000),
      // A development server is stopped by the person who started it, with no balancer to tell.
      drainDelayMs: r.int('SWITCHBOARD_DRAIN_DELAY_MS', environment === 'production' ? 5_000 : 0, 0, 600_000),
      shedEventLoopDelayMs: r.int('SWITCHBOARD_SHED_EVENT_LOOP_DELAY_MS', 1_000, 0, 600_000),
      shedHeapUsedBytes: Math.round((r.int('SWITCHBOARD_SHED_HEAP_PERCENT', 90, 0, 100) / 100) * v8.getHeapStatistics().heap_size_limit),
    }),
    engine: Object.freeze({
      concurrency: r.int('SWITCHBOARD_WORKER_CONCURRENCY', 8, 1, 1000),
      leaseMs: r.int('SWITCHBOARD_LEASE_MS', 30_000, 1_000, 3_600_000),
      pollMs: r.int('SWITCHBOARD_POLL_MS', 500, 10, 60_000),
      startDelayMs: r.int('SWITCHBOARD_RUN_START_DELAY_MS', 0, 0, 60_000),
      runTimeLimitMs: r.int('SWITCHBOARD_RUN_TIME_LIMIT_MS', 120_000, 100, 3_600_000),
      stepLimit: r.int('SWITCHBOARD_RUN_STEP_LIMIT', 50, 1, 10_000),
      runMaxAttempts: r.int('SWITCHBOARD_RUN_MAX_ATTEMPTS', 8, 1, 100),
      runRetryBaseMs: r.int('SWITCHBOARD_RUN_RETRY_BASE_MS', 1_000, 1, 600_000),
      webAllowHosts: Object.freeze((env.SWITCHBOARD_WEB_ALLOW_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean)),
      webTimeoutMs: r.int('SWITCHBOARD_WEB_TIMEOUT_MS', 10_000, 100, 120_000),
      webMaxBytes: r.int('SWITCHBOARD_WEB_MAX_BYTES', 1_048_576, 1_024, 104_857_600),
    }),
    llm: Object.freeze(llmConfig(r, environment)),
    delivery: Object.freeze(deliveryConfig(r, environment, host, port, Boolean(certFile))),
  };
  r.finish();
  return Object.freeze(cfg);
}

/**
 * Test and tooling helper: the defaults with some values replaced, but never shedding for
 * event-loop lag unless asked: an in-process app shares its event loop with the test's or the
 * bench's own work, which a loaded machine lags by seconds (load shedding has its own tests).
 */
export function configWith(overrides: Partial<Config>): Config {
  return Object.freeze({ ...loadConfig({ SWITCHBOARD_SHED_EVENT_LOOP_DELAY_MS: '0' }), ...overrides });
}
