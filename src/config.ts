// The one place that reads the environment. Everything else receives a frozen Config.
import net from 'node:net';
import path from 'node:path';

export interface Config {
  readonly env: 'development' | 'production';
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** PostgreSQL connection string; null means the embedded PGlite store under dataDir. */
  readonly databaseUrl: string | null;
  readonly pgPoolMax: number;
  readonly redisUrl: string | null;
  /** Where rate-limit windows are counted: one process (memory) or shared by all (postgres, redis). */
  readonly rateLimitStore: 'memory' | 'postgres' | 'redis';
  /** fastify `trustProxy`: false, a hop count, or a list of proxy addresses/CIDRs. Never a blanket true. */
  readonly trustProxy: false | number | string[];
  /** Deployment-wide early access switch: false answers every /v1 request 404 api_not_available. */
  readonly apiOpen: boolean;
  readonly autoMigrate: boolean;
  readonly tls: { readonly certFile: string; readonly keyFile: string } | null;
  readonly logLevel: string;
  /** How long an `in_progress` idempotency row may stay locked before its outcome is called unknown. */
  readonly idempotencyLockTimeoutMs: number;
  readonly engine: EngineConfig;
  readonly llm: LlmConfig;
  readonly delivery: DeliveryConfig;
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
}

/** Where outbox rows go (DESIGN 8, Providers): development transports keep messages in the outbox. */
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
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function bool(env: Env, name: string, dflt: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(`${name} must be true or false, got ${JSON.stringify(raw)}`);
}

function int(env: Env, name: string, dflt: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got ${JSON.stringify(raw)}`);
  const n = Number(raw.trim());
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function trustProxy(raw: string | undefined): false | number | string[] {
  if (raw === undefined || raw.trim() === '' || raw.trim().toLowerCase() === 'false') return false;
  const v = raw.trim();
  if (/^\d+$/.test(v)) return Number(v);
  if (['true', 'yes', '1', '*'].includes(v.toLowerCase())) {
    throw new ConfigError(
      'TRUST_PROXY must be a hop count or a comma-separated list of proxy addresses, never a blanket yes ' +
        '(a spoofed X-Forwarded-For would dodge the failed-auth throttle)',
    );
  }
  const list = v.split(',').map((s) => s.trim()).filter(Boolean);
  for (const entry of list) {
    if (!['loopback', 'linklocal', 'uniquelocal'].includes(entry) && !isAddressOrRange(entry)) {
      throw new ConfigError(`TRUST_PROXY entry ${JSON.stringify(entry)} is not an address, CIDR range or hop count`);
    }
  }
  return list;
}

/** An IPv4 or IPv6 address, optionally with a prefix length its family allows. */
function isAddressOrRange(entry: string): boolean {
  const m = /^([^/]+)(?:\/(\d{1,3}))?$/.exec(entry);
  if (!m) return false;
  const family = net.isIP(m[1]);
  if (family === 0) return false;
  return m[2] === undefined || Number(m[2]) <= (family === 4 ? 32 : 128);
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function logLevel(raw: string | undefined): string {
  const v = raw?.trim().toLowerCase() || 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(v)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(raw)}`);
  return v;
}

function rateLimitStore(env: Env, databaseUrl: string | null): Config['rateLimitStore'] {
  const raw = (env.SWITCHBOARD_RATE_LIMIT_STORE ?? 'auto').trim() || 'auto';
  if (raw === 'auto') return env.REDIS_URL?.trim() ? 'redis' : databaseUrl ? 'postgres' : 'memory';
  if (raw === 'memory' || raw === 'postgres' || raw === 'redis') {
    if (raw === 'redis' && !env.REDIS_URL?.trim()) throw new ConfigError('SWITCHBOARD_RATE_LIMIT_STORE=redis needs REDIS_URL');
    if (raw === 'postgres' && !databaseUrl) throw new ConfigError('SWITCHBOARD_RATE_LIMIT_STORE=postgres needs DATABASE_URL');
    return raw;
  }
  throw new ConfigError(`SWITCHBOARD_RATE_LIMIT_STORE must be auto, memory, postgres or redis, got ${JSON.stringify(raw)}`);
}

