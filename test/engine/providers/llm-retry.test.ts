// The openai-compatible provider tries again when the server says "not now" (429, 5xx), against a
// scripted OpenAI-style server on 127.0.0.1: backoff, Retry-After honoured, other answers not
// retried, the caller's signal (the run's time limit) ends the waiting, and the call is billed
// once, for the answer that came.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { createBlockRegistry } from '../../../src/engine/blocks/index.js';
import { createOpenAiCompatibleLlm, createProviders } from '../../../src/engine/providers/index.js';
import { ctx, FakeBilling, providers } from '../blocks/context.js';

type Reply = { status: number; retryAfter?: string };
let script: Reply[] = [];
let times: number[] = [];
let server: http.Server;
let origin: string;

const answer = JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Done.' } }], usage: { prompt_tokens: 10, completion_tokens: 5 } });

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const r = script[Math.min(times.length, script.length - 1)];
      times.push(Date.now());
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (r.retryAfter) headers['retry-after'] = r.retryAfter;
      res.writeHead(r.status, headers).end(r.status === 200 ? answer : JSON.stringify({ error: { message: `status ${r.status}` } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  times = [];
});

const llm = (over: { maxAttempts?: number; retryBaseMs?: number; maxRetryWaitMs?: number } = {}) =>
  createOpenAiCompatibleLlm({ baseUrl: `${origin}/v1`, apiKey: null, model: 'm', timeoutMs: 2_000, maxAttempts: 4, retryBaseMs: 20, ...over });

describe('retries on 429 and 5xx', () => {
  it('503 twice, then an answer: three requests, one result', async () => {
    script = [{ status: 503 }, { status: 502 }, { status: 200 }];
    expect(await llm().complete({ prompt: 'p', maxTokens: 10 })).toEqual({ text: 'Done.', inputTokens: 10, outputTokens: 5 });
    expect(times).toHaveLength(3);
  });

  it('429 with Retry-After: the next request waits at least that long', async () => {
    script = [{ status: 429, retryAfter: '1' }, { status: 200 }];
    await llm().complete({ prompt: 'p', maxTokens: 10 });
    expect(times).toHaveLength(2);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(950);
  });

  it('gives up after maxAttempts with the last answer', async () => {
    script = [{ status: 500 }];
    await expect(llm({ maxAttempts: 3 }).complete({ prompt: 'p', maxTokens: 10 })).rejects.toThrow('LLM provider answered HTTP 500: status 500 (after 3 attempts)');
    expect(times).toHaveLength(3);
  });

  it('does not retry a refusal (400, 401)', async () => {
    script = [{ status: 400 }];
    await expect(llm().complete({ prompt: 'p', maxTokens: 10 })).rejects.toThrow('LLM provider answered HTTP 400: status 400');
    script = [{ status: 401 }];
    await expect(llm().complete({ prompt: 'p', maxTokens: 10 })).rejects.toThrow(/HTTP 401/);
    expect(times).toHaveLength(2);
  });

  it("the caller's signal (the run's time limit) ends the wait, and no further request is made", async () => {
    script = [{ status: 503, retryAfter: '5' }, { status: 200 }];
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    await expect(llm().complete({ prompt: 'p', maxTokens: 10, signal: ac.signal })).rejects.toThrow(/time ran out before attempt 2/);
    expect(times).toHaveLength(1);
  });

  it('a Retry-After longer than the provider waits for fails at once with the answer', async () => {
    script = [{ status: 429, retryAfter: '3600' }, { status: 200 }];
    await expect(llm({ maxRetryWaitMs: 1_000 }).complete({ prompt: 'p', maxTokens: 10 })).rejects.toThrow('LLM provider answered HTTP 429: status 429');
    expect(times).toHaveLength(1);
  });

  it('SWITCHBOARD_LLM_MAX_ATTEMPTS sets the attempts of the configured provider', async () => {
    script = [{ status: 503 }];
    const p = createProviders(
      loadConfig({ SWITCHBOARD_LLM_PROVIDER: 'openai-compatible', SWITCHBOARD_LLM_BASE_URL: `${origin}/v1`, SWITCHBOARD_LLM_MAX_ATTEMPTS: '2' }),
    );
    await expect(p.llm.complete({ prompt: 'p', maxTokens: 10 })).rejects.toThrow(/after 2 attempts/);
    expect(times).toHaveLength(2);
  });
});

describe('billing', () => {
  it('an agent block whose call was retried is charged once, for the answer it got', async () => {
    script = [{ status: 503 }, { status: 429 }, { status: 200 }];
    const agent = createBlockRegistry(loadConfig({ SWITCHBOARD_LLM_MICROS_PER_1K_TOKENS: '2000' })).get('agent')!;
    const billing = new FakeBilling(1_000_000);
    const r = await agent.execute(
      ctx({
        block: { id: 'write', kind: 'agent', config: { prompt: 'Write', max_tokens: 100 } },
        providers: providers({ llm: llm() }),
        billing,
        accountId: '00000000-0000-7000-8000-000000000001',
        keyId: null,
        runId: '00000000-0000-7000-8000-000000000003',
        effectKey: 'run:write',
      }),
    );
    expect(r.status).toBe('succeeded');
    expect(times).toHaveLength(3);
    expect(billing.charges).toEqual([expect.objectContaining({ feature: 'llm.tokens', micros: 30, effectKey: 'run:write' })]);
  });
});
