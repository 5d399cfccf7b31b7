// Running `serve` as an operator would: every bad setting refuses the start naming its variable
// (also TLS files that are not PEM), SIGTERM exits within a bounded time even with a client stalled
// mid-request, and a never-migrated store with SWITCHBOARD_AUTO_MIGRATE=false says to migrate.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bannerAddress, captured, exited, runCli } from '../helpers/process.js';
import { untilExit } from '../helpers/progress.js';
import type { ChildProcess } from 'node:child_process';

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-a4-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

interface Proc {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
}

async function start(env: Record<string, string>, args = ['serve']): Promise<Proc> {
  const { child, output } = captured(runCli(args, { HOST: '127.0.0.1', PORT: '0', ...env }));
  return { child, baseUrl: await bannerAddress(child, output), output };
}

/** Runs a command to its exit (while it makes progress); its code and everything it printed. */
async function runToExit(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const { child, output } = captured(runCli(args, { HOST: '127.0.0.1', PORT: '0', ...env }));
  const { code } = await untilExit(child, { what: `switchboard ${args.join(' ')} to exit`, output });
  return { code, out: output() };
}

function dataDir(name: string): string {
  return path.join(tmp, name);
}

describe('serve as an operator runs it', () => {
  // README, Configuration: "validated; a bad value stops the start with a message naming the variable".
  const garbagePem = (): Record<string, string> => {
    const f = path.join(tmp, 'garbage.pem');
    fs.writeFileSync(f, 'this is not a PEM file\n');
    return { TLS_CERT_FILE: f, TLS_KEY_FILE: f };
  };
  const cases: [string, () => Record<string, string>, RegExp][] = [
    ['LOG_LEVEL', () => ({ LOG_LEVEL: 'loud' }), /LOG_LEVEL/],
    ['TRUST_PROXY', () => ({ TRUST_PROXY: 'abc' }), /TRUST_PROXY/],
    ['SWITCHBOARD_LLM_BASE_URL', () => ({ SWITCHBOARD_LLM_PROVIDER: 'openai-compatible', SWITCHBOARD_LLM_BASE_URL: 'notaurl' }), /SWITCHBOARD_LLM_BASE_URL/],
    ['TLS_CERT_FILE/TLS_KEY_FILE', garbagePem, /TLS_(CERT|KEY)_FILE/],
    ['REDIS_URL', () => ({ REDIS_URL: 'http://127.0.0.1:1' }), /REDIS_URL/],
  ];
  it.each(cases)('a bad %s refuses the start with a message naming it', async (name, env, re) => {
    const r = await runToExit(['serve'], { SWITCHBOARD_DATA_DIR: dataDir(`bad-${name.replace(/\W/g, '')}`), ...env() });
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(re);
  }, 120_000);

  // "graceful shutdown on SIGTERM ... the process exits within a bounded time": a client that
  // sent part of a request body and stalls keeps the process alive ~72 s (fastify's keep-alive
  // timeout; a client trickling bytes, indefinitely): release() has no deadline.
  it('exits promptly on SIGTERM even while a client holds an unfinished request', async () => {
    const s = await start({ SWITCHBOARD_DATA_DIR: dataDir('stall') });
    const u = new URL(s.baseUrl);
    const sock = net.connect(Number(u.port), u.hostname);
    sock.on('error', () => {});
    try {
      await new Promise<void>((r) => sock.on('connect', () => r()));
      sock.write('POST /v1/contacts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
      await new Promise((r) => setTimeout(r, 300));
      s.child.kill('SIGTERM');
      const code = await Promise.race([exited(s.child), new Promise((r) => setTimeout(() => r('still running'), 40_000))]);
      expect(code).toBe(0);
    } finally {
      sock.destroy();
      if (s.child.exitCode === null && s.child.signalCode === null) {
        s.child.kill('SIGKILL');
        await exited(s.child);
      }
    }
  }, 180_000);

  // README: "SWITCHBOARD_AUTO_MIGRATE=false for rolling deploys: run `switchboard migrate` first;
  // /readyz fails while the schema is older than the code." On a store never migrated, serve
  // exits with `relation "server_secrets" does not exist` instead: neither /readyz nor a message
  // that says what to do.
  it('with SWITCHBOARD_AUTO_MIGRATE=false on an unmigrated store: /readyz 503, or a refusal that says to migrate', async () => {
    const env = { SWITCHBOARD_DATA_DIR: dataDir('nomigrate'), SWITCHBOARD_AUTO_MIGRATE: 'false' };
    let s: Proc | null = null;
    let failure = '';
    try {
      s = await start(env);
    } catch (err) {
      failure = String(err);
    }
    if (s) {
      const r = await fetch(`${s.baseUrl}/readyz`);
      expect(r.status).toBe(503);
      expect(await r.json()).toMatchObject({ status: 'unavailable', schema_version: 0 });
      s.child.kill('SIGTERM');
      expect(await exited(s.child)).toBe(0);
    } else {
      expect(failure).toMatch(/switchboard migrate/);
      expect(failure).not.toMatch(/relation .* does not exist/);
    }
  }, 180_000);
});
