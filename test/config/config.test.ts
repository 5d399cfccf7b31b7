// Configuration: every problem of a bad environment is reported at once, each naming its variable,
// so an operator fixes them in one go instead of one restart each.
import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

function problems(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('expected the configuration to be refused');
}

describe('configuration errors', () => {
  it('a production start with seven mistakes reports all seven at once', () => {
    const found = problems({ SWITCHBOARD_ENV: 'production', PORT: 'eighty', LOG_LEVEL: 'loud', SWITCHBOARD_POLL_MS: '5' });
    const text = found.join('\n');
    for (const name of [
      'PORT',
      'LOG_LEVEL',
      'SWITCHBOARD_POLL_MS',
      'SWITCHBOARD_LLM_PROVIDER',
      'SWITCHBOARD_EMAIL_TRANSPORT',
      'SWITCHBOARD_SMS_TRANSPORT',
      'SWITCHBOARD_PUBLIC_URL',
      'SWITCHBOARD_EMAIL_FROM',
    ]) {
      expect(text).toContain(name);
    }
    expect(found.length).toBe(8);
  });

  it('the message lists each problem on its own line; one problem is the message itself', () => {
    try {
      loadConfig({ PORT: 'x', SWITCHBOARD_API_OPEN: 'maybe' });
      expect.unreachable();
    } catch (err) {
      expect((err as Error).message).toBe(
        '2 configuration problems:\n- PORT must be a whole number, got "x"\n- SWITCHBOARD_API_OPEN must be true or false, got "maybe"',
      );
    }
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/^PORT must be between 0 and 65535, got 70000$/);
    // A shared rate-limit store's deadline below its answer times under ordinary load would make
    // every process count on its own: 500 ms at least.
    expect(() => loadConfig({ SWITCHBOARD_RATE_LIMIT_TIMEOUT_MS: '100' })).toThrow(/^SWITCHBOARD_RATE_LIMIT_TIMEOUT_MS must be between 500 and 10000, got 100$/);
    expect(loadConfig({ SWITCHBOARD_RATE_LIMIT_TIMEOUT_MS: '500' }).rateLimitTimeoutMs).toBe(500);
  });

  it('values that need another variable name both, and a password in a URL is never echoed', () => {
    const found = problems({
      SWITCHBOARD_RATE_LIMIT_STORE: 'redis',
      SWITCHBOARD_SMTP_URL: 'http://u:secretpw@x',
      TLS_CERT_FILE: '/tmp/cert.pem',
      TRUST_PROXY: 'true',
    });
    expect(found).toEqual([
      'TLS_CERT_FILE and TLS_KEY_FILE must be set together',
      'SWITCHBOARD_RATE_LIMIT_STORE=redis needs REDIS_URL',
      expect.stringMatching(/^TRUST_PROXY must be a hop count/),
      'SWITCHBOARD_SMTP_URL must start with smtp:// or smtps://',
    ]);
    expect(found.join('\n')).not.toContain('secretpw');
  });

  it('the new deadlines and retry settings have their documented defaults', () => {
    const c = loadConfig({});
    expect(c.http).toEqual({
      requestTimeoutMs: 30_000,
      bodyIdleTimeoutMs: 10_000,
      keepAliveTimeoutMs: 5_000,
      maxConnectionsPerAddress: 256,
      drainDelayMs: 0, // development: no balancer to tell
      shedEventLoopDelayMs: 1_000,
      shedHeapUsedBytes: Math.round(0.9 * v8.getHeapStatistics().heap_size_limit),
    });
    expect(loadConfig({ SWITCHBOARD_SHED_HEAP_PERCENT: '0', SWITCHBOARD_SHED_EVENT_LOOP_DELAY_MS: '0', SWITCHBOARD_DRAIN_DELAY_MS: '250' }).http).toMatchObject({ shedHeapUsedBytes: 0, shedEventLoopDelayMs: 0, drainDelayMs: 250 });
    expect(problems({ SWITCHBOARD_SHED_HEAP_PERCENT: '101' })).toEqual([expect.stringMatching(/^SWITCHBOARD_SHED_HEAP_PERCENT must be /)]);
    expect(c.rateLimitTimeoutMs).toBe(1_000);
    // Metrics: off unless asked for; a bare port stays on this machine.
    expect(c.metrics).toBeNull();
    expect(loadConfig({ SWITCHBOARD_METRICS_ADDR: '9464' }).metrics).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(loadConfig({ SWITCHBOARD_METRICS_ADDR: '[::1]:9464' }).metrics).toEqual({ host: '::1', port: 9464 });
    expect(problems({ SWITCHBOARD_METRICS_ADDR: 'http://x:1' })).toEqual([expect.stringMatching(/^SWITCHBOARD_METRICS_ADDR must be PORT or HOST:PORT/)]);
    expect(c.delivery.sendMaxAttempts).toBe(8);
    expect(c.delivery.sendRetryWindowMs).toBe(86_400_000);
    expect(c.delivery.publicUrlSet).toBe(false);
    expect(loadConfig({ SWITCHBOARD_PUBLIC_URL: 'https://hub.example.com/' }).delivery).toMatchObject({
      publicUrl: 'https://hub.example.com',
      publicUrlSet: true,
    });
  });

  it('the starting credit of a new account: US$5 in development, none in production, or as set; never negative or fractional', () => {
    expect(loadConfig({}).startingCreditMicros).toBe(5_000_000);
    const production = {
      SWITCHBOARD_ENV: 'production',
      SWITCHBOARD_LLM_PROVIDER: 'openai-compatible',
      SWITCHBOARD_LLM_BASE_URL: 'https://llm.example.com/v1',
      SWITCHBOARD_EMAIL_TRANSPORT: 'smtp',
      SWITCHBOARD_SMTP_URL: 'smtp://mail.example.com',
      SWITCHBOARD_SMS_TRANSPORT: 'http',
      SWITCHBOARD_SMS_WEBHOOK_URL: 'https://sms.example.com/send',
      SWITCHBOARD_PUBLIC_URL: 'https://hub.example.com',
      SWITCHBOARD_EMAIL_FROM: 'Hub <hub@example.com>',
    };
    expect(loadConfig(production).startingCreditMicros).toBe(0);
    expect(loadConfig(production).http.drainDelayMs).toBe(5_000);
    expect(loadConfig({ ...production, SWITCHBOARD_STARTING_CREDIT_MICROS: '2500000' }).startingCreditMicros).toBe(2_500_000);
    expect(loadConfig({ SWITCHBOARD_STARTING_CREDIT_MICROS: '0' }).startingCreditMicros).toBe(0);
    for (const bad of ['-1', '1.5', 'five', '9007199254740992']) {
      expect(problems({ SWITCHBOARD_STARTING_CREDIT_MICROS: bad })).toEqual([expect.stringMatching(/^SWITCHBOARD_STARTING_CREDIT_MICROS must be /)]);
    }
  });

  it('SWITCHBOARD_HUB_ORIGINS: origins only (scheme, host, optional port), normalised; anything else named', () => {
    expect(loadConfig({ SWITCHBOARD_HUB_ORIGINS: ' http://Switchboard.LAN:8080 , https://10.0.0.5:443,http://[fe80::1]:8080 ' }).hubOrigins).toEqual([
      'http://switchboard.lan:8080',
      'https://10.0.0.5',
      'http://[fe80::1]:8080',
    ]);
    expect(loadConfig({}).hubOrigins).toEqual([]);
    for (const bad of ['switchboard.lan', 'ftp://x.example', 'http://x.example/hub', 'http://u:p@x.example', 'http://x.example?a=1', '*', 'http://*.example']) {
      expect(problems({ SWITCHBOARD_HUB_ORIGINS: bad }), bad).toEqual([expect.stringMatching(/^SWITCHBOARD_HUB_ORIGINS entry .* is not an origin such as http:\/\/switchboard\.lan:8080/)]);
    }
  });
});
