// The LLM providers: the openai-compatible client against a fake OpenAI-style server on
// 127.0.0.1 (real HTTP), and the deterministic local development provider.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import {
  chatCompletionsUrl,
  createLocalLlm,
  createOpenAiCompatibleLlm,
  createProviders,
} from '../../../src/engine/providers/index.js';

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: any;
}
let seen: Seen[] = [];
type Reply = { status: number; body: string } | 'hang';
let reply: Reply;

const ok = (content: string, usage: unknown = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 }): Reply => ({
  status: 200,
  body: JSON.stringify({ id: 'c1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content } }], usage }),
});

let server: http.Server;
let origin: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // keep raw
      }
      seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, contentType: req.headers['content-type'], body });
      if (reply === 'hang') return;
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
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
  seen = [];
  reply = ok('Hello there.');
});

const provider = (over: Partial<{ baseUrl: string; apiKey: string | null; timeoutMs: number }> = {}) =>
  createOpenAiCompatibleLlm({ baseUrl: `${origin}/v1`, apiKey: 'sk-test', model: 'test-model', timeoutMs: 2_000, ...over });

describe('openai-compatible provider', () => {
  it('POSTs model, messages and max_tokens with the bearer key, and parses content and usage', async () => {
    const res = await provider().complete({ prompt: 'Say hello', maxTokens: 42 });
    expect(res).toEqual({ text: 'Hello there.', inputTokens: 11, outputTokens: 7 });
    expect(seen).toEqual([
      {
        method: 'POST',
        url: '/v1/chat/completions',
        authorization: 'Bearer sk-test',
        contentType: 'application/json',
        body: { model: 'test-model', messages: [{ role: 'user', content: 'Say hello' }], max_tokens: 42 },
      },
    ]);
  });

  it('accepts a base URL with or without /v1, and sends no Authorization without a key', async () => {
    await provider({ baseUrl: origin, apiKey: null }).complete({ prompt: 'p', maxTokens: 1 });
    await provider({ baseUrl: `${origin}/v1/` }).complete({ prompt: 'p', maxTokens: 1 });
    expect(seen.map((s) => s.url)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
    expect(seen[0].authorization).toBeUndefined();
    expect(chatCompletionsUrl('https://api.example.com/openai/v1')).toBe('https://api.example.com/openai/v1/chat/completions');
    expect(chatCompletionsUrl('https://g.example.com/v1beta/openai/')).toBe('https://g.example.com/v1beta/openai/chat/completions');
    expect(chatCompletionsUrl('http://h:8000/v1/chat/completions')).toBe('http://h:8000/v1/chat/completions');
  });

  it('estimates tokens when the server reports no usage', async () => {
    reply = ok('abcdefgh', null);
    expect(await provider().complete({ prompt: 'x'.repeat(9), maxTokens: 5 })).toEqual({ text: 'abcdefgh', inputTokens: 3, outputTokens: 2 });
  });

  it('reports non-2xx answers with the server message', async () => {
    reply = { status: 429, body: JSON.stringify({ error: { message: 'Rate limit reached', type: 'rate_limit' } }) };
    await expect(provider().complete({ prompt: 'p', maxTokens: 1 })).rejects.toThrow('LLM provider answered HTTP 429: Rate limit reached');
    reply = { status: 500, body: 'upstream exploded' };
    await expect(provider().complete({ prompt: 'p', maxTokens: 1 })).rejects.toThrow('LLM provider answered HTTP 500: upstream exploded');
    reply = { status: 401, body: '' };
    await expect(provider().complete({ prompt: 'p', maxTokens: 1 })).rejects.toThrow('HTTP 401: (empty body)');
  });

  it('reports bad JSON and a missing message', async () => {
    reply = { status: 200, body: '{"choices": [' };
    await expect(provider().complete({ prompt: 'p', maxTokens: 1 })).rejects.toThrow(/invalid JSON/);
    reply = { status: 200, body: JSON.stringify({ choices: [] }) };
    await expect(provider().complete({ prompt: 'p', maxTokens: 1 })).rejects.toThrow(/no choices\[0\]\.message\.content/);
    reply = { status: 200, body: 'null' };
    await expect(provider().complete({ prompt: 'p', maxTokens: 1 })).rejects.toThrow(/no choices/);
  });

  it('times out, honours the caller signal, and names an unreachable server', async () => {
    reply = 'hang';
    await expect(provider({ timeoutMs: 200 }).complete({ prompt: 'p', maxTokens: 1 })).rejects.toThrow('LLM provider timed out after 200 ms');
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    await expect(provider().complete({ prompt: 'p', maxTokens: 1, signal: ac.signal })).rejects.toThrow('LLM request cancelled');
    // A port that was just free: nothing listens there.
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    await expect(provider({ baseUrl: `http://127.0.0.1:${port}` }).complete({ prompt: 'p', maxTokens: 1 })).rejects.toThrow(
      /LLM provider unreachable at http:\/\/127\.0\.0\.1/,
    );
  });

  it('is what createProviders builds for provider=openai-compatible', async () => {
    const p = createProviders(
      loadConfig({
        SWITCHBOARD_LLM_PROVIDER: 'openai-compatible',
        SWITCHBOARD_LLM_BASE_URL: `${origin}/v1`,
        SWITCHBOARD_LLM_API_KEY: 'sk-config',
        SWITCHBOARD_LLM_MODEL: 'configured-model',
      }),
    );
    expect(p.llm.name).toBe('openai-compatible');
    await p.llm.complete({ prompt: 'p', maxTokens: 3 });
    expect(seen[0]).toMatchObject({ authorization: 'Bearer sk-config', body: { model: 'configured-model', max_tokens: 3 } });
  });
});

describe('local provider (development only)', () => {
  const llm = createLocalLlm();
  it('is deterministic: the first sentences of the material', async () => {
    const prompt = 'Write a short weekly digest from: Shipped the pricing page.  Fixed checkout. Hired Bo! Moved office.';
    const a = await llm.complete({ prompt, maxTokens: 300 });
    expect(a).toEqual({
      text: 'Shipped the pricing page. Fixed checkout. Hired Bo!',
      inputTokens: Math.ceil(prompt.length / 4),
      outputTokens: Math.ceil(51 / 4),
    });
    expect(await llm.complete({ prompt, maxTokens: 300 })).toEqual(a);
  });
  it('trims to max_tokens (4 characters a token)', async () => {
    const r = await llm.complete({ prompt: 'No colon here, just one long sentence about things', maxTokens: 3 });
    expect(r.text).toBe('No colon her');
    expect(r.outputTokens).toBeLessThanOrEqual(3);
  });
  it('refuses an already-cancelled request', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(llm.complete({ prompt: 'p', maxTokens: 1, signal: ac.signal })).rejects.toThrow(/cancelled/);
  });
});
