// The one place that reads the environment. Everything else receives a frozen Config.
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
    if (!/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(entry) && !['loopback', 'linklocal', 'uniquelocal'].includes(entry)) {
      throw new ConfigError(`TRUST_PROXY entry ${JSON.stringify(entry)} is not an address, CIDR range or hop count`);
    }
  }
  return list;
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
    redisUrl: env.REDIS_URL?.trim() || null,
    rateLimitStore: rateLimitStore(env, databaseUrl),
    trustProxy: trustProxy(env.TRUST_PROXY),
    apiOpen: bool(env, 'SWITCHBOARD_API_OPEN', true),
    autoMigrate: bool(env, 'SWITCHBOARD_AUTO_MIGRATE', true),
    tls: certFile ? { certFile, keyFile } : null,
    logLevel: env.LOG_LEVEL?.trim() || 'info',
    idempotencyLockTimeoutMs: int(env, 'SWITCHBOARD_IDEMPOTENCY_LOCK_TIMEOUT_MS', 120_000, 1_000, 86_400_000),
  };
  return Object.freeze(cfg);
}

/** Test and tooling helper: the defaults with some values replaced. */
export function configWith(overrides: Partial<Config>): Config {
  return Object.freeze({ ...loadConfig({}), ...overrides });
}
