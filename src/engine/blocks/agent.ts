// The agent block: one LLM call over its inputs, billed in micros per token (docs/architecture.md
// §10.7).
//
// Order matters for money: ask the headroom first and cap max_tokens by it (so a call cannot run
// far past the balance or the key's cap), call the model, then charge what was actually used under
// the step's effectKey (so a resumed step is never charged twice).
import { estimateTokens } from '../providers/llm/local.js';
import { isLimitRefusal, type Block, type BlockContext, type BlockResult } from '../types.js';
import { placeholders, renderTemplate } from './text.js';
import { configProblem } from './schema.js';
import { DEFAULT_MAX_TOKENS, MAX_MAX_TOKENS } from '../../domain/block-schemas.js';

export { DEFAULT_MAX_TOKENS, MAX_MAX_TOKENS };

export const LIMIT_MESSAGES = {
  spend: 'Stopped: spend limit reached',
  credit: 'Stopped: out of credit',
  cap: 'Stopped: key spend cap reached',
  ended: 'Stopped: the run had already ended',
  account: 'Stopped: the account is not active',
} as const;

export interface AgentSettings {
  /** Price of 1,000 tokens, input and output alike. */
  microsPer1kTokens: number;
}

/** What `tokens` cost, rounded up: a fraction of a micro is still charged as one. */
export const tokenMicros = (tokens: number, per1k: number): number => Math.ceil((tokens * per1k) / 1000);

/**
 * The prompt sent to the model: placeholders filled in; when the prompt names none of its inputs,
 * the inputs are appended after a blank line so "Summarise this." over an edge still works.
 */
export function agentPrompt(prompt: string, inputs: BlockContext['inputs']): string {
  const names = placeholders(prompt);
  const rendered = renderTemplate(prompt, inputs);
  const used = names.some((n) => Object.prototype.hasOwnProperty.call(inputs, n));
  if (used) return rendered;
  const material = Object.values(inputs).map((o) => String(o.text ?? '')).filter(Boolean);
  return material.length ? `${rendered}\n\n${material.join('\n\n')}` : rendered;
}

export function agent(settings: AgentSettings): Block {
  const price = settings.microsPer1kTokens;
  return {
    kind: 'agent',
    validate: (c) => configProblem('agent', c),
    async execute(ctx): Promise<BlockResult> {
      const { accountId, keyId, runId } = ctx.run;
      const prompt = agentPrompt(String(ctx.block.config.prompt), ctx.inputs);
      let maxTokens = typeof ctx.block.config.max_tokens === 'number' ? ctx.block.config.max_tokens : DEFAULT_MAX_TOKENS;
      if (price > 0) {
        const headroom = await ctx.billing.headroom(accountId, keyId);
        // Tokens the headroom pays for in all, less the prompt's (estimated) share.
        const affordable = Math.floor((Math.max(0, headroom) * 1000) / price);
        const left = affordable - estimateTokens(prompt);
        if (left < 1) {
          await ctx.billing.recordStop(accountId, keyId);
          return { status: 'limit', error: LIMIT_MESSAGES.spend };
        }
        maxTokens = Math.min(maxTokens, left);
      }
      let res;
      try {
        res = await ctx.providers.llm.complete({ prompt, maxTokens, signal: ctx.signal });
      } catch (err) {
        return { status: 'failed', error: (err as Error).message };
      }
      const tokens = res.inputTokens + res.outputTokens;
      const micros = tokenMicros(tokens, price);
      // A free call (price 0, or nothing used) writes no ledger row: a zero row carries no information.
      if (micros > 0) {
        const charged = await ctx.billing.charge({
          accountId,
          keyId,
          workflowRunId: runId,
          feature: 'llm.tokens',
          micros,
          effectKey: ctx.effectKey,
        });
        if (!charged.ok) {
          if (charged.reason === 'account') return { status: 'held' };
          if (isLimitRefusal(charged.reason)) await ctx.billing.recordStop(accountId, keyId, charged.reason);
          return { status: 'limit', error: LIMIT_MESSAGES[charged.reason] };
        }
      }
      return {
        status: 'succeeded',
        output: {
          text: res.text,
          input_tokens: res.inputTokens,
          output_tokens: res.outputTokens,
          max_tokens: maxTokens,
          micros,
          // Which provider wrote it, kept with the output: the run page labels what the
          // development provider (`local`) made, whatever the configuration is when it is read.
          provider: ctx.providers.llm.name,
        },
      };
    },
  };
}