function llmConfig(env: Env, environment: string): LlmConfig {
  const provider = (env.SWITCHBOARD_LLM_PROVIDER ?? 'local').trim() || 'local';
  if (provider !== 'local' && provider !== 'openai-compatible') {
    throw new ConfigError(`SWITCHBOARD_LLM_PROVIDER must be local or openai-compatible, got ${JSON.stringify(provider)}`);
  }
  const baseUrl = urlSetting('SWITCHBOARD_LLM_BASE_URL', env.SWITCHBOARD_LLM_BASE_URL, ['http', 'https']);
  if (provider === 'openai-compatible' && !baseUrl) {
    throw new ConfigError('SWITCHBOARD_LLM_PROVIDER=openai-compatible needs SWITCHBOARD_LLM_BASE_URL');
  }
  if (environment === 'production' && provider === 'local') {
    throw new ConfigError('SWITCHBOARD_ENV=production refuses the local development LLM provider; set SWITCHBOARD_LLM_PROVIDER');
  }
  return {
    provider,
    baseUrl,
    apiKey: env.SWITCHBOARD_LLM_API_KEY?.trim() || null,
    model: env.SWITCHBOARD_LLM_MODEL?.trim() || 'gpt-4o-mini',
    microsPer1kTokens: int(env, 'SWITCHBOARD_LLM_MICROS_PER_1K_TOKENS', 2_000, 0, 100_000_000),
    timeoutMs: int(env, 'SWITCHBOARD_LLM_TIMEOUT_MS', 60_000, 100, 600_000),
  };
}

function urlSetting(name: string, raw: string | undefined, schemes: readonly string[]): string | null {
  const v = raw?.trim();
  if (!v) return null;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ConfigError(`${name} is not a URL`); // the value may hold a password: not echoed
  }
  if (!schemes.includes(u.protocol.slice(0, -1))) throw new ConfigError(`${name} must start with ${schemes.map((s) => s + '://').join(' or ')}`);
  return v;
}

