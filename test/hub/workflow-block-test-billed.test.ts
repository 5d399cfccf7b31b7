// "Test this block" against a real AI provider (an OpenAI-compatible server on loopback): the
// provider is asked with the prompt being edited, its tokens are the account's AI usage (one
// ledger entry, the credit down by exactly that, no run), and the answer says so. A provider that
// fails leaves nothing billed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configWith } from '../../src/config.js';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { seed } from '../http/fixtures.js';

let t: TestApp;
let S: Record<string, AccountSeedResult>;
let member: HubClient;
let wf: string;
let server: http.Server;
const prompts: string[] = [];
let status = 200;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw) as { messages: { content: string }[] };
      prompts.push(body.messages[0].content);
      if (status !== 200) return void res.writeHead(status, { 'content-type': 'application/json' }).end('{"error":{"message":"down"}}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ id: 'c1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'Hello, team!' } }], usage: { prompt_tokens: 600, completion_tokens: 400, total_tokens: 1000 } }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = configWith({});
  t = await testApp({
    llm: { ...base.llm, provider: 'openai-compatible', baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, apiKey: 'sk-test', model: 'test-model', microsPer1kTokens: 2_000, maxAttempts: 1 },
  });
  S = await seed(t.db, {
    ref: 'a',
    name: 'Account a',
    credit_micros: 10_000_000,
    users: [{ ref: 'mem', email: 'mem@a.example', role: 'member' }],
  });
  member = await hubClient(t, { accountId: S.a.id, userId: S.a.users.mem, email: 'mem@a.example' });
  const r = await member.post('/hub/api/workflows', {
    name: 'Greeting',
    blocks: [
      { id: 'src', kind: 'source.text', config: { text: 'the team' } },
      { id: 'ask', kind: 'agent', config: { prompt: 'Greet {{src}}.' } },
    ],
    edges: [{ from: 'src', to: 'ask' }],
  });
  expect(r.statusCode, r.body).toBe(201);
  wf = r.json().id;
});
afterAll(async () => {
  await t?.close();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

const state = async () => {
  const [row] = await t.db.query<{ runs: number; ledger: number; billed: string | null; credit: string }>(
    `select (select count(*)::int from workflow_runs) as runs,
            (select count(*)::int from billing_ledger where account_id = $1) as ledger,
            (select sum(micros)::text from billing_ledger where account_id = $1) as billed,
            (select credit_micros::text from accounts where id = $1) as credit`,
    [S.a.id],
  );
  return row;
};

describe('Test this block with a real AI provider', () => {
  it("asks the provider with the edited prompt and bills its tokens as the account's AI usage, with no run", async () => {
    const before = await state();
    const r = await member.post(`/hub/api/workflows/${wf}/blocks/ask/test`, { config: { prompt: 'Say hello to {{src}}, warmly.' }, inputs: { src: 'everyone' } });
    expect(r.statusCode, r.body).toBe(200);
    // 1,000 tokens at 2,000 micros per 1,000: 2,000 micros.
    expect(r.json()).toMatchObject({ status: 'succeeded', output: { text: 'Hello, team!' }, billed_micros: 2_000, development_ai: false });
    expect(prompts.at(-1)).toContain('Say hello to everyone, warmly.');
    const after = await state();
    expect(after.runs).toBe(before.runs);
    expect(after.ledger).toBe(before.ledger + 1);
    expect(BigInt(after.credit)).toBe(BigInt(before.credit) - 2_000n);
    const usage = (await member.get('/hub/api/usage')).json();
    expect(JSON.stringify(usage)).toContain('llm.tokens');
  });

  it('a provider that fails bills nothing and says why', async () => {
    status = 500;
    try {
      const before = await state();
      const r = await member.post(`/hub/api/workflows/${wf}/blocks/ask/test`, { inputs: { src: 'everyone' } });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toMatchObject({ status: 'failed', billed_micros: 0, development_ai: false });
      expect(r.json().error).toEqual(expect.any(String));
      expect(await state()).toEqual(before);
    } finally {
      status = 200;
    }
  });
});
