// The agent block's money path with a Billing double: max_tokens capped by headroom, a limit when
// nothing is left or a charge is refused, one charge per effectKey.
import { describe, expect, it } from 'vitest';
import { agentPrompt, createBlockRegistry, LIMIT_MESSAGES, tokenMicros } from '../../../src/engine/blocks/index.js';
import { createLocalLlm } from '../../../src/engine/providers/index.js';
import { loadConfig } from '../../../src/config.js';
import type { BlockDef } from '../../../src/engine/types.js';
import { ctx, FakeBilling, FakeLlm, providers } from './context.js';

// 2,000 micros per 1,000 tokens = 2 micros a token.
const agent = createBlockRegistry(loadConfig({ SWITCHBOARD_LLM_MICROS_PER_1K_TOKENS: '2000' })).get('agent')!;
const def = (config: Record<string, unknown>): BlockDef => ({ id: 'write', kind: 'agent', config });
const prompt40 = 'x'.repeat(40); // 10 prompt tokens by the chars/4 estimate

describe('agent', () => {
  it('renders the prompt, calls the model, charges the tokens used', async () => {
    const llm = new FakeLlm(() => ({ text: 'Digest.', inputTokens: 12, outputTokens: 30 }));
    const billing = new FakeBilling(1_000_000);
    const r = await agent.execute(
      ctx({
        block: def({ prompt: 'Digest of: {{notes}}', max_tokens: 300 }),
        inputs: { notes: { text: 'Shipped.' } },
        providers: providers({ llm }),
        billing,
        accountId: '00000000-0000-7000-8000-000000000001',
        keyId: '00000000-0000-7000-8000-000000000002',
        runId: '00000000-0000-7000-8000-000000000003',
        effectKey: 'run:write',
      }),
    );
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]).toMatchObject({ prompt: 'Digest of: Shipped.', maxTokens: 300 });
    expect(llm.requests[0].signal).toBeInstanceOf(AbortSignal);
    expect(billing.charges).toEqual([
      {
        accountId: '00000000-0000-7000-8000-000000000001',
        keyId: '00000000-0000-7000-8000-000000000002',
        workflowRunId: '00000000-0000-7000-8000-000000000003',
        feature: 'llm.tokens',
        micros: 84, // 42 tokens × 2 micros
        effectKey: 'run:write',
      },
    ]);
    expect(r).toEqual({
      status: 'succeeded',
      output: { text: 'Digest.', input_tokens: 12, output_tokens: 30, max_tokens: 300, micros: 84, provider: 'fake' },
    });
  });

  it('caps max_tokens by what the headroom still pays for', async () => {
    const llm = new FakeLlm((req) => ({ text: 'y', inputTokens: 10, outputTokens: req.maxTokens }));
    // 100 micros = 50 tokens in all; the prompt takes 10, so at most 40 may be written.
    const billing = new FakeBilling(100);
    const r = await agent.execute(ctx({ block: def({ prompt: prompt40, max_tokens: 300 }), providers: providers({ llm }), billing }));
    expect(llm.requests[0].maxTokens).toBe(40);
    expect(r.status).toBe('succeeded');
    expect(billing.charges[0].micros).toBe(100);
    expect(billing.left).toBe(0);
    // The configured max_tokens wins when it is the smaller.
    const r2 = await agent.execute(
      ctx({ block: def({ prompt: prompt40, max_tokens: 5 }), providers: providers({ llm }), billing: new FakeBilling(100) }),
    );
    expect(llm.requests[1].maxTokens).toBe(5);
    expect(r2.status).toBe('succeeded');
  });

  it('stops with a limit, without calling the model, when nothing is left', async () => {
    for (const left of [0, 20, -5]) {
      // 20 micros = 10 tokens: all taken by the prompt.
      const llm = new FakeLlm(() => ({ text: 'n', inputTokens: 1, outputTokens: 1 }));
      const billing = new FakeBilling(left);
      const r = await agent.execute(ctx({ block: def({ prompt: prompt40 }), providers: providers({ llm }), billing }));
      expect(r).toEqual({ status: 'limit', error: 'Stopped: spend limit reached' });
      expect(llm.requests).toHaveLength(0);
      expect(billing.charges).toHaveLength(0);
      // The stop is remembered, so the API refuses the next start with 402.
      expect(billing.stops).toBe(1);
    }
  });

  it('turns a refused charge into a limit with the reason', async () => {
    for (const [reason, error] of [
      ['credit', 'Stopped: out of credit'],
      ['cap', 'Stopped: key spend cap reached'],
    ] as const) {
      const billing = new FakeBilling(1_000, reason);
      const r = await agent.execute(ctx({ block: def({ prompt: 'Hi' }), billing }));
      expect(r).toEqual({ status: 'limit', error });
      expect(LIMIT_MESSAGES[reason]).toBe(error);
    }
  });

  it('charges once when a step is resumed with the same effectKey', async () => {
    const billing = new FakeBilling(1_000_000);
    const c = () => ctx({ block: def({ prompt: 'Hi' }), billing, effectKey: 'run-9:write' });
    await agent.execute(c());
    await agent.execute(c());
    expect(billing.charges).toHaveLength(1);
  });

  it('fails with the provider error, charging nothing', async () => {
    const billing = new FakeBilling(1_000_000);
    const llm = new FakeLlm(() => {
      throw new Error('LLM provider answered HTTP 500: boom');
    });
    const r = await agent.execute(ctx({ block: def({ prompt: 'Hi' }), billing, providers: providers({ llm }) }));
    expect(r).toEqual({ status: 'failed', error: 'LLM provider answered HTTP 500: boom' });
    expect(billing.charges).toHaveLength(0);
  });

  it('is free, and asks no headroom, at a price of 0', async () => {
    const free = createBlockRegistry(loadConfig({ SWITCHBOARD_LLM_MICROS_PER_1K_TOKENS: '0' })).get('agent')!;
    const billing = new FakeBilling(0);
    const r = await free.execute(ctx({ block: def({ prompt: 'Hi' }), billing }));
    expect(r.status).toBe('succeeded');
    expect(billing.headroomCalls).toBe(0);
    expect(billing.charges).toHaveLength(0);
  });

  it('works with the local development provider end to end', async () => {
    const billing = new FakeBilling(1_000_000);
    const r = await agent.execute(
      ctx({
        block: def({ prompt: 'Write a short weekly digest from: {{notes}}', max_tokens: 300 }),
        inputs: { notes: { text: 'Shipped the pricing page. Fixed checkout on mobile.' } },
        providers: providers({ llm: createLocalLlm() }),
        billing,
      }),
    );
    expect(r).toMatchObject({ status: 'succeeded', output: { text: 'Shipped the pricing page. Fixed checkout on mobile.' } });
    // Tokens are ceil(chars/4) of the prompt and of the answer, at 2 micros a token.
    const sent = 'Write a short weekly digest from: Shipped the pricing page. Fixed checkout on mobile.';
    const answer = 'Shipped the pricing page. Fixed checkout on mobile.';
    expect(billing.charges[0].micros).toBe(2 * (Math.ceil(sent.length / 4) + Math.ceil(answer.length / 4)));
  });

  it('appends the inputs when the prompt names none of them', () => {
    expect(agentPrompt('Summarise this.', { a: { text: 'A' }, b: { text: 'B' } })).toBe('Summarise this.\n\nA\n\nB');
    expect(agentPrompt('Only {{a}}', { a: { text: 'A' }, b: { text: 'B' } })).toBe('Only A');
    expect(agentPrompt('Nothing', {})).toBe('Nothing');
    expect(tokenMicros(1, 2000)).toBe(2);
    expect(tokenMicros(1, 1)).toBe(1); // a fraction of a micro is charged as one
  });
});
