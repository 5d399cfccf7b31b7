// The `local` LLM provider: a DEVELOPMENT provider only. It calls no model and needs no network;
// it answers deterministically with the first sentences of the prompt's material, so demos, the
// README tour and tests run offline and always give the same page. Production refuses it
// (config.ts); the start-up banner and /readyz name it.
import type { LlmProvider, LlmRequest, LlmResponse } from '../../types.js';

/** Token estimate used throughout the engine: about four characters per token. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

const MAX_SENTENCES = 3;

/**
 * The "summary": the sentences after the instruction, when the prompt has the common shape
 * "Do something with: MATERIAL"; else the prompt's own first sentences. Whitespace is collapsed.
 */
export function localSummary(prompt: string, maxTokens: number): string {
  const flat = prompt.replace(/\s+/g, ' ').trim();
  const colon = flat.indexOf(': ');
  const material = colon >= 0 && colon < flat.length - 2 ? flat.slice(colon + 2) : flat;
  const sentences = material.match(/[^.!?]+[.!?]*/g)?.map((s) => s.trim()).filter(Boolean) ?? [];
  let text = sentences.slice(0, MAX_SENTENCES).join(' ');
  const maxChars = Math.max(0, maxTokens) * 4;
  if (text.length > maxChars) text = text.slice(0, maxChars).trimEnd();
  return text;
}

export function createLocalLlm(): LlmProvider {
  return {
    name: 'local',
    async complete(req: LlmRequest): Promise<LlmResponse> {
      if (req.signal?.aborted) throw new Error('LLM request cancelled');
      const text = localSummary(req.prompt, req.maxTokens);
      return { text, inputTokens: estimateTokens(req.prompt), outputTokens: estimateTokens(text) };
    },
  };
}