function deliveryConfig(env: Env, environment: string, host: string, port: number, tls: boolean): DeliveryConfig {
  const emailTransport = (env.SWITCHBOARD_EMAIL_TRANSPORT ?? 'outbox').trim() || 'outbox';
  if (emailTransport !== 'outbox' && emailTransport !== 'smtp') {
    throw new ConfigError(`SWITCHBOARD_EMAIL_TRANSPORT must be outbox or smtp, got ${JSON.stringify(emailTransport)}`);
  }
  const smsTransport = (env.SWITCHBOARD_SMS_TRANSPORT ?? 'outbox').trim() || 'outbox';
  if (smsTransport !== 'outbox' && smsTransport !== 'http') {
    throw new ConfigError(`SWITCHBOARD_SMS_TRANSPORT must be outbox or http, got ${JSON.stringify(smsTransport)}`);
  }
  const smtpUrl = urlSetting('SWITCHBOARD_SMTP_URL', env.SWITCHBOARD_SMTP_URL, ['smtp', 'smtps']);
  if (emailTransport === 'smtp' && !smtpUrl) throw new ConfigError('SWITCHBOARD_EMAIL_TRANSPORT=smtp needs SWITCHBOARD_SMTP_URL');
  const smsWebhookUrl = urlSetting('SWITCHBOARD_SMS_WEBHOOK_URL', env.SWITCHBOARD_SMS_WEBHOOK_URL, ['http', 'https']);
  if (smsTransport === 'http' && !smsWebhookUrl) throw new ConfigError('SWITCHBOARD_SMS_TRANSPORT=http needs SWITCHBOARD_SMS_WEBHOOK_URL');
  const publicUrl = urlSetting('SWITCHBOARD_PUBLIC_URL', env.SWITCHBOARD_PUBLIC_URL, ['http', 'https']);
  const inboundSmsSecret = env.SWITCHBOARD_INBOUND_SMS_SECRET?.trim() || null;
  if (inboundSmsSecret && inboundSmsSecret.length < 16) throw new ConfigError('SWITCHBOARD_INBOUND_SMS_SECRET must be at least 16 characters');
  const emailFrom = env.SWITCHBOARD_EMAIL_FROM?.trim() || null;
  if (environment === 'production') {
    // Like the local LLM: a development transport would silently send nothing to real people.
    if (emailTransport === 'outbox') throw new ConfigError('SWITCHBOARD_ENV=production refuses the outbox (development) email transport; set SWITCHBOARD_EMAIL_TRANSPORT=smtp');
    if (smsTransport === 'outbox') throw new ConfigError('SWITCHBOARD_ENV=production refuses the outbox (development) SMS transport; set SWITCHBOARD_SMS_TRANSPORT=http');
    // Unsubscribe links must reach the server from the recipient's mailbox, not 127.0.0.1.
    if (!publicUrl) throw new ConfigError('SWITCHBOARD_ENV=production needs SWITCHBOARD_PUBLIC_URL (the base of unsubscribe links)');
    if (!emailFrom) throw new ConfigError('SWITCHBOARD_ENV=production needs SWITCHBOARD_EMAIL_FROM');
  }
  const sendTimeoutMs = int(env, 'SWITCHBOARD_SEND_TIMEOUT_MS', 30_000, 100, 600_000);
  const stuckAfterMs = int(env, 'SWITCHBOARD_OUTBOX_STUCK_MS', 300_000, 1_000, 86_400_000);
  if (stuckAfterMs <= sendTimeoutMs) {
    // Otherwise a slow but live send would be called unknown while it is still going.
    throw new ConfigError('SWITCHBOARD_OUTBOX_STUCK_MS must be longer than SWITCHBOARD_SEND_TIMEOUT_MS');
  }
  return {
    emailTransport,
    smtpUrl,
    emailFrom: emailFrom ?? 'Switchboard <switchboard@localhost>',
    smsTransport,
    smsWebhookUrl,
    smsWebhookToken: env.SWITCHBOARD_SMS_WEBHOOK_TOKEN?.trim() || null,
    publicUrl: (publicUrl ?? `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, ''),
    inboundSmsSecret,
    sendTimeoutMs,
    stuckAfterMs,
    concurrency: int(env, 'SWITCHBOARD_SENDER_CONCURRENCY', 4, 1, 256),
    smsMicrosPerSegment: int(env, 'SWITCHBOARD_SMS_MICROS_PER_SEGMENT', 8_000, 0, 100_000_000),
  };
}

export function loadConfig(env: Env = process.env): Config {
  const environment = (env.SWITCHBOARD_ENV ?? 'development').trim() || 'development';
  if (environment !== 'development' && environment !== 'production') {
    throw new ConfigError(`SWITCHBOARD_ENV must be development or production, got ${JSON.stringify(environment)}`);
  }
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const certFile = env.TLS_CERT_FILE?.trim() || '';
  const keyFile = env.TLS_KEY_FILE?.trim() || '';
  if (Boolean(certFile) !== Boolean(keyFile)) {
    throw new ConfigError('TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  }
  const cfg: Config = {
    env: environment,
    port: int(env, 'PORT', 8080, 0, 65535),
    host: env.HOST?.trim() || '127.0.0.1',
    dataDir: path.resolve(env.SWITCHBOARD_DATA_DIR?.trim() || '.switchboard'),
    databaseUrl,
    pgPoolMax: int(env, 'PG_POOL_MAX', 10, 1, 1000),
    redisUrl: urlSetting('REDIS_URL', env.REDIS_URL, ['redis', 'rediss']),
    rateLimitStore: rateLimitStore(env, databaseUrl),
    trustProxy: trustProxy(env.TRUST_PROXY),
    apiOpen: bool(env, 'SWITCHBOARD_API_OPEN', true),
    autoMigrate: bool(env, 'SWITCHBOARD_AUTO_MIGRATE', true),
    tls: certFile ? { certFile, keyFile } : null,
    logLevel: logLevel(env.LOG_LEVEL),
    idempotencyLockTimeoutMs: int(env, 'SWITCHBOARD_IDEMPOTENCY_LOCK_TIMEOUT_MS', 120_000, 1_000, 86_400_000),
    engine: Object.freeze({
      concurrency: int(env, 'SWITCHBOARD_WORKER_CONCURRENCY', 8, 1, 1000),
      leaseMs: int(env, 'SWITCHBOARD_LEASE_MS', 30_000, 1_000, 3_600_000),
      pollMs: int(env, 'SWITCHBOARD_POLL_MS', 500, 10, 60_000),
      startDelayMs: int(env, 'SWITCHBOARD_RUN_START_DELAY_MS', 0, 0, 60_000),
      runTimeLimitMs: int(env, 'SWITCHBOARD_RUN_TIME_LIMIT_MS', 120_000, 100, 3_600_000),
      stepLimit: int(env, 'SWITCHBOARD_RUN_STEP_LIMIT', 50, 1, 10_000),
      webAllowHosts: Object.freeze((env.SWITCHBOARD_WEB_ALLOW_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean)),
      webTimeoutMs: int(env, 'SWITCHBOARD_WEB_TIMEOUT_MS', 10_000, 100, 120_000),
      webMaxBytes: int(env, 'SWITCHBOARD_WEB_MAX_BYTES', 1_048_576, 1_024, 104_857_600),
    }),
    llm: Object.freeze(llmConfig(env, environment)),
    delivery: Object.freeze(
      deliveryConfig(env, environment, env.HOST?.trim() || '127.0.0.1', int(env, 'PORT', 8080, 0, 65535), Boolean(certFile)),
    ),
  };
  return Object.freeze(cfg);
}

/** Test and tooling helper: the defaults with some values replaced. */
export function configWith(overrides: Partial<Config>): Config {
  return Object.freeze({ ...loadConfig({}), ...overrides });
}
